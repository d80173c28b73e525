// The connection options every command that calls the service takes: the addresses, the proxy and
// CA file, the limits and sharing, the request deadline and codes file, their help text, and the
// checks that turn their values (flags, then the environment) into numbers before anything is sent.
import type { ParseArgsConfig } from 'node:util';
import type { CodeBook } from '../core/codes/codes';
import { VERSION_A } from '../core/constants';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/http/http';
import { aVersionFrom } from './addresses';
import { codesFrom } from './args';
import { SHARING_HELP, SHARING_OPTIONS } from './coordination';
import { CREDENTIALS_HELP } from './credentials';
import { CONNECTIONS_HELP, CONNECTIONS_OPTIONS } from './connections';
import { UsageError } from './io';

// Real-world answers and hostile networks (issue 9): the request deadline, Interface A's version
// segment and the user's codes file.
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
  return { requestTimeoutMs: seconds === undefined ? undefined : Math.round(seconds * 1000), aVersion: aVersionFrom(values, env), codes: codesFrom(values.codes, env) };
}

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

export function positiveNumber(label: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${label} must be a positive number, not "${value}".`);
  return n;
}
