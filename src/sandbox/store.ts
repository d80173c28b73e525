// Accounts, tokens, usage and statistics of one sandbox instance, and their persisted form.
// Everything lives on the instance: two sandboxes in one process share nothing.
import type { SandboxConfig, SandboxCustomerConfig } from './config';
import { LOCKOUT_AFTER_FAILURES, TOKEN_LIFETIME_SECONDS } from '../core/constants';
import { errorMessage } from '../core/errors';
import { DEFAULT_CONCURRENCY, DEFAULT_QPS } from './defaults';
import { BoundedCache } from './cache';
import { parseIsoTime } from './isoTime';
import { CustomerLimiter } from './limits';
import { StateSaver, readJsonFile } from './persist';
import { VerifiedSecretCache, hashSecret, isSecretHash, newToken, tokenDigest } from './secrets';

/** Expired tokens are kept this long so their use still answers "expired" rather than "unknown". */
const KEEP_EXPIRED_MS = 7 * 24 * 3600 * 1000;

export interface CustomerStats {
  tokenRequests: number;
  authSuccesses: number;
  authFailures: number;
  dataCalls: number;
  /** Count of each result or error code returned to this customer; successes count as CM000. */
  resultCodes: Record<string, number>;
  /** Highest number of data calls in flight at once. */
  maxConcurrency: number;
  /** Successful data calls counted against contractLimit. */
  contractUsed: number;
}

export interface SandboxStats {
  /** Every non-admin request, attributed to a customer or not. */
  requests: number;
  customers: Record<string, CustomerStats>;
}

export interface Customer {
  readonly id: string;
  readonly contractLimit: number | undefined;
  readonly subscriberExpiresAt: number | undefined;
  readonly responseDelayMs: number;
  readonly limiter: CustomerLimiter;
  readonly stats: CustomerStats;
}

interface User {
  readonly user: string;
  readonly customer: Customer;
  readonly configHash: string;
  passwordHash: string;
  failures: number;
  locked: boolean;
  readonly credentialsExpired: boolean;
}

interface Client {
  readonly consumerKey: string;
  readonly customer: Customer;
  readonly secretHash: string;
}

export interface TokenRecord {
  readonly kind: 'a' | 'b';
  readonly customerId: string;
  /** Consumer key (A) or user name (B). */
  readonly principal: string;
  /** Virtual epoch milliseconds. */
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export type AuthFailure = 'unknown' | 'bad-secret' | 'locked' | 'credentials-expired' | 'subscriber-expired';

export type AuthOutcome =
  | { readonly ok: true; readonly token: string; readonly customer: Customer; readonly record: TokenRecord }
  | { readonly ok: false; readonly reason: AuthFailure; readonly customer?: Customer; readonly lockedNow?: boolean };

export type TokenCheck =
  | { readonly ok: true; readonly record: TokenRecord; readonly customer: Customer }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'wrong-interface'; readonly customer?: Customer };

interface PersistedUser {
  failures: number;
  locked: boolean;
  /** Present only after an admin password change; the config's password applies otherwise. */
  passwordHash?: string;
}

interface PersistedState {
  format: 'bizdata-sandbox-state';
  version: 1;
  savedAt: string;
  clockOffsetMs: number;
  requests: number;
  customers: Record<string, CustomerStats>;
  users: Record<string, PersistedUser>;
  /** Keyed by SHA-256 digest of the token: the tokens themselves are never written. */
  tokens: Record<string, TokenRecord>;
}

function emptyStats(): CustomerStats {
  return { tokenRequests: 0, authSuccesses: 0, authFailures: 0, dataCalls: 0, resultCodes: {}, maxConcurrency: 0, contractUsed: 0 };
}

function makeCustomer(c: SandboxCustomerConfig): Customer {
  return {
    id: c.id,
    contractLimit: c.contractLimit,
    subscriberExpiresAt: c.subscriberExpires === undefined ? undefined : parseIsoTime(c.subscriberExpires),
    responseDelayMs: c.responseDelayMs ?? 0,
    limiter: new CustomerLimiter(c.qps ?? DEFAULT_QPS, c.concurrency ?? DEFAULT_CONCURRENCY),
    stats: emptyStats(),
  };
}

export class SandboxStore {
  private readonly customers = new Map<string, Customer>();
  private readonly users = new Map<string, User>();
  private readonly clients = new Map<string, Client>();
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly verified = new VerifiedSecretCache();
  /** Presented token -> digest, so a data call with a known token skips SHA-256. In memory only. */
  private readonly digests = new BoundedCache<string, string>(10_000);
  private readonly lifetimeMs: number;
  private clockOffsetMs = 0;
  private requestCount = 0;
  private saver: StateSaver | undefined;

  private constructor(config: SandboxConfig) {
    this.lifetimeMs = (config.tokenLifetimeSeconds ?? TOKEN_LIFETIME_SECONDS) * 1000;
  }

  /** Hashes every configured secret (once, here, not per request) and loads the state file if any. */
  static async create(config: SandboxConfig, statePath: string | undefined, log: (line: string) => void): Promise<SandboxStore> {
    const store = new SandboxStore(config);
    const hashing: Promise<void>[] = [];
    for (const c of config.customers) {
      const customer = makeCustomer(c);
      store.customers.set(c.id, customer);
      // scrypt runs on the libuv pool: hashing in parallel shortens the start with many accounts.
      for (const cl of c.clients ?? []) {
        hashing.push(hashSecret(cl.consumerSecret).then((secretHash) => {
          store.clients.set(cl.consumerKey, { consumerKey: cl.consumerKey, customer, secretHash });
        }));
      }
      for (const u of c.users ?? []) {
        hashing.push(hashSecret(u.password).then((configHash) => {
          store.users.set(u.user, {
            user: u.user, customer, configHash, passwordHash: configHash, failures: 0, locked: u.locked === true,
            credentialsExpired: u.credentialsExpired === true,
          });
        }));
      }
    }
    await Promise.all(hashing);
    if (statePath !== undefined) {
      const raw = await readJsonFile(statePath);
      if (raw !== undefined) store.restore(raw, statePath);
      store.saver = new StateSaver(statePath, () => store.snapshot(), (err) =>
        log(`sandbox: cannot save state to ${statePath}: ${errorMessage(err)}`));
      store.changed();
    }
    return store;
  }

  /** Virtual time in epoch milliseconds: real time plus what the admin clock has advanced. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  get clockOffsetSeconds(): number {
    return this.clockOffsetMs / 1000;
  }

  advanceClock(seconds: number): void {
    this.clockOffsetMs += seconds * 1000;
    this.changed();
  }

  get tokenLifetimeSeconds(): number {
    return this.lifetimeMs / 1000;
  }

  noteRequest(): void {
    this.requestCount += 1;
  }

  noteCode(customer: Customer | undefined, code: string): void {
    if (customer === undefined) return;
    const codes = customer.stats.resultCodes;
    codes[code] = (codes[code] ?? 0) + 1;
  }

  private issue(kind: 'a' | 'b', customer: Customer, principal: string): AuthOutcome {
    const token = newToken();
    const issuedAt = this.now();
    const record: TokenRecord = { kind, customerId: customer.id, principal, issuedAt, expiresAt: issuedAt + this.lifetimeMs };
    this.tokens.set(tokenDigest(token), record);
    customer.stats.authSuccesses += 1;
    this.changed();
    return { ok: true, token, customer, record };
  }

  private fail(reason: AuthFailure, customer?: Customer, lockedNow?: boolean): AuthOutcome {
    if (customer !== undefined) customer.stats.authFailures += 1;
    return { ok: false, reason, customer, lockedNow };
  }

  private subscriberExpired(customer: Customer): boolean {
    return customer.subscriberExpiresAt !== undefined && this.now() >= customer.subscriberExpiresAt;
  }

  async authenticateClient(consumerKey: string, secret: string): Promise<AuthOutcome> {
    const client = this.clients.get(consumerKey);
    if (client === undefined) return this.fail('unknown');
    client.customer.stats.tokenRequests += 1;
    if (!(await this.verified.verify(`a:${consumerKey}`, secret, client.secretHash))) return this.fail('bad-secret', client.customer);
    if (this.subscriberExpired(client.customer)) return this.fail('subscriber-expired', client.customer);
    return this.issue('a', client.customer, consumerKey);
  }

  async authenticateUser(userName: string, password: string): Promise<AuthOutcome> {
    const user = this.users.get(userName);
    if (user === undefined) return this.fail('unknown');
    user.customer.stats.tokenRequests += 1;
    // A locked account refuses even the right password, and does not run scrypt at all.
    if (user.locked) return this.fail('locked', user.customer);
    if (!(await this.verified.verify(`b:${userName}`, password, user.passwordHash))) {
      user.failures += 1;
      const lockedNow = user.failures >= LOCKOUT_AFTER_FAILURES;
      if (lockedNow) user.locked = true;
      this.changed();
      return this.fail('bad-secret', user.customer, lockedNow);
    }
    if (user.credentialsExpired) return this.fail('credentials-expired', user.customer);
    if (this.subscriberExpired(user.customer)) return this.fail('subscriber-expired', user.customer);
    if (user.failures !== 0) user.failures = 0;
    return this.issue('b', user.customer, userName);
  }

  /** Looks a presented token up by its digest; the hot path of every data call. */
  checkToken(token: string, kind: 'a' | 'b'): TokenCheck {
    const digest = this.digests.get(token) ?? this.digests.set(token, tokenDigest(token));
    const record = this.tokens.get(digest);
    if (record === undefined) return { ok: false, reason: 'unknown' };
    const customer = this.customers.get(record.customerId);
    if (customer === undefined) return { ok: false, reason: 'unknown' };
    if (record.kind !== kind) return { ok: false, reason: 'wrong-interface', customer };
    if (this.now() >= record.expiresAt) return { ok: false, reason: 'expired', customer };
    return { ok: true, record, customer };
  }

  /** The account condition that now refuses a B token's calls: a lock or expired credentials. */
  userCondition(userName: string): 'locked' | 'credentials-expired' | undefined {
    const user = this.users.get(userName);
    if (user === undefined || user.locked) return 'locked';
    return user.credentialsExpired ? 'credentials-expired' : undefined;
  }

  isSubscriberExpired(customer: Customer): boolean {
    return this.subscriberExpired(customer);
  }

  /** Counts a successful data call against the contract. */
  useContract(customer: Customer): void {
    customer.stats.contractUsed += 1;
    this.changed();
  }

  contractExhausted(customer: Customer): boolean {
    return customer.contractLimit !== undefined && customer.stats.contractUsed >= customer.contractLimit;
  }

  /** Drops tokens early, as a release update, disaster recovery or contract expiration would. */
  invalidateTokens(filter: { user?: string; consumerKey?: string; customer?: string }): number {
    let n = 0;
    for (const [digest, t] of this.tokens) {
      const match = filter.user !== undefined ? t.kind === 'b' && t.principal === filter.user
        : filter.consumerKey !== undefined ? t.kind === 'a' && t.principal === filter.consumerKey
          : filter.customer !== undefined ? t.customerId === filter.customer
            : t.kind === 'b';
      if (match) {
        this.tokens.delete(digest);
        n += 1;
      }
    }
    if (n > 0) this.changed();
    return n;
  }

  hasUser(userName: string): boolean {
    return this.users.has(userName);
  }

  hasClient(consumerKey: string): boolean {
    return this.clients.has(consumerKey);
  }

  hasCustomer(id: string): boolean {
    return this.customers.has(id);
  }

  /** Support's unlock: clears the lock and the failure count. */
  unlock(userName: string): boolean {
    const user = this.users.get(userName);
    if (user === undefined) return false;
    user.locked = false;
    user.failures = 0;
    this.changed();
    return true;
  }

  userState(userName: string): { locked: boolean; failures: number } | undefined {
    const user = this.users.get(userName);
    return user === undefined ? undefined : { locked: user.locked, failures: user.failures };
  }

  /** Support's password change; applies at once, existing tokens stay valid. */
  async setPassword(userName: string, password: string): Promise<boolean> {
    const user = this.users.get(userName);
    if (user === undefined) return false;
    user.passwordHash = await hashSecret(password);
    this.verified.forget(`b:${userName}`);
    this.changed();
    return true;
  }

  stats(): SandboxStats {
    const customers: Record<string, CustomerStats> = {};
    for (const c of this.customers.values()) customers[c.id] = { ...c.stats, resultCodes: { ...c.stats.resultCodes } };
    return { requests: this.requestCount, customers };
  }

  private changed(): void {
    this.saver?.schedule();
  }

  /** Saves what is pending; later changes (from requests still finishing) are not written. */
  async close(): Promise<void> {
    await this.saver?.stop();
  }

  private snapshot(): string {
    const now = this.now();
    const tokens: Record<string, TokenRecord> = {};
    for (const [digest, t] of this.tokens) {
      if (now - t.expiresAt < KEEP_EXPIRED_MS) tokens[digest] = t;
    }
    const users: Record<string, PersistedUser> = {};
    for (const u of this.users.values()) {
      users[u.user] = { failures: u.failures, locked: u.locked, ...(u.passwordHash !== u.configHash ? { passwordHash: u.passwordHash } : {}) };
    }
    const state: PersistedState = {
      format: 'bizdata-sandbox-state',
      version: 1,
      savedAt: new Date().toISOString(),
      clockOffsetMs: this.clockOffsetMs,
      requests: this.requestCount,
      customers: Object.fromEntries([...this.customers.values()].map((c) => [c.id, c.stats])),
      users,
      tokens,
    };
    return `${JSON.stringify(state, null, 2)}\n`;
  }

  /** Applies a saved state over the config; entries the config no longer has are dropped. */
  private restore(raw: unknown, path: string): void {
    const bad = (what: string): Error => new Error(`Sandbox state file ${path} cannot be used: ${what}. Move it away to start afresh.`);
    if (typeof raw !== 'object' || raw === null) throw bad('it is not a JSON object');
    const s = raw as Partial<PersistedState>;
    if (s.format !== 'bizdata-sandbox-state' || s.version !== 1) throw bad('it is not a version 1 sandbox state file');
    if (typeof s.clockOffsetMs === 'number' && Number.isFinite(s.clockOffsetMs)) this.clockOffsetMs = s.clockOffsetMs;
    if (typeof s.requests === 'number') this.requestCount = s.requests;
    for (const [id, stats] of Object.entries(s.customers ?? {})) {
      const c = this.customers.get(id);
      if (c !== undefined && typeof stats === 'object' && stats !== null) Object.assign(c.stats, emptyStats(), stats);
    }
    for (const [name, pu] of Object.entries(s.users ?? {})) {
      const u = this.users.get(name);
      if (u === undefined || typeof pu !== 'object' || pu === null) continue;
      u.failures = typeof pu.failures === 'number' ? pu.failures : 0;
      u.locked = pu.locked === true;
      if (isSecretHash(pu.passwordHash)) u.passwordHash = pu.passwordHash;
    }
    for (const [digest, t] of Object.entries(s.tokens ?? {})) {
      if (typeof t !== 'object' || t === null || (t.kind !== 'a' && t.kind !== 'b') || !this.customers.has(t.customerId)) continue;
      const known = t.kind === 'a' ? this.clients.has(t.principal) : this.users.has(t.principal);
      if (known && typeof t.issuedAt === 'number' && typeof t.expiresAt === 'number') {
        this.tokens.set(digest, { kind: t.kind, customerId: t.customerId, principal: t.principal, issuedAt: t.issuedAt, expiresAt: t.expiresAt });
      }
    }
  }
}
