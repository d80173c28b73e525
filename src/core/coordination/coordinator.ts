// The coordinator: what several processes, on one machine or many, share through Redis (tokens,
// sign-in locks, guard counts, one rate budget and the limits it learned, the contracts' counts). This module holds no Redis
// code: the client for it (ioredis) lives in redisCoordinator.ts, loaded by connect.ts only when a
// coordinator is configured, which the bundles keep in a file of its own (dist/coordinator.js).
import type { SharedState } from '../limits/adaptiveControl';
import type { Budget } from '../limits/budget';
import type { AccountLocks, GuardStore, LimitsStore, TokenStore, UsageStore } from '../ports';

export interface Coordinator {
  /** `redis://host:port`, as the user wrote it but without credentials: safe for messages. */
  readonly name: string;
  readonly tokenStore: TokenStore;
  readonly guardStore: GuardStore;
  readonly locks: AccountLocks;
  readonly limits: LimitsStore;
  /** The contracts' counts of data calls and their SC005 marks. */
  readonly usage: UsageStore;
  /** The shared state and budget of the limiter of one account (resolved on first use). */
  limiter(account: () => Promise<string | undefined>): { readonly state: (account: string) => SharedState; readonly budget: Budget };
  /** Closes the connection; commands not yet answered still are. */
  dispose(): Promise<void>;
}

export interface CoordinatorOptions {
  /** `redis://HOST:PORT[/DB]` or `rediss://…` without credentials. */
  readonly url: string;
  /** From the environment only (BIZDATA_COORDINATOR_PASSWORD), or the extension's SecretStorage. */
  readonly password?: string;
  readonly username?: string;
  readonly connectTimeoutMs?: number;
  /** The limiter's window, to size the shared window. */
  readonly windowMs?: number;
}

export class CoordinatorUrlError extends Error {}

export interface CoordinatorAddress {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly tls: boolean;
}

/** Checks a coordinator address; a password in it is refused (it would end up in shell history and settings). */
export function parseCoordinatorUrl(url: string): CoordinatorAddress {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new CoordinatorUrlError('The coordinator must be an address like redis://HOST:PORT or rediss://HOST:PORT.');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new CoordinatorUrlError(`The coordinator must start with redis:// or rediss://, not ${u.protocol}//.`);
  if (u.password !== '' || u.username !== '') {
    throw new CoordinatorUrlError('The coordinator address must not hold a user or password: set BIZDATA_COORDINATOR_PASSWORD (and BIZDATA_COORDINATOR_USER) in the environment instead.');
  }
  if (u.hostname === '') throw new CoordinatorUrlError('The coordinator address has no host.');
  const db = u.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new CoordinatorUrlError('The coordinator address may end only in a database number, e.g. redis://HOST:6379/2.');
  const port = u.port === '' ? 6379 : Number(u.port);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return { name: `${u.protocol}//${u.host}${db ? `/${db}` : ''}`, host, port, db: db ? Number(db) : 0, tls: u.protocol === 'rediss:' };
}
