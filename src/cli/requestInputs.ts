// What `bizdata send` asks of the user for a request file of the peers: `# @prompt` answers
// (`--var NAME=VALUE`, else a hidden prompt on a terminal), `# @note` confirmations (`--confirm-notes`,
// else a question on a terminal), and which environment variables `{{$processEnv}}` may read
// (`--allow-env NAME`). Nothing is asked when stdin is no terminal: the run is refused before
// anything is sent, naming the flag that answers.
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { dotenvBeside } from '../core/requests/fileSafety';
import type { ParsedRequest } from '../core/requests/requestFile';
import { promptsOf } from '../core/requests/requestSettings';
import type { SystemContext } from '../core/requests/systemVariables';
import type { SecretRegistry } from '../core/redact';
import { safeLine } from '../core/sanitize';
import { UsageError, type CliIo } from './io';
import { promptHidden, promptVisible } from './prompt';

export const REQUEST_INPUT_OPTIONS = {
  var: { type: 'string', multiple: true },
  'allow-env': { type: 'string', multiple: true },
  'confirm-notes': { type: 'boolean' },
} as const;

export const REQUEST_INPUT_HELP = `Request file options:
  --var NAME=VALUE     the answer to a "# @prompt NAME" line (repeatable); without it a terminal asks,
                       without echo. A secret is better typed at that prompt than written in a flag.
  --allow-env NAME     let {{$processEnv NAME}} read that environment variable (repeatable); no other
                       is read, and BIZDATA_ variables never are
  --confirm-notes      send requests marked "# @note" without asking; without it a terminal asks
                       "Send it? [y/N]" before each, and a run without a terminal is refused`;

export interface InputValues {
  readonly var?: string[];
  readonly 'allow-env'?: string[];
  readonly 'confirm-notes'?: boolean;
}

/** The folder a request file may read from (its own, links resolved), and what its system variables may read. */
export async function requestFileContext(file: string, values: InputValues, io: CliIo, command: 'send' | 'test' = 'send'): Promise<{ readonly root: string; readonly system: SystemContext }> {
  const root = dirname(await realpath(file));
  const allowEnv = new Set(values['allow-env'] ?? []);
  return {
    root,
    system: { dotenv: await dotenvBeside(file, root), allowEnv, env: io.env, allowEnvHow: (name) => `run bizdata ${command} with --allow-env ${name}` },
  };
}

/**
 * The answers to the prompts of the requests to send: from --var, else asked without echo on a
 * terminal. The answer to a prompt whose name looks secret (requestSettings.ts) joins the run's secrets.
 */
export async function promptAnswers(requests: readonly ParsedRequest[], values: InputValues, io: CliIo, file: string, secrets: SecretRegistry): Promise<Map<string, string>> {
  const prompts = promptsOf(requests);
  const given = new Map<string, string>();
  for (const v of values.var ?? []) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`--var takes NAME=VALUE, as in --var customerId=42; "${safeLine(v.slice(0, 40))}" has no "=".`);
    const name = v.slice(0, eq);
    if (!prompts.some((p) => p.name === name)) {
      const known = prompts.map((p) => p.name);
      throw new UsageError(`--var ${name}: the requests to send have no "# @prompt ${name}" line${known.length > 0 ? `; their prompts are ${known.join(', ')}` : ''}.`);
    }
    given.set(name, v.slice(eq + 1));
  }
  const missing = prompts.filter((p) => !given.has(p.name));
  if (missing.length > 0 && !io.stdin.isTTY) {
    throw new UsageError(
      `nothing was sent: ${file} asks for ${missing.map((p) => p.name).join(', ')} ("# @prompt" at line ${missing.map((p) => p.line + 1).join(', ')}). Give ${missing.map((p) => `--var ${p.name}=VALUE`).join(' ')}, or run in a terminal to be asked.`,
    );
  }
  for (const p of missing) {
    const answer = await promptHidden(`${safeLine(p.name)}${p.description ? ` (${safeLine(p.description)})` : ''} (hidden): `, io.stdin, io.stderr);
    if (answer === undefined) throw new UsageError(`nothing was sent: no answer for ${p.name}.`);
    given.set(p.name, answer);
  }
  for (const p of prompts) if (p.secret) secrets.add(given.get(p.name));
  return given;
}

/** Refuses, before anything is sent, requests with a note that no one could confirm. */
export function checkNotes(requests: readonly ParsedRequest[], values: InputValues, io: CliIo, file: string): void {
  if (values['confirm-notes'] === true || io.stdin.isTTY) return;
  const noted = requests.filter((r) => r.settings.note !== undefined);
  if (noted.length === 0) return;
  throw new UsageError(
    `nothing was sent: ${noted.map((r) => `${file}:${r.requestLine + 1}`).join(', ')} ${noted.length === 1 ? 'is' : 'are'} marked "# @note" (ask before sending), and there is no terminal to ask. Run in a terminal, or pass --confirm-notes to send ${noted.length === 1 ? 'it' : 'them'} without asking.`,
  );
}

/** True when a noted request may be sent: --confirm-notes, or "y" at the terminal. */
export async function confirmNote(r: ParsedRequest, label: string, values: InputValues, io: CliIo): Promise<boolean> {
  if (r.settings.note === undefined || values['confirm-notes'] === true) return true;
  const why = r.settings.note === '' ? '' : ` (${safeLine(r.settings.note)})`;
  const answer = await promptVisible(`${safeLine(label)} is marked "# @note"${why}. Send it? [y/N] `, io.stdin, io.stderr);
  return /^y(es)?$/i.test(answer?.trim() ?? '');
}
