// The clients of a request file's run (bizdata send, and any command that runs request files): one
// per connection its requests use (`# @connection`), all made before anything is sent (and after the
// run's edges were checked and its questions answered: runEdges.ts), each with the credentials of its
// own connection only.
import { type ConnectionValues } from './connectionOptions';
import { makeClient, type Setup } from './makeClient';
import { CONNECTION_FIELD_FLAGS, DEFAULT_SANDBOX_URL, type Chosen } from './connections';
import { credentialsFromEnvOrPrompt, credentialVariables, environmentCredentials, hasNamedCredentials } from './credentials';
import { connectionNames, findConnection, type Connection } from '../core/connections/connection';
import type { ConnectionChoice } from '../core/requests/requestConnections';
import { requestConnectionMeta } from '../core/requests/requestConnections';
import type { ParsedRequest, ParsedRequestFile } from '../core/requests/requestFile';
import type { SecretRegistry } from '../core/redact';
import { UsageError, type CliIo } from './io';
import type { WireEvent } from '../core/model';

export const PRODUCTION_OPTIONS = { yes: { type: 'boolean', short: 'y' } } as const;

export const PRODUCTION_HELP = `A connection marked "production": true is confirmed once per run before anything is sent: typed
"yes" in a terminal, or, in a script:
  -y, --yes            send to a production connection without asking`;

/** What a run without a connections file or a name calls its connection (the flags and variables alone). */
export const DEFAULT_NAME = 'default';

/** Run problems as one usage error, each at its `FILE:LINE`, nothing sent. */
export function refuseRunProblems(problems: readonly RunProblem[]): never {
  const count = problems.length === 1 ? 'a request that cannot be sent' : `${problems.length} requests that cannot be sent`;
  throw new UsageError(`nothing was sent: ${count}.\n${problems.map((p) => `${p.path}:${p.line + 1}: ${p.message}`).join('\n')}`);
}

export interface RequestClients {
  /** The run's own connection's client (or the first one made, when every request names another). */
  readonly main: Setup;
  /** The client of a request's connection. */
  setupOf(r: ParsedRequest): Setup;
  /** The connections the run's requests may go to, for the run engine (core/run/engine.ts). */
  readonly choice: ConnectionChoice;
  /** The client of a connection by name (the run's own by its name, or "default" without one). */
  setupNamed(name: string): Setup | undefined;
  /** Redacts with every client's secrets (a report covers them all). */
  redact(text: string): string;
  close(): Promise<void>;
}

export interface RequestRun {
  readonly file: ParsedRequestFile;
  /** Where the file was read from, for `FILE:LINE` refusals. */
  readonly path: string;
  readonly requests: readonly ParsedRequest[];
}

/** A request at the line that sends it elsewhere, refused before anything is sent. */
export interface RunProblem {
  readonly path: string;
  readonly line: number;
  readonly message: string;
}

/**
 * A client for each connection the selected requests use: the run's (flags override its fields) and
 * one per other `# @connection` name, which takes none of the flags a connection stands for and only
 * its own credentials (credentials.ts). Names must be checked first (the preflight); a request
 * whose connection has no credentials it could use is given to `refuse` (nothing is made or sent).
 * One registry of the run's secrets for all, so one redaction knows every one of them. `observe`
 * hears every client's calls (a run's report).
 */
export async function requestClients(
  runs: readonly RequestRun[],
  chosen: Chosen,
  values: ConnectionValues,
  io: CliIo,
  refuse: (problems: readonly RunProblem[]) => void,
  secrets: SecretRegistry,
  observe?: (e: WireEvent) => void,
): Promise<RequestClients> {
  for (const c of environmentCredentials(io.env)) secrets.addCredentials(c);
  const setups = new Map<string | undefined, Setup>();
  const close = async (): Promise<void> => {
    for (const setup of setups.values()) await setup.close();
  };
  const own = Object.fromEntries(Object.entries(values).filter(([k]) => !(CONNECTION_FIELD_FLAGS as readonly string[]).includes(k))) as ConnectionValues;
  // Several files (bizdata test) share the clients: one token, limiter and guard per account for the run.
  const keys = new Map<ParsedRequest, string | undefined>();
  const problems: RunProblem[] = [];
  const others = new Map<string, Connection>();
  for (const { file, path, requests } of runs) {
    for (const r of requests) {
      const meta = requestConnectionMeta(file, r);
      const key = meta === undefined || meta.name === chosen.connection?.name ? undefined : meta.name;
      keys.set(r, key);
      if (meta === undefined || key === undefined) continue;
      const connection = others.get(key) ?? findConnection(chosen.connections, key, DEFAULT_SANDBOX_URL);
      others.set(key, connection);
      const missing = missingCredentials(connection, r, io);
      if (missing !== undefined) problems.push({ path, line: meta.span.line, message: missing });
    }
  }
  if (problems.length > 0) refuse(problems);
  try {
    for (const key of new Set(keys.values())) {
      if (setups.has(key)) continue;
      const connection = key === undefined ? undefined : others.get(key);
      const credentials = credentialsFromEnvOrPrompt(io, { connection: key ?? chosen.connection?.name, own: key === undefined });
      setups.set(key, await makeClient(key === undefined ? values : own, io, 'any', { chosen: connection ? { ...chosen, connection } : chosen, credentials, secrets, observe }));
    }
  } catch (err) {
    await close();
    throw err;
  }
  const main = setups.get(undefined) ?? [...setups.values()][0];
  const active = chosen.connection?.name ?? DEFAULT_NAME;
  const setupNamed = (name: string): Setup | undefined => (name === active ? (setups.get(undefined) ?? main) : setups.get(name));
  const choice: ConnectionChoice = { active, names: [...new Set([active, ...connectionNames(chosen.connections)])], endpoints: (name) => setupNamed(name)?.endpoints };
  return { main, setupOf: (r) => setups.get(keys.get(r)) ?? main, choice, setupNamed, redact: (text) => secrets.redact(text), close };
}

/**
 * Why a request through another connection cannot have credentials, or undefined: the sandbox needs
 * none, a terminal can ask; otherwise the connection's own variables must give its interface's
 * (`# @interface`), or either interface's when the address decides.
 */
function missingCredentials(c: Connection, r: ParsedRequest, io: CliIo): string | undefined {
  if (c.sandbox || io.stdin.isTTY) return undefined;
  const ids = r.interfaceId !== undefined ? [r.interfaceId] : (['a', 'b'] as const);
  if (ids.some((id) => hasNamedCredentials(io.env, c.name, id))) return undefined;
  const wanted = ids.map((id) => `${credentialVariables(id, c.name).join(' and ')} (Interface ${id.toUpperCase()})`).join(' or ');
  return (
    `"# @connection ${c.name}" sends this request through the connection "${c.name}", which has no credentials of its own in the environment; ` +
    `the run's (${credentialVariables('a').join(', ')}, ${credentialVariables('b').join(', ')}) belong to its own connection only. Set ${wanted}, or remove the line.`
  );
}
