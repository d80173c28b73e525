// The clients of a request file's run (bizdata send, and any command that runs request files): one
// per connection its requests use (`# @connection`), all made before anything is sent.
import { makeClient, type ConnectionValues, type Setup } from './common';
import { CONNECTION_FIELD_FLAGS, DEFAULT_SANDBOX_URL, type Chosen } from './connections';
import { credentialsFromEnvOrPrompt } from './credentials';
import { findConnection } from '../core/connections/connection';
import { requestConnectionMeta } from '../core/requests/requestConnections';
import type { ParsedRequest, ParsedRequestFile } from '../core/requests/requestFile';
import type { CliIo } from './io';

export interface RequestClients {
  /** The run's own connection's client (or the first one made, when every request names another). */
  readonly main: Setup;
  /** The client of a request's connection. */
  setupOf(r: ParsedRequest): Setup;
  close(): Promise<void>;
}

/**
 * A client for each connection the selected requests use: the run's (flags override its fields) and
 * one per other `# @connection` name, which takes none of the flags a connection stands for. One
 * credential provider for all: one prompt at most. Names must be checked first (connectionProblems).
 */
export async function requestClients(file: ParsedRequestFile, selected: readonly ParsedRequest[], chosen: Chosen, values: ConnectionValues, io: CliIo): Promise<RequestClients> {
  const credentials = credentialsFromEnvOrPrompt(io);
  const setups = new Map<string | undefined, Setup>();
  const close = async (): Promise<void> => {
    for (const setup of setups.values()) await setup.close();
  };
  const own = Object.fromEntries(Object.entries(values).filter(([k]) => !(CONNECTION_FIELD_FLAGS as readonly string[]).includes(k))) as ConnectionValues;
  const keyOf = (r: ParsedRequest): string | undefined => {
    const name = requestConnectionMeta(file, r)?.name;
    return name === undefined || name === chosen.connection?.name ? undefined : name;
  };
  try {
    for (const r of selected) {
      const key = keyOf(r);
      if (setups.has(key)) continue;
      const connection = key === undefined ? undefined : findConnection(chosen.connections, key, DEFAULT_SANDBOX_URL);
      setups.set(key, await makeClient(key === undefined ? values : own, io, 'any', { chosen: connection ? { ...chosen, connection } : chosen, credentials }));
    }
  } catch (err) {
    await close();
    throw err;
  }
  const main = setups.get(undefined) ?? [...setups.values()][0];
  return { main, setupOf: (r) => setups.get(keyOf(r)) ?? main, close };
}
