// The sandbox configuration: its shape, and a validator that names the offending path so a
// mistake in a hand-written config file is found at start, not at the first request.
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../core/errors';
import { fileProblem } from '../core/readText';
import { parseIsoTime } from './isoTime';

export interface SandboxUserConfig {
  /** Interface B user name (x-svc-user). */
  readonly user: string;
  /** Interface B password (x-svc-pwd); hashed with scrypt at load and never kept in clear. */
  readonly password: string;
  /** When true, a correct password still fails with SC003. */
  readonly credentialsExpired?: boolean;
  /** Initial lock state; three failed attempts lock the account at run time as well. */
  readonly locked?: boolean;
}

export interface SandboxClientConfig {
  /** Interface A consumer key. */
  readonly consumerKey: string;
  /** Interface A consumer secret; hashed with scrypt at load. */
  readonly consumerSecret: string;
}

export interface SandboxCustomerConfig {
  readonly id: string;
  /** Data calls per second, one sliding window across both interfaces, all tokens and connections. */
  readonly qps?: number;
  /** Data calls in flight at once for the customer. */
  readonly concurrency?: number;
  /** Total successful data calls the contract permits; SC005 afterwards. Unlimited when absent. */
  readonly contractLimit?: number;
  /** ISO 8601 date or date-time after which the subscriber number has expired (SC004). */
  readonly subscriberExpires?: string;
  /** Extra time every data call of this customer takes, so concurrency limits can be exercised. */
  readonly responseDelayMs?: number;
  readonly clients?: readonly SandboxClientConfig[];
  readonly users?: readonly SandboxUserConfig[];
}

export interface SandboxConfig {
  /** Lifetime of issued tokens; the service's value is 86400 (24 hours). */
  readonly tokenLifetimeSeconds?: number;
  /** Key for the admin API; a random one is made per start when absent. */
  readonly adminKey?: string;
  readonly customers: readonly SandboxCustomerConfig[];
}

/**
 * The sandbox cannot start as asked: a config, state file, fixture or option is wrong. The message
 * says what to fix; the command line answers exit code 2 for it, as for a bad option.
 */
export class SandboxSetupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SandboxSetupError';
  }
}

export class SandboxConfigError extends SandboxSetupError {
  constructor(
    /** Where in the config the problem is, e.g. `customers[0].qps`. */
    readonly path: string,
    readonly problem: string,
  ) {
    super(`Invalid sandbox config at ${path}: ${problem}`);
    this.name = 'SandboxConfigError';
  }
}

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objectAt(v: unknown, path: string, allowed: readonly string[]): Obj {
  if (!isObject(v)) throw new SandboxConfigError(path, 'must be a JSON object');
  for (const key of Object.keys(v)) {
    if (!allowed.includes(key)) {
      throw new SandboxConfigError(join(path, key), `unknown property; allowed: ${allowed.join(', ')}`);
    }
  }
  return v;
}

/** True when text holds a C0 control character or DEL: such values would break HTTP headers. */
export function hasControlCharacters(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function join(path: string, key: string): string {
  return path === '(root)' ? key : `${path}.${key}`;
}

/** Header-safe text: no control characters, since these values travel in HTTP headers. */
function text(v: unknown, path: string, opts: { secret?: boolean; noColon?: boolean } = {}): string {
  // Secrets are never echoed in a message: the message may end up in a log.
  if (typeof v !== 'string' || v.length === 0) throw new SandboxConfigError(path, 'must be a non-empty string');
  if (v.length > 256) throw new SandboxConfigError(path, 'must be at most 256 characters long');
  if (hasControlCharacters(v)) throw new SandboxConfigError(path, 'must not contain control characters');
  if (v.trim() !== v) throw new SandboxConfigError(path, 'must not start or end with spaces (HTTP trims them)');
  if (opts.noColon === true && v.includes(':')) {
    throw new SandboxConfigError(path, 'must not contain ":" (it separates key and secret in HTTP Basic)');
  }
  return v;
}

/**
 * Bounds of the numbers in a config. Beyond them the sandbox would misbehave rather than emulate:
 * a limiter sized by qps, timers longer than the server's own timeouts, dates past what Date holds.
 */
export const CONFIG_BOUNDS = {
  tokenLifetimeSeconds: { min: 1, max: 365 * 86_400 },
  qps: { min: 1, max: 1_000_000 },
  concurrency: { min: 1, max: 100_000 },
  contractLimit: { min: 0, max: 1_000_000_000_000 },
  responseDelayMs: { min: 0, max: 60_000 },
} as const;

function optionalInt(v: unknown, path: string, bounds: { readonly min: number; readonly max: number }): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < bounds.min || v > bounds.max) {
    throw new SandboxConfigError(path, `must be an integer from ${bounds.min} to ${bounds.max}`);
  }
  return v;
}

function optionalBool(v: unknown, path: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new SandboxConfigError(path, 'must be true or false');
  return v;
}

function arrayAt(v: unknown, path: string): readonly unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new SandboxConfigError(path, 'must be an array');
  return v;
}

/** Checks a parsed JSON value and returns it as a config, or throws SandboxConfigError naming the path. */
export function parseConfig(raw: unknown): SandboxConfig {
  const root = objectAt(raw, '(root)', ['$schema', 'tokenLifetimeSeconds', 'adminKey', 'customers']);
  const tokenLifetimeSeconds = optionalInt(root.tokenLifetimeSeconds, 'tokenLifetimeSeconds', CONFIG_BOUNDS.tokenLifetimeSeconds);
  const adminKey = root.adminKey === undefined ? undefined : text(root.adminKey, 'adminKey', { secret: true });
  if (root.customers === undefined) throw new SandboxConfigError('customers', 'is required');
  const customerIds = new Set<string>();
  const users = new Set<string>();
  const keys = new Set<string>();
  const customers = arrayAt(root.customers, 'customers').map((c, i): SandboxCustomerConfig => {
    const path = `customers[${i}]`;
    const o = objectAt(c, path, [
      'id', 'qps', 'concurrency', 'contractLimit', 'subscriberExpires', 'responseDelayMs', 'clients', 'users',
    ]);
    const id = text(o.id, `${path}.id`);
    if (customerIds.has(id)) throw new SandboxConfigError(`${path}.id`, `duplicate customer id "${id}"`);
    customerIds.add(id);
    let subscriberExpires: string | undefined;
    if (o.subscriberExpires !== undefined) {
      if (typeof o.subscriberExpires !== 'string' || parseIsoTime(o.subscriberExpires) === undefined) {
        throw new SandboxConfigError(`${path}.subscriberExpires`, 'must be an ISO 8601 date or date-time that exists, e.g. 2030-01-31 or 2030-01-31T12:00:00+02:00');
      }
      subscriberExpires = o.subscriberExpires;
    }
    const clients = arrayAt(o.clients, `${path}.clients`).map((cl, j): SandboxClientConfig => {
      const p = `${path}.clients[${j}]`;
      const co = objectAt(cl, p, ['consumerKey', 'consumerSecret']);
      const consumerKey = text(co.consumerKey, `${p}.consumerKey`, { noColon: true });
      if (keys.has(consumerKey)) throw new SandboxConfigError(`${p}.consumerKey`, `duplicate consumer key "${consumerKey}"`);
      keys.add(consumerKey);
      return { consumerKey, consumerSecret: text(co.consumerSecret, `${p}.consumerSecret`, { secret: true }) };
    });
    const userList = arrayAt(o.users, `${path}.users`).map((u, j): SandboxUserConfig => {
      const p = `${path}.users[${j}]`;
      const uo = objectAt(u, p, ['user', 'password', 'credentialsExpired', 'locked']);
      const user = text(uo.user, `${p}.user`);
      if (users.has(user)) throw new SandboxConfigError(`${p}.user`, `duplicate user "${user}"`);
      users.add(user);
      return {
        user,
        password: text(uo.password, `${p}.password`, { secret: true }),
        credentialsExpired: optionalBool(uo.credentialsExpired, `${p}.credentialsExpired`),
        locked: optionalBool(uo.locked, `${p}.locked`),
      };
    });
    return {
      id,
      qps: optionalInt(o.qps, `${path}.qps`, CONFIG_BOUNDS.qps),
      concurrency: optionalInt(o.concurrency, `${path}.concurrency`, CONFIG_BOUNDS.concurrency),
      contractLimit: optionalInt(o.contractLimit, `${path}.contractLimit`, CONFIG_BOUNDS.contractLimit),
      subscriberExpires,
      responseDelayMs: optionalInt(o.responseDelayMs, `${path}.responseDelayMs`, CONFIG_BOUNDS.responseDelayMs),
      clients,
      users: userList,
    };
  });
  return { tokenLifetimeSeconds, adminKey, customers };
}

/** Reads and validates a JSON config file; errors name the file and the offending path. */
export async function readConfigFile(file: string): Promise<SandboxConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new SandboxSetupError(`Cannot read sandbox config ${file}: ${fileProblem(err, file)}.`, { cause: err });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SandboxSetupError(`Cannot read sandbox config ${file}: it is not JSON (${errorMessage(err)}).`, { cause: err });
  }
  try {
    return parseConfig(raw);
  } catch (err) {
    if (err instanceof SandboxConfigError) throw new SandboxConfigError(err.path, `${err.problem} (in ${file})`);
    throw err;
  }
}
