// What every lookup command shares: connection options and environment, credentials (environment
// or a hidden prompt, never flags), the client, and how results and failures are printed.
import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BizDataClient } from '../core/client';
import type { CredentialProvider } from '../core/ports';
import { describeCode } from '../core/codes';
import { AUTH_VERSION_B, ORG_VERSION_B } from '../core/constants';
import type { CallFailure, Credentials, Endpoints, FailureKind, InterfaceId } from '../core/model';
import type { LearnedLimits } from '../core/ports';
import { DEMO_CREDENTIALS } from '../sandbox/defaults';
import { openSharing, SHARING_HELP, SHARING_OPTIONS, SharingError } from './coordination';
import { promptHidden, promptVisible } from './prompt';
import { errorMessage } from '../core/errors';

/** The process's streams and environment, passed in so commands hold no global state. */
export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
}

export const EXIT = { ok: 0, other: 1, usage: 2, auth: 3, limit: 4 } as const;

export class UsageError extends Error {}

export const CONNECTION_OPTIONS = {
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

export const CONNECTION_HELP = `Connection options (flags win over the environment):
  --auth-url URL       token host of Interface A            [BIZDATA_AUTH_URL]
  --base-url URL       data host of Interface A             [BIZDATA_BASE_URL]
  --legacy-url URL     host of Interface B                  [BIZDATA_LEGACY_URL]
  --origin ORIGIN      Origin header Interface A requires   [BIZDATA_ORIGIN]
  --sandbox URL        a local sandbox: all three hosts, its origin and its demo credentials
  --ca-file FILE       extra certificate authority (PEM)    [BIZDATA_CA_FILE]
  --proxy URL          HTTP proxy, http://host:port         [BIZDATA_PROXY]
  --confirm-risk       sign in even though one more failed attempt would lock the account
  -v, --verbose        one line per request on stderr (credentials redacted)
  -h, --help           this help

${SHARING_HELP}
Credentials come only from the environment or, in a terminal, a hidden prompt:
  Interface A: BIZDATA_CONSUMER_KEY, BIZDATA_CONSUMER_SECRET
  Interface B: BIZDATA_USER, BIZDATA_PASSWORD

Exit status: 0 success, 2 bad usage or input, 3 authentication failure (or the lockout guard
refused), 4 a limit or contract failure, 1 anything else.
`;

// Flags people reach for that would put a credential in shell history and the process list.
const CREDENTIAL_FLAG = /^--?(password|passwd|pwd|pass|secret|consumer-?secret|client-?secret|consumer-?key|key|api-?key|user|username|token|access-?token)(=|$)/i;

/** Refuses credential flags before parsing, naming only the flag: its value may be a secret. */
export function refuseCredentialFlags(args: readonly string[]): void {
  for (const a of args) {
    const m = CREDENTIAL_FLAG.exec(a);
    if (m) {
      const flag = a.split('=')[0];
      throw new UsageError(
        `${flag} is not accepted: credentials are never taken from command-line flags, because flags are saved in shell history and visible to other users in the process list.\n` +
          'Set BIZDATA_CONSUMER_KEY and BIZDATA_CONSUMER_SECRET (Interface A) or BIZDATA_USER and BIZDATA_PASSWORD (Interface B) in the environment, or run in a terminal to be asked for them without echo.',
      );
    }
  }
}

export function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O, positionals: boolean) {
  refuseCredentialFlags(args);
  try {
    return parseArgs({ args, options, allowPositionals: positionals, strict: true });
  } catch (err) {
    // parseArgs names the offending option; it never prints option values.
    throw new UsageError(errorMessage(err));
  }
}

type ConnectionValues = { [K in keyof typeof CONNECTION_OPTIONS]?: (typeof CONNECTION_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export interface Setup {
  readonly client: BizDataClient;
  readonly sandbox: boolean;
  /** What the account's limiter learned before, as remembered. */
  learned(): Promise<LearnedLimits | undefined>;
  /** Disposes the client, then the shared stores (and the coordinator's connection). */
  close(): Promise<void>;
  readonly endpoints: Endpoints;
}

export function positiveNumber(label: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${label} must be a positive number, not "${value}".`);
  return n;
}

/** Builds the client from flags and environment ('any': one interface's addresses suffice); throws UsageError for what is missing or a coordinator that cannot be reached. */
export async function makeClient(values: ConnectionValues, io: CliIo, needs: InterfaceId | 'any'): Promise<Setup> {
  const env = io.env;
  const sandbox = values.sandbox;
  const pick = (flag: string | undefined, name: string): string | undefined => flag ?? sandbox ?? (env[name] || undefined);
  const authUrl = pick(values['auth-url'], 'BIZDATA_AUTH_URL');
  const baseUrl = pick(values['base-url'], 'BIZDATA_BASE_URL');
  const legacyUrl = pick(values['legacy-url'], 'BIZDATA_LEGACY_URL');
  let origin = values.origin ?? (env.BIZDATA_ORIGIN || undefined);
  if (origin === undefined && sandbox !== undefined) origin = safeOrigin(sandbox);
  const missingA = [
    ...(authUrl ? [] : ['--auth-url or BIZDATA_AUTH_URL']),
    ...(baseUrl ? [] : ['--base-url or BIZDATA_BASE_URL']),
    ...(origin ? [] : ['--origin or BIZDATA_ORIGIN']),
  ];
  const missingB = legacyUrl ? [] : ['--legacy-url or BIZDATA_LEGACY_URL'];
  const missing = needs === 'a' ? missingA : needs === 'b' ? missingB : missingA.length > 0 && missingB.length > 0 ? [...missingA, ...missingB] : [];
  if (missing.length > 0) {
    throw new UsageError(`Missing ${missing.join(', ')}. To try the local sandbox, run "bizdata sandbox" and pass --sandbox http://127.0.0.1:8080.`);
  }
  const endpoints: Endpoints = {
    authUrl: authUrl ?? '',
    baseUrl: baseUrl ?? '',
    legacyUrl: legacyUrl ?? '',
    origin: origin ?? '',
    authVersion: AUTH_VERSION_B,
    orgVersion: ORG_VERSION_B,
  };
  const verbose = values.verbose === true;
  const log = verbose ? (line: string): void => void io.stderr.write(`${line}\n`) : undefined;
  const credentials: CredentialProvider = sandbox !== undefined ? async (id) => DEMO_CREDENTIALS[id] : credentialsFromEnvOrPrompt(io);
  let shared;
  try {
    shared = await openSharing(values, env, endpoints, needs, credentials, log);
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
      http: { caFile: values['ca-file'] ?? (env.BIZDATA_CA_FILE || undefined), proxyUrl: values.proxy ?? (env.BIZDATA_PROXY || undefined) },
      log,
    });
  } catch (err) {
    await shared.close();
    throw new UsageError(errorMessage(err));
  }
  const close = async (): Promise<void> => {
    await client.dispose();
    await shared.close();
  };
  return { client, sandbox: sandbox !== undefined, endpoints, learned: shared.learned, close };
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Environment first; otherwise ask once on a terminal. Memoised so concurrent calls ask once. */
function credentialsFromEnvOrPrompt(io: CliIo): CredentialProvider {
  const cache = new Map<InterfaceId, Promise<Credentials | undefined>>();
  return (id) => {
    let p = cache.get(id);
    if (!p) {
      p = resolveCredentials(id, io);
      cache.set(id, p);
    }
    return p;
  };
}

async function resolveCredentials(id: InterfaceId, io: CliIo): Promise<Credentials | undefined> {
  const env = io.env;
  const [nameVar, secretVar] = id === 'a' ? ['BIZDATA_CONSUMER_KEY', 'BIZDATA_CONSUMER_SECRET'] : ['BIZDATA_USER', 'BIZDATA_PASSWORD'];
  let name = env[nameVar] || undefined;
  let secret = env[secretVar] || undefined;
  if ((name === undefined || secret === undefined) && io.stdin.isTTY) {
    if (id === 'a') {
      name ??= await promptHidden('Consumer key (hidden): ', io.stdin, io.stderr);
      if (name !== undefined) secret ??= await promptHidden('Consumer secret (hidden): ', io.stdin, io.stderr);
    } else {
      name ??= await promptVisible('User name: ', io.stdin, io.stderr);
      if (name !== undefined) secret ??= await promptHidden('Password (hidden): ', io.stdin, io.stderr);
    }
  }
  if (!name || !secret) {
    throw new UsageError(`Set ${nameVar} and ${secretVar} in the environment, or run in a terminal to be asked for them. Credentials are never taken from flags.`);
  }
  return id === 'a' ? { interfaceId: 'a', consumerKey: name, consumerSecret: secret } : { interfaceId: 'b', user: name, password: secret };
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

/** A failure on stderr: code and status, the text, and what to do. */
export function printFailure(f: CallFailure, io: CliIo, redactText: (s: string) => string): number {
  const head = [f.code, f.status !== undefined ? `HTTP ${f.status}` : undefined].filter(Boolean).join(', ');
  const info = f.code ? describeCode(f.code) : undefined;
  const lines = [
    `bizdata: ${f.kind === 'guard' ? 'refused by the lockout guard' : `${f.kind} failure`}${head ? ` (${head})` : ''}`,
    `  ${redactText(f.text)}`,
    `  What to do: ${redactText(f.advice)}`,
  ];
  if (info && info.meaning !== f.text) lines.splice(2, 0, `  Meaning: ${info.meaning}`);
  io.stderr.write(`${lines.join('\n')}\n`);
  return exitCodeFor(f.kind);
}

/** A file named on the command line, as text; a file that cannot be read is a usage error. */
export async function readInputFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
}

export function printJson(value: unknown, io: CliIo): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
