// The command line's side of a run's edges (core/run/preflight.ts and asking.ts), for `bizdata send`,
// `bizdata test` and their data runs: the request files read, the connections as this command line
// has them (flags, the connections file, the environment), the refusals printed as `FILE:LINE` lines
// (exit 2, nothing sent), and the questions asked in the core's order: at a terminal, or answered
// ahead by flags (--yes, --confirm-notes, --var); without a terminal and without the flag, a question
// refuses the run, naming the flag. Nothing here decides what is refused or asked.
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { connectionHosts, connectionNames, findConnection, type Connection } from '../core/connections/connection';
import { bodyFiles, dotenvBeside } from '../core/requests/fileSafety';
import { parseRequestFile, type ParsedRequest } from '../core/requests/requestFile';
import { requestFileText } from '../core/requests/requestText';
import { askRun, type RunAnswers, type RunAsker } from '../core/run/asking';
import { preflight, refusalText, type Preflight, type PreflightFile, type Refusal, type RunConnections } from '../core/run/preflight';
import { safeLine } from '../core/sanitize';
import { CONNECTION_FIELD_FLAGS, DEFAULT_SANDBOX_URL, type Chosen } from './connections';
import type { ConnectionValues } from './connectionOptions';
import { environmentCredentials } from './credentials';
import { readInputBytes, UsageError, type CliIo } from './io';
import { connectionAddresses } from './makeClient';
import { promptHidden, promptVisible } from './prompt';
import { DEFAULT_NAME } from './requestClients';
import type { InputValues } from './requestInputs';

export type EdgeValues = ConnectionValues & InputValues & { readonly yes?: boolean };

/** A request file as a run of the command line reads it: its requests (those named, or all), `# @disabled` ones apart. */
export interface LoadedFile extends PreflightFile {
  /** The chosen requests that are `# @disabled`: reported skipped, never sent. */
  readonly disabled: readonly ParsedRequest[];
}

/** Reads and parses a request file named on the command line; its warnings go to stderr. */
export async function loadRequestFile(path: string, values: InputValues, io: CliIo, command: 'send' | 'test', choose = (all: readonly ParsedRequest[]): readonly ParsedRequest[] => all): Promise<LoadedFile> {
  const text = requestFileText(await readInputBytes(path));
  const parsed = parseRequestFile(text);
  const chosen = choose(parsed.requests);
  for (const p of parsed.problems) if (p.severity !== 'error') io.stderr.write(`${safeLine(`${path}:${p.span.line + 1}: warning: ${p.message}`)}\n`);
  // The folder a request file may read from: its own, links resolved.
  const root = dirname(await realpath(path));
  const allowEnv = new Set(values['allow-env'] ?? []);
  const system = { dotenv: await dotenvBeside(path, root), allowEnv, env: io.env, allowEnvHow: (name: string) => `run bizdata ${command} with --allow-env ${name}` };
  return { path, text, parsed, requests: chosen.filter((r) => !r.settings.disabled), disabled: chosen.filter((r) => r.settings.disabled), inputs: { system, files: bodyFiles(path, root) } };
}

/** The connections of a command-line run: the run's own (flags over its fields), and every other by name (its own fields only). */
export function cliConnections(chosen: Chosen, values: ConnectionValues, io: CliIo): RunConnections {
  const active = chosen.connection?.name ?? DEFAULT_NAME;
  const own = Object.fromEntries(Object.entries(values).filter(([k]) => !(CONNECTION_FIELD_FLAGS as readonly string[]).includes(k))) as ConnectionValues;
  const named = new Map<string, Connection>();
  const connection = (name: string): Connection | undefined => {
    if (name === active) return chosen.connection;
    if (!named.has(name)) named.set(name, findConnection(chosen.connections, name, DEFAULT_SANDBOX_URL));
    return named.get(name);
  };
  const endpoints = new Map<string, ReturnType<typeof connectionAddresses>['endpoints']>();
  const names = [...new Set([active, ...connectionNames(chosen.connections)])];
  return {
    active,
    names,
    endpoints(name) {
      if (!names.includes(name)) return undefined;
      if (!endpoints.has(name)) {
        const mine = name === active;
        endpoints.set(name, connectionAddresses(mine ? values : own, io, 'any', mine ? chosen : { ...chosen, connection: connection(name) }).endpoints);
      }
      return endpoints.get(name);
    },
    isProduction: (name) => connection(name)?.production === true,
    // Every credential the environment holds, the plain ones and every connection's own: all are the run's secrets.
    credentials: () => Promise.resolve(environmentCredentials(io.env)),
  };
}

/** The refusals as one usage error: a `FILE:LINE: message` line each, the form editors and CI jump to. */
export function refuse(refusals: readonly Refusal[], more = 0): never {
  const n = refusals.length + more;
  const count = n === 1 ? 'a problem' : `${n} problems`;
  const files = [...new Set(refusals.map((r) => r.file))];
  const rest = more > 0 ? `\n(and ${more} more of the same kind)` : '';
  throw new UsageError(`nothing was sent: ${files.length === 1 ? `${files[0]} has ${count}` : count}.\n${refusals.map(refusalText).join('\n')}${rest}`);
}

/** The run's preflight and answers; refused (UsageError, nothing sent) when the core says so or the user declines. */
export async function cliEdges(files: readonly PreflightFile[], connections: RunConnections, values: EdgeValues, io: CliIo): Promise<{ readonly preflight: Preflight; readonly answers: RunAnswers }> {
  const what = `sending the requests of ${files.map((f) => f.path).join(', ')}`;
  const p = await preflight({ files, connections });
  if (p.refusals.length > 0) refuse(p.refusals, p.more);
  // A --var no prompt of the run asks for is a mistake, said before anything is asked.
  givenVars(values, p.prompts.map((q) => q.prompt.name));
  const asked = await askRun(p, cliAsker(values, io, connections, what));
  if (!asked.ok) {
    if (asked.refusals) refuse(asked.refusals);
    throw new UsageError('nothing was sent: no answer was given.');
  }
  return { preflight: p, answers: asked.answers };
}

/** The command line's way of asking: a flag given ahead, else a terminal, else a refusal naming the flag. */
function cliAsker(values: EdgeValues, io: CliIo, connections: RunConnections, what: string): RunAsker {
  const terminal = io.stdin.isTTY === true;
  return {
    async production(names) {
      if (values.yes === true) return true;
      const list = names.map((n) => `"${n}"`).join(', ');
      if (terminal && io.stderr.isTTY) {
        const hosts = names.flatMap((n) => hostsOf(connections, n));
        const answer = await promptVisible(`${what} against the production connection${names.length > 1 ? 's' : ''} ${list} (${hosts.join(', ')}). Type yes to go on: `, io.stdin, io.stderr);
        if (answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)) return true;
        throw new UsageError(`Not confirmed; nothing was sent to the production connection${names.length > 1 ? 's' : ''} ${list}.`);
      }
      throw new UsageError(`The connection${names.length > 1 ? 's' : ''} ${list} ${names.length > 1 ? 'are' : 'is'} marked "production": true, so ${what} against ${names.length > 1 ? 'them' : 'it'} needs confirmation; nothing was sent. Add --yes to run it (${what}), or run it in a terminal to be asked.`);
    },
    async notes(notes) {
      if (values['confirm-notes'] === true) return new Set(notes.map((n) => n.request));
      const where = notes.map((n) => `${n.file.path}:${n.request.requestLine + 1}`).join(', ');
      const perRow = notes.some((n) => n.perRow);
      if (!terminal) {
        const how = perRow ? ', which a data-driven run would ask once per row' : ' (ask before sending), and there is no terminal to ask';
        throw new UsageError(`nothing was sent: ${where} ${notes.length === 1 ? 'is' : 'are'} marked "# @note"${how}. Pass --confirm-notes to send ${notes.length === 1 ? 'it' : 'them'} without asking${perRow ? '' : ', or run in a terminal'}.`);
      }
      const confirmed = new Set<ParsedRequest>();
      for (const n of notes) {
        const why = n.note === '' ? '' : ` (${safeLine(n.note)})`;
        const label = `${n.file.path}: ${n.request.name ?? `request ${n.request.index + 1}`}`;
        const answer = await promptVisible(`${safeLine(label)} is marked "# @note"${why}. Send it${n.perRow ? ' for every row' : ''}? [y/N] `, io.stdin, io.stderr);
        if (/^y(es)?$/i.test(answer?.trim() ?? '')) confirmed.add(n.request);
      }
      return confirmed;
    },
    async prompts(questions) {
      const given = givenVars(values, questions.map((q) => q.prompt.name));
      const missing = questions.filter((q) => !given.has(q.prompt.name));
      if (missing.length > 0 && !terminal) {
        const file = missing[0].file.path;
        throw new UsageError(
          `nothing was sent: ${file} asks for ${missing.map((q) => q.prompt.name).join(', ')} ("# @prompt" at line ${missing.map((q) => q.prompt.line + 1).join(', ')}). Give ${missing.map((q) => `--var ${q.prompt.name}=VALUE`).join(' ')}, or run in a terminal to be asked.`,
        );
      }
      const byFile = new Map<string, Map<string, string>>();
      for (const q of questions) {
        let answer = given.get(q.prompt.name);
        if (answer === undefined) {
          const p = q.prompt;
          answer = await promptHidden(`${safeLine(p.name)}${p.description ? ` (${safeLine(p.description)})` : ''} (hidden): `, io.stdin, io.stderr);
          if (answer === undefined) return undefined;
          given.set(p.name, answer);
        }
        const mine = byFile.get(q.file.path) ?? new Map<string, string>();
        mine.set(q.prompt.name, answer);
        byFile.set(q.file.path, mine);
      }
      return byFile;
    },
  };
}

function hostsOf(connections: RunConnections, name: string): string[] {
  const endpoints = connections.endpoints(name);
  return endpoints ? connectionHosts({ endpoints }) : [];
}

/** The answers given by --var NAME=VALUE; a name no prompt asks for is refused. */
function givenVars(values: InputValues, asked: readonly string[]): Map<string, string> {
  const given = new Map<string, string>();
  for (const v of values.var ?? []) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`--var takes NAME=VALUE, as in --var customerId=42; "${safeLine(v.slice(0, 40))}" has no "=".`);
    const name = v.slice(0, eq);
    if (!asked.includes(name)) {
      throw new UsageError(`--var ${name}: the requests to send have no "# @prompt ${name}" line${asked.length > 0 ? `; their prompts are ${[...new Set(asked)].join(', ')}` : ''}.`);
    }
    given.set(name, v.slice(eq + 1));
  }
  return given;
}
