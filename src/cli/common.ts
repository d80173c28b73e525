// What every lookup command shares: connection options and environment, credentials (environment
// or a hidden prompt, never flags), the client, and how results and failures are printed.
import { readFile } from 'node:fs/promises';
import type { ParseArgsConfig } from 'node:util';
import { BizDataClient } from '../core/client';
import type { CredentialProvider } from '../core/ports';
import type { SecretRegistry } from '../core/redact';
import { BUILT_IN, type CodeBook } from '../core/codes/codes';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/http/http';
import { safeJson, safeLine } from '../core/sanitize';
import { AUTH_VERSION_B, ORG_VERSION_B, VERSION_A } from '../core/constants';
import type { CallFailure, Endpoints, FailureKind, InterfaceId, WireEvent } from '../core/model';
import type { LearnedLimits } from '../core/ports';
import { DEMO_CREDENTIALS } from '../sandbox/defaults';
import { userInfoProblem } from './addresses';
import { openSharing, SHARING_HELP, SHARING_OPTIONS, SharingError } from './coordination';
import { CREDENTIALS_HELP, credentialsFromEnvOrPrompt } from './credentials';
import { chooseConnection, CONNECTIONS_HELP, CONNECTIONS_OPTIONS, envForConnection, missingLabel, withConnectionFields, type Chosen } from './connections';
import type { Connection, Connections } from '../core/connections/connection';
import { errorMessage } from '../core/errors';
import { EXIT, UsageError, type CliIo } from './io';
import { codesFrom } from './args';
// Kept here too for the commands that import them from common (args.ts is their home).
export { codesFrom, parse, refuseCredentialFlags } from './args';

// ---- Real-world answers and hostile networks (issue 9): the request deadline, Interface A's version
// segment and the user's codes file. Kept as one block so other additions to this file merge apart.
export const RESILIENCE_OPTIONS = {
  timeout: { type: 'string' },
  'a-version': { type: 'string' },
  codes: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

const RESILIENCE_HELP = `  --timeout SECONDS    longest one request may take, start to last byte
                                                            [BIZDATA_TIMEOUT, default ${DEFAULT_REQUEST_TIMEOUT_MS / 1000}]
  --a-version SEGMENT  Interface A's version segment        [BIZDATA_A_VERSION, default ${VERSION_A}]
  --codes FILE         your own descriptions of result codes (schemas/codes.schema.json)
                                                            [BIZDATA_CODES_FILE]`;

interface Resilience {
  readonly requestTimeoutMs?: number;
  readonly aVersion?: string;
  readonly codes: CodeBook;
}

/** The issue-9 settings from flags and environment; bad values are usage errors, before any request. */
export function resilienceFrom(values: { timeout?: string; 'a-version'?: string; codes?: string }, env: NodeJS.ProcessEnv): Resilience {
  const timeout = values.timeout ?? (env.BIZDATA_TIMEOUT || undefined);
  const seconds = timeout === undefined ? undefined : positiveNumber('--timeout (BIZDATA_TIMEOUT)', timeout, 0);
  if (seconds !== undefined && seconds > 86_400) throw new UsageError(`--timeout is in seconds and at most 86400, not "${timeout}".`);
  const aVersion = values['a-version'] ?? (env.BIZDATA_A_VERSION || undefined);
  if (aVersion !== undefined && !/^[A-Za-z0-9._-]{1,16}$/.test(aVersion)) {
    throw new UsageError('--a-version (BIZDATA_A_VERSION) must be one path segment of letters, digits, dots or dashes, such as v1.');
  }
  return { requestTimeoutMs: seconds === undefined ? undefined : Math.round(seconds * 1000), aVersion, codes: codesFrom(values.codes, env) };
}

// ---- end of the issue-9 block

export const CONNECTION_OPTIONS = {
  ...RESILIENCE_OPTIONS,
  ...CONNECTIONS_OPTIONS,
  'auth-url': { type: 'string' },
  'base-url': { type: 'string' },
  'legacy-url': { type: 'string' },
  origin: { type: 'string' },
  sandbox: { type: 'string' },
  'ca-file': { type: 'string' },
  proxy: { type: 'string' },
  qps: { type: 'string' },
  concurrency: { type: 'string' },
  'confirm-risk': { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
  // Limits and sharing with other processes (coordination.ts).
  ...SHARING_OPTIONS,
} as const satisfies ParseArgsConfig['options'];

export const CONNECTION_HELP = `${CONNECTIONS_HELP}

Connection options (flags win over the connection and the environment):
  --auth-url URL       token host of Interface A            [BIZDATA_AUTH_URL]
  --base-url URL       data host of Interface A             [BIZDATA_BASE_URL]
  --legacy-url URL     host of Interface B                  [BIZDATA_LEGACY_URL]
  --origin ORIGIN      Origin header Interface A requires   [BIZDATA_ORIGIN]
  --sandbox URL        a local sandbox: all three hosts, its origin and its demo credentials
  --ca-file FILE       extra certificate authority (PEM)    [BIZDATA_CA_FILE]
  --proxy URL          HTTP proxy, http://host:port         [BIZDATA_PROXY]
${RESILIENCE_HELP}
  --confirm-risk       sign in even though one more failed attempt would lock the account
  -v, --verbose        one line per request on stderr (credentials redacted)
  -h, --help           this help

${SHARING_HELP}
${CREDENTIALS_HELP}

Exit status: 0 success, 2 bad usage or input, 3 authentication failure (or the lockout guard
refused), 4 a limit or contract failure, 1 anything else.
`;

export type ConnectionValues = { [K in keyof typeof CONNECTION_OPTIONS]?: (typeof CONNECTION_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export interface Setup {
  readonly client: BizDataClient;
  /** The catalog the client reads codes with (the built-in one plus --codes). */
  readonly codes: CodeBook;
  readonly sandbox: boolean;
  /** What the account's limiter learned before, as remembered. */
  learned(): Promise<LearnedLimits | undefined>;
  /** Disposes the client, then the shared stores (and the coordinator's connection). */
  close(): Promise<void>;
  readonly endpoints: Endpoints;
  /** The connection this client talks to; undefined without a connections file or a name (the flags and variables alone). */
  readonly connection?: Connection;
  readonly connections?: Connections;
  /** The longest one request may take (--timeout): also how long a stopped run waits for calls in flight. */
  readonly requestTimeoutMs: number;
}

export function positiveNumber(label: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${label} must be a positive number, not "${value}".`);
  return n;
}

/** Builds the client from flags and environment ('any': one interface's addresses suffice); throws UsageError for what is missing or a coordinator that cannot be reached. */
export async function makeClient(
  given: ConnectionValues,
  io: CliIo,
  needs: InterfaceId | 'any',
  use: { readonly chosen?: Chosen; readonly credentials?: CredentialProvider; readonly secrets?: SecretRegistry; readonly observe?: (e: WireEvent) => void } = {},
): Promise<Setup> {
  const chosen = use.chosen ?? (await chooseConnection(given, io.env));
  const connection = chosen.connection;
  const values = withConnectionFields(given, connection);
  const env = envForConnection(io.env, connection);
  const sandbox = values.sandbox;
  const pick = (flag: string | undefined, name: string): string | undefined => flag ?? sandbox ?? (env[name] || undefined);
  const authUrl = pick(values['auth-url'], 'BIZDATA_AUTH_URL');
  const baseUrl = pick(values['base-url'], 'BIZDATA_BASE_URL');
  const legacyUrl = pick(values['legacy-url'], 'BIZDATA_LEGACY_URL');
  let origin = values.origin ?? (env.BIZDATA_ORIGIN || undefined);
  if (origin === undefined && sandbox !== undefined) origin = safeOrigin(sandbox);
  const resilience = resilienceFrom(values, env);
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
  const endpoints: Endpoints = {
    authUrl: authUrl ?? '',
    baseUrl: baseUrl ?? '',
    legacyUrl: legacyUrl ?? '',
    origin: origin ?? '',
    authVersion: connection?.endpoints.authVersion ?? AUTH_VERSION_B,
    orgVersion: connection?.endpoints.orgVersion ?? ORG_VERSION_B,
    ...(resilience.aVersion !== undefined ? { aVersion: resilience.aVersion } : {}),
  };
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
  return { client, codes: resilience.codes, sandbox: sandbox !== undefined, endpoints, connection, connections: chosen.connections, learned: shared.learned, close, requestTimeoutMs };
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function exitCodeFor(kind: FailureKind): number {
  switch (kind) {
    case 'input':
    case 'coordinator':
      return EXIT.usage;
    case 'auth':
    case 'guard':
      return EXIT.auth;
    case 'limit':
      return EXIT.limit;
    default:
      return EXIT.other;
  }
}

/**
 * A failure on stderr: code and status, the text (as responseFailure chose it), the catalog's
 * meaning, and what to do; every part made safe for a terminal.
 */
export function printFailure(f: CallFailure, io: CliIo, redactText: (s: string) => string, codes: CodeBook = BUILT_IN): number {
  const head = [f.code, f.status !== undefined ? `HTTP ${f.status}` : undefined].filter(Boolean).join(', ');
  const info = f.code ? codes.describe(f.code) : undefined;
  const lines = [
    `bizdata: ${f.kind === 'guard' ? 'refused by the lockout guard' : `${f.kind} failure`}${head ? ` (${head})` : ''}`,
    `  ${redactText(f.text)}`,
    `  What to do: ${redactText(f.advice)}`,
  ];
  const meaning = f.meaning ?? info?.meaning;
  if (meaning !== undefined && meaning !== f.text) lines.splice(2, 0, `  Meaning: ${meaning}`);
  if (f.code !== undefined && f.known === false) lines.splice(2, 0, `  ${f.code} is not in the catalog: the text above is the service's own (describe it with --codes FILE).`);
  io.stderr.write(`${lines.map(safeLine).join('\n')}\n`);
  return exitCodeFor(f.kind);
}

/** A file named on the command line, as text; a file that cannot be read is a usage error. */
export async function readInputFile(file: string): Promise<string> {
  return (await readInputBytes(file)).toString('utf8');
}

/** The bytes of a file the user named; one that cannot be read is a usage error naming it. */
export async function readInputBytes(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
}

/** JSON on stdout: exactly the value, with characters that could drive a terminal written as \u escapes. */
export function printJson(value: unknown, io: CliIo): void {
  io.stdout.write(`${safeJson(value, 2)}\n`);
}
