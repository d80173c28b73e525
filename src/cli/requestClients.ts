// The clients of a request file's run (bizdata send, and any command that runs request files): one
// per connection its requests use (`# @connection`), all made before anything is sent.
import { makeClient, type ConnectionValues, type Setup } from './common';
import { CONNECTION_FIELD_FLAGS, DEFAULT_SANDBOX_URL, type Chosen } from './connections';
import { credentialsFromEnvOrPrompt } from './credentials';
import { findConnection } from '../core/connections/connection';
import { requestConnectionMeta } from '../core/requests/requestConnections';
import type { ParsedRequest, ParsedRequestFile } from '../core/requests/requestFile';
import type { CliIo } from './io';
import type { WireEvent } from '../core/model';

export interface RequestClients {
  /** The run's own connection's client (or the first one made, when every request names another). */
  readonly main: Setup;
  /** The client of a request's connection. */
  setupOf(r: ParsedRequest): Setup;
  /** Redacts with every client's secrets (a report covers them all). */
  redact(text: string): string;
  close(): Promise<void>;
}

/**
 * A client for each connection the selected requests use: the run's (flags override its fields) and
 * one per other `# @connection` name, which takes none of the flags a connection stands for. One
 * credential provider for all: one prompt at most. Names must be checked first (connectionProblems).
 * `observe` hears every client's calls (a run's report).
 */
export async function requestClients(runs: ReadonlyArray<{ readonly file: ParsedRequestFile; readonly requests: readonly ParsedRequest[] }>, chosen: Chosen, values: ConnectionValues, io: CliIo, observe?: (e: WireEvent) => void): Promise<RequestClients> {
  const credentials = credentialsFromEnvOrPrompt(io);
  const setups = new Map<string | undefined, Setup>();
  const close = async (): Promise<void> => {
    for (const setup of setups.values()) await setup.close();
  };
  const own = Object.fromEntries(Object.entries(values).filter(([k]) => !(CONNECTION_FIELD_FLAGS as readonly string[]).includes(k))) as ConnectionValues;
  // Several files (bizdata test) share the clients: one token, limiter and guard per account for the run.
  const keys = new Map<ParsedRequest, string | undefined>();
  for (const { file, requests } of runs) {
    for (const r of requests) {
      const name = requestConnectionMeta(file, r)?.name;
      keys.set(r, name === undefined || name === chosen.connection?.name ? undefined : name);
    }
  }
  try {
    for (const key of new Set(keys.values())) {
      if (setups.has(key)) continue;
      const connection = key === undefined ? undefined : findConnection(chosen.connections, key, DEFAULT_SANDBOX_URL);
      setups.set(key, await makeClient(key === undefined ? values : own, io, 'any', { chosen: connection ? { ...chosen, connection } : chosen, credentials, observe }));
    }
  } catch (err) {
    await close();
    throw err;
  }
  const main = setups.get(undefined) ?? [...setups.values()][0];
  const redact = (text: string): string => [...setups.values()].reduce((t, setup) => setup.client.redact(t), text);
  return { main, setupOf: (r) => setups.get(keys.get(r)) ?? main, redact, close };
}
