// The environment variables of this client, in one place: the ones it reads for itself (the command
// line's settings and credentials, the coordinator's password, the sandbox's admin key, the
// extension's external sandbox) and the ones a named connection's credentials take (BIZDATA_<NAME>_…,
// connectionKey). A connection whose variables would be one of the client's own (a connection named
// "coordinator" would take BIZDATA_COORDINATOR_USER and _PASSWORD, the Redis coordinator's, as its
// Interface B user and password) is refused wherever a connection is named: the connections file,
// the setting, the editor's Add Connection.
import type { InterfaceId } from '../model';
import { connectionKey, shownName } from './connection';

/** Every BIZDATA_ variable the command line, the sandbox and the extension read for themselves, and what it holds. */
export const OWN_VARIABLES: Readonly<Record<string, string>> = {
  BIZDATA_CONSUMER_KEY: "the run's connection's Interface A consumer key",
  BIZDATA_CONSUMER_SECRET: "the run's connection's Interface A consumer secret",
  BIZDATA_USER: "the run's connection's Interface B user",
  BIZDATA_PASSWORD: "the run's connection's Interface B password",
  BIZDATA_CONNECTION: 'the connection a run uses',
  BIZDATA_AUTH_URL: "Interface A's token address",
  BIZDATA_BASE_URL: "Interface A's data address",
  BIZDATA_LEGACY_URL: "Interface B's address",
  BIZDATA_ORIGIN: 'the Origin Interface A requires',
  BIZDATA_A_VERSION: "Interface A's version segment",
  BIZDATA_TIMEOUT: 'the time a call may take',
  BIZDATA_CODES_FILE: 'your own descriptions of codes',
  BIZDATA_CA_FILE: 'an extra certificate authority',
  BIZDATA_PROXY: 'the HTTP proxy',
  BIZDATA_QPS: 'the cap on calls a second',
  BIZDATA_CONCURRENCY: 'the cap on calls in flight',
  BIZDATA_COORDINATOR: "the Redis coordinator's address",
  BIZDATA_COORDINATOR_USER: "the Redis coordinator's user",
  BIZDATA_COORDINATOR_PASSWORD: "the Redis coordinator's password",
  BIZDATA_STATE_DIR: 'the state directory',
  BIZDATA_SANDBOX_ADMIN_KEY: "the local sandbox's admin key",
  BIZDATA_SANDBOX_URL: "the extension's external sandbox",
};

/** The endings of an interface's two credential variables: its name (key, user), then its secret. */
export const CREDENTIAL_SUFFIXES: Readonly<Record<InterfaceId, readonly [string, string]>> = { a: ['CONSUMER_KEY', 'CONSUMER_SECRET'], b: ['USER', 'PASSWORD'] };

/** The two variables of an interface's credentials: the plain ones (the run's connection's), or a connection's own. */
export function credentialVariables(id: InterfaceId, connection?: string): readonly [string, string] {
  const prefix = connection === undefined ? 'BIZDATA_' : `BIZDATA_${connectionKey(connection)}_`;
  const [name, secret] = CREDENTIAL_SUFFIXES[id];
  return [prefix + name, prefix + secret];
}

/**
 * Why a connection may not have this name because its credential variables are the client's own
 * (BIZDATA_COORDINATOR_USER for "coordinator"), or undefined when it may.
 */
export function variableClash(name: string): string | undefined {
  const taken = [...credentialVariables('a', name), ...credentialVariables('b', name)].filter((v) => Object.hasOwn(OWN_VARIABLES, v));
  if (taken.length === 0) return undefined;
  const what = taken.map((v) => `${v} (${OWN_VARIABLES[v]})`).join(' and ');
  return (
    `connection "${shownName(name)}" would take its credentials from ${what}, which this client reads for itself; ` +
    `give the connection another name, such as "${shownName(name)}-api".`
  );
}
