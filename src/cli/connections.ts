// Named connections on the command line (issue 17): where the connections file is, which connection
// a run uses (--connection, BIZDATA_CONNECTION, the file's "active", --sandbox), and the flags a
// connection stands for, so the rest of the command line reads one set of values. Without a file and
// without a name, nothing changes: the flags and BIZDATA_* variables give the addresses as before.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { connectionHosts, findConnection, SANDBOX_CONNECTION, sandboxConnection, UnknownConnectionError, type Connection, type Connections } from '../core/connections/connection';
import { fileProblem } from '../core/readText';
import { ConnectionsError, parseConnectionsText } from '../core/connections/connectionsFile';
import { safeLine } from '../core/sanitize';
import { DEFAULT_CLI_PORT, DEFAULT_HOST } from '../sandbox/defaults';
import { sandboxUrlProblem } from './addresses';
import { UsageError, type CliIo } from './io';
import { promptVisible } from './prompt';

export const CONNECTIONS_OPTIONS = {
  connections: { type: 'string' },
  connection: { type: 'string' },
} as const;

/** Where `--connection sandbox` goes without --sandbox: where `bizdata sandbox` listens by default. */
export const DEFAULT_SANDBOX_URL = `http://${DEFAULT_HOST}:${DEFAULT_CLI_PORT}`;

export const CONNECTIONS_HELP = `Connections (named sets of addresses and limits; "bizdata connections --help" shows the format):
  --connections FILE   the connections file  [default $XDG_CONFIG_HOME/bizdata/connections.json,
                       else ~/.config/bizdata/connections.json]
  --connection NAME    the connection to use [BIZDATA_CONNECTION, default the file's "active"];
                       "sandbox" is the local sandbox (${DEFAULT_SANDBOX_URL}, or --sandbox URL)
  With a connection, its fields replace BIZDATA_AUTH_URL, BIZDATA_BASE_URL, BIZDATA_LEGACY_URL,
  BIZDATA_ORIGIN and BIZDATA_A_VERSION; the flags below still override a field for one run.`;

export interface ConnectionChoiceValues {
  readonly connections?: string;
  readonly connection?: string;
  readonly sandbox?: string;
}

/** The run's connections and the one it uses; `connection` undefined: no name anywhere, today's flags and variables. */
export interface Chosen {
  readonly connections?: Connections;
  readonly connection?: Connection;
  /** Where the file is (or would be), for messages. */
  readonly file: string;
}

/** --connections, else $XDG_CONFIG_HOME/bizdata/connections.json, else ~/.config/bizdata/connections.json (%APPDATA% on Windows). */
export function connectionsFilePath(flag: string | undefined, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (flag !== undefined) return flag;
  if (platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'bizdata', 'connections.json');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'bizdata', 'connections.json');
}

/** The connections of the file; undefined when the default file does not exist. A file named by --connections must exist. */
export async function readConnections(flag: string | undefined, env: NodeJS.ProcessEnv): Promise<{ connections?: Connections; file: string }> {
  const file = connectionsFilePath(flag, env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && flag === undefined) return { file };
    const check = flag !== undefined ? ' Check the path given to --connections.' : '';
    throw new UsageError(`Cannot read the connections file ${file}: ${fileProblem(err, file)}.${check}`);
  }
  try {
    return { connections: parseConnectionsText(text, file), file };
  } catch (err) {
    if (err instanceof ConnectionsError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * The connection of this run: --sandbox URL is the sandbox (and refuses a different --connection);
 * else --connection, else BIZDATA_CONNECTION, else the file's "active". An unknown name is a usage
 * error listing the names there are.
 */
export async function chooseConnection(values: ConnectionChoiceValues, env: NodeJS.ProcessEnv): Promise<Chosen> {
  const { connections, file } = await readConnections(values.connections, env);
  if (values.sandbox !== undefined) {
    const problem = sandboxUrlProblem(values.sandbox);
    if (problem !== undefined) throw new UsageError(problem);
    if (values.connection !== undefined && values.connection !== SANDBOX_CONNECTION) {
      throw new UsageError(`Give --connection ${values.connection} or --sandbox, not both: --sandbox is the connection "${SANDBOX_CONNECTION}".`);
    }
    return { connections, connection: sandboxConnection(values.sandbox), file };
  }
  const fromEnv = env.BIZDATA_CONNECTION || undefined;
  const name = values.connection ?? fromEnv ?? connections?.active;
  if (name === undefined) return { connections, file };
  try {
    return { connections, connection: findConnection(connections, name, DEFAULT_SANDBOX_URL), file };
  } catch (err) {
    if (!(err instanceof UnknownConnectionError)) throw err;
    const from = values.connection !== undefined ? '--connection' : fromEnv !== undefined ? 'BIZDATA_CONNECTION' : `"active" in ${file}`;
    const noFile = connections === undefined ? ` No connections file was found at ${file}; write one (see "bizdata connections --help") or name it with --connections FILE.` : '';
    throw new UsageError(`${from}: ${err.message}${noFile}`);
  }
}

/** The flags a connection's fields stand for. */
interface FieldFlags {
  'auth-url'?: string;
  'base-url'?: string;
  'legacy-url'?: string;
  origin?: string;
  'a-version'?: string;
  qps?: string;
  concurrency?: string;
  coordinator?: string;
  proxy?: string;
  'ca-file'?: string;
  sandbox?: string;
}

/** Every flag a connection stands for: a request file's other connections take none of them from this run. */
export const CONNECTION_FIELD_FLAGS = ['auth-url', 'base-url', 'legacy-url', 'origin', 'a-version', 'qps', 'concurrency', 'coordinator', 'proxy', 'ca-file', 'sandbox'] as const;

/** `values` with each flag not given filled from the connection's field (flags override a field for one run). */
export function withConnectionFields<V extends FieldFlags>(values: V, c: Connection | undefined): V {
  if (c === undefined) return values;
  if (c.sandbox) return { ...values, sandbox: values.sandbox ?? c.endpoints.baseUrl };
  const e = c.endpoints;
  const num = (n: number | undefined): string | undefined => (n === undefined ? undefined : String(n));
  return {
    ...values,
    'auth-url': values['auth-url'] ?? e.authUrl,
    'base-url': values['base-url'] ?? e.baseUrl,
    'legacy-url': values['legacy-url'] ?? e.legacyUrl,
    origin: values.origin ?? e.origin,
    'a-version': values['a-version'] ?? e.aVersion,
    qps: values.qps ?? num(c.qps),
    concurrency: values.concurrency ?? num(c.concurrency),
    coordinator: values.coordinator ?? c.coordinator,
    proxy: values.proxy ?? c.proxy,
    'ca-file': values['ca-file'] ?? c.caFile,
  };
}

/** The environment a run with a connection reads: the connection's addresses replace the address variables. */
export function envForConnection(env: NodeJS.ProcessEnv, c: Connection | undefined): NodeJS.ProcessEnv {
  if (c === undefined) return env;
  const rest = { ...env };
  for (const k of ['BIZDATA_AUTH_URL', 'BIZDATA_BASE_URL', 'BIZDATA_LEGACY_URL', 'BIZDATA_ORIGIN', 'BIZDATA_A_VERSION']) delete rest[k];
  return rest;
}

/** How a missing address is named: the connection's field, or today's flag and variable. */
export function missingLabel(c: Connection | undefined, field: 'authUrl' | 'baseUrl' | 'legacyUrl' | 'origin', flag: string, variable: string): string {
  return c === undefined ? `${flag} or ${variable}` : `"${field}" in connection "${c.name}" (or ${flag})`;
}

/**
 * A run that reaches a connection marked `"production": true` (a batch, `send`, `test`) goes on only
 * when confirmed: `--yes` (for scripts), or "yes" typed in a terminal. Otherwise a usage error,
 * before anything is sent. `what`: the run, as the question names it; `run`: its kind, for the refusal.
 */
export async function confirmProduction(c: Connection | undefined, yes: boolean, what: string, io: CliIo, run = 'a batch'): Promise<void> {
  if (c === undefined || !c.production || yes) return;
  const hosts = connectionHosts(c).join(', ');
  if (io.stdin.isTTY && io.stderr.isTTY) {
    const answer = await promptVisible(`${what} against the production connection "${c.name}" (${hosts}). Type yes to go on: `, io.stdin, io.stderr);
    if (answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)) return;
    throw new UsageError(`Not confirmed; nothing was sent to the production connection "${c.name}".`);
  }
  throw new UsageError(`The connection "${c.name}" is marked "production": true, so ${run} against it needs confirmation; nothing was sent. Add --yes to run it (${what}), or run it in a terminal to be asked.`);
}

/** Says on stderr which connection a command talked to (stdout stays the service's answer as it came). */
export function noteConnection(c: Connection | undefined, io: CliIo): void {
  if (c !== undefined) io.stderr.write(`${safeLine(`bizdata: connection "${c.name}" (${connectionHosts(c).join(', ')})`)}\n`);
}
