// The client a command talks to the service with, built from the chosen connection, its flags and
// environment: the endpoints (refusing what is missing), credentials (environment or a hidden
// prompt, never flags; the sandbox's demo ones with --sandbox), the stores and limiter shared with
// other processes, and how it is closed.
import { BizDataClient } from '../core/client';
import type { CredentialProvider, LearnedLimits } from '../core/ports';
import type { SecretRegistry } from '../core/redact';
import type { CodeBook } from '../core/codes/codes';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/http/http';
import { safeLine } from '../core/sanitize';
import type { Endpoints, InterfaceId, WireEvent } from '../core/model';
import { DEMO_CREDENTIALS } from '../sandbox/defaults';
import { endpointsOf, givenAddresses, userInfoProblem } from './addresses';
import { openSharing, SharingError } from './coordination';
import { credentialsFromEnvOrPrompt } from './credentials';
import { chooseConnection, envForConnection, missingLabel, withConnectionFields, type Chosen } from './connections';
import type { Connection, Connections } from '../core/connections/connection';
import { errorMessage } from '../core/errors';
import { resilienceFrom, type ConnectionValues } from './connectionOptions';
import { UsageError, type CliIo } from './io';
import { contractScope } from '../core/accounts/session';
import { ContractMeter } from '../core/contract/meter';
import type { RunRate } from '../core/contract/estimate';

export interface Setup {
  readonly client: BizDataClient;
  /** The catalog the client reads codes with (the built-in one plus --codes). */
  readonly codes: CodeBook;
  readonly sandbox: boolean;
  /** What the account's limiter learned before, as remembered. */
  learned(): Promise<LearnedLimits | undefined>;
  /** The rate the run's calls go out at, for an estimate: the cap, else what was learned. */
  rate(): Promise<RunRate>;
  /** The contract's count, when the connection states a contract. */
  readonly meter?: ContractMeter;
  /** Disposes the client, then the shared stores (and the coordinator's connection). */
  close(): Promise<void>;
  readonly endpoints: Endpoints;
  /** The connection this client talks to; undefined without a connections file or a name (the flags and variables alone). */
  readonly connection?: Connection;
  readonly connections?: Connections;
  /** The longest one request may take (--timeout): also how long a stopped run waits for calls in flight. */
  readonly requestTimeoutMs: number;
}

/** A connection's addresses as a run uses them: the flags, its fields and the environment; what is missing is a usage error. */
export interface Addresses {
  readonly endpoints: Endpoints;
  /** The run's values with the connection's fields filled in. */
  readonly values: ConnectionValues;
  readonly env: NodeJS.ProcessEnv;
  readonly connection?: Connection;
}

/** The addresses of the chosen connection ('any': one interface's addresses suffice); throws UsageError for what is missing. Opens nothing. */
export function connectionAddresses(given: ConnectionValues, io: CliIo, needs: InterfaceId | 'any', chosen: Chosen): Addresses {
  const connection = chosen.connection;
  const values = withConnectionFields(given, connection);
  const env = envForConnection(io.env, connection);
  const { authUrl, baseUrl, legacyUrl, origin } = givenAddresses(values, env);
  const userInfo = userInfoProblem(values, env);
  if (userInfo) throw new UsageError(userInfo);
  const missingA = [
    ...(authUrl ? [] : [missingLabel(connection, 'authUrl', '--auth-url', 'BIZDATA_AUTH_URL')]),
    ...(baseUrl ? [] : [missingLabel(connection, 'baseUrl', '--base-url', 'BIZDATA_BASE_URL')]),
    ...(origin ? [] : [missingLabel(connection, 'origin', '--origin', 'BIZDATA_ORIGIN')]),
  ];
  const missingB = legacyUrl ? [] : [missingLabel(connection, 'legacyUrl', '--legacy-url', 'BIZDATA_LEGACY_URL')];
  const missing = needs === 'a' ? missingA : needs === 'b' ? missingB : missingA.length > 0 && missingB.length > 0 ? [...missingA, ...missingB] : [];
  if (missing.length > 0) {
    throw new UsageError(`Missing ${missing.join(', ')}. To try the local sandbox, run "bizdata sandbox" and pass --sandbox http://127.0.0.1:8080.`);
  }
  const endpoints = endpointsOf({ authUrl, baseUrl, legacyUrl, origin }, connection, resilienceFrom(values, env).aVersion);
  return { endpoints, values, env, ...(connection ? { connection } : {}) };
}

/** Builds the client from flags and environment ('any': one interface's addresses suffice); throws UsageError for what is missing or a coordinator that cannot be reached. */
export async function makeClient(
  given: ConnectionValues,
  io: CliIo,
  needs: InterfaceId | 'any',
  use: { readonly chosen?: Chosen; readonly credentials?: CredentialProvider; readonly secrets?: SecretRegistry; readonly observe?: (e: WireEvent) => void } = {},
): Promise<Setup> {
  const chosen = use.chosen ?? (await chooseConnection(given, io.env));
  const { endpoints, values, env, connection } = connectionAddresses(given, io, needs, chosen);
  const sandbox = values.sandbox;
  const resilience = resilienceFrom(values, env);
  const verbose = values.verbose === true;
  const log = verbose ? (line: string): void => void io.stderr.write(`${safeLine(line)}\n`) : undefined;
  const credentials: CredentialProvider = sandbox !== undefined ? async (id) => DEMO_CREDENTIALS[id] : (use.credentials ?? credentialsFromEnvOrPrompt(io, { connection: connection?.name, own: true }));
  let shared;
  try {
    shared = await openSharing(values, env, endpoints, needs, credentials, log, (line) => void io.stderr.write(`${safeLine(`bizdata: warning: ${line}`)}\n`));
  } catch (err) {
    if (err instanceof SharingError) throw new UsageError(err.message);
    throw err;
  }
  // The contract's count: the connection's, at the addresses this run uses.
  const contract = connection?.contract;
  const meter = connection && contract && new ContractMeter({ scope: contractScope(connection.name, endpoints), connection: connection.name, contract, store: shared.usage });
  let client: BizDataClient;
  try {
    client = new BizDataClient({
      endpoints,
      credentials,
      tokenStore: shared.tokenStore,
      guardStore: shared.guardStore,
      locks: shared.locks,
      limiter: shared.limiter,
      http: { caFile: values['ca-file'] ?? (env.BIZDATA_CA_FILE || undefined), proxyUrl: values.proxy ?? (env.BIZDATA_PROXY || undefined), requestTimeoutMs: resilience.requestTimeoutMs },
      codes: resilience.codes,
      log,
      secrets: use.secrets,
      observe: use.observe,
      contract: meter,
    });
  } catch (err) {
    await shared.close();
    throw new UsageError(errorMessage(err));
  }
  const close = async (): Promise<void> => {
    await client.dispose();
    await shared.close();
  };
  const requestTimeoutMs = resilience.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return { client, codes: resilience.codes, sandbox: sandbox !== undefined, endpoints, connection, connections: chosen.connections, learned: shared.learned, rate: shared.rate, meter, close, requestTimeoutMs };
}
