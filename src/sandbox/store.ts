// The state of one sandbox instance: customers and their statistics, accounts, tokens, the virtual
// clock, and their persisted form. Everything lives on the instance: two sandboxes in one process
// share nothing.
import { availableParallelism } from 'node:os';
import { TOKEN_LIFETIME_SECONDS } from '../core/constants';
import { errorMessage } from '../core/errors';
import { type AuthOutcome, Accounts, type PersistedUser } from './accounts';
import type { SandboxConfig } from './config';
import { type Customer, type CustomerStats, type SandboxStats, emptyStats, makeCustomer, subscriberExpired } from './customers';
import { StateSaver, readJsonFile } from './persist';
import { FifoQueue } from './queues';
import { SecretChecker } from './secrets';
import { type TokenFilter, type TokenRecord, TokenTable } from './tokens';

export type { AuthFailure, AuthOutcome } from './accounts';
export type { Customer, CustomerStats, SandboxStats } from './customers';
export type { TokenRecord } from './tokens';

/**
 * scrypt derivations running at once: one core (at most two) is left to the event loop, so a flood
 * of sign-ins queues up instead of starving data calls of CPU and of the libuv pool (gzip, files).
 */
export const HASH_CONCURRENCY = Math.max(1, Math.min(2, availableParallelism() - 1));

export type TokenCheck =
  | { readonly ok: true; readonly record: TokenRecord; readonly customer: Customer }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'wrong-interface'; readonly customer?: Customer };

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

export class SandboxStore {
  private readonly customers = new Map<string, Customer>();
  private readonly tokens: TokenTable;
  private readonly checker = new SecretChecker(new FifoQueue(HASH_CONCURRENCY));
  private accounts!: Accounts;
  private clockOffsetMs = 0;
  private requestCount = 0;
  private saver: StateSaver | undefined;

  private constructor(config: SandboxConfig) {
    this.tokens = new TokenTable((config.tokenLifetimeSeconds ?? TOKEN_LIFETIME_SECONDS) * 1000, () => this.now());
  }

  /** Hashes every configured secret (once, here, not per request) and loads the state file if any. */
  static async create(config: SandboxConfig, statePath: string | undefined, log: (line: string) => void): Promise<SandboxStore> {
    const store = new SandboxStore(config);
    const pairs = config.customers.map((c) => [c, makeCustomer(c)] as const);
    for (const [, customer] of pairs) store.customers.set(customer.id, customer);
    store.accounts = await Accounts.create(pairs, store.checker, {
      now: () => store.now(),
      issue: (kind, customer, principal) => {
        const { token } = store.tokens.issue(kind, customer.id, principal);
        store.changed();
        return token;
      },
      userChanged: () => store.changed(),
    });
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
    return this.tokens.lifetimeSeconds;
  }

  noteRequest(): void {
    this.requestCount += 1;
  }

  noteCode(customer: Customer | undefined, code: string): void {
    if (customer === undefined) return;
    const codes = customer.stats.resultCodes;
    codes[code] = (codes[code] ?? 0) + 1;
  }

  authenticateClient(consumerKey: string, secret: string): Promise<AuthOutcome> {
    return this.accounts.authenticateClient(consumerKey, secret);
  }

  authenticateUser(userName: string, password: string): Promise<AuthOutcome> {
    return this.accounts.authenticateUser(userName, password);
  }

  /** Looks a presented token up; the hot path of every data call. */
  checkToken(token: string, kind: 'a' | 'b'): TokenCheck {
    const found = this.tokens.check(token, kind);
    if (found === 'unknown') return { ok: false, reason: 'unknown' };
    if (typeof found === 'string') return { ok: false, reason: found, customer: this.customerOfToken(token) };
    const customer = this.customers.get(found.customerId);
    return customer === undefined ? { ok: false, reason: 'unknown' } : { ok: true, record: found, customer };
  }

  private customerOfToken(token: string): Customer | undefined {
    const id = this.tokens.customerOf(token);
    return id === undefined ? undefined : this.customers.get(id);
  }

  /** The account condition that now refuses a B token's calls: a lock or expired credentials. */
  userCondition(userName: string): 'locked' | 'credentials-expired' | undefined {
    return this.accounts.userCondition(userName);
  }

  isSubscriberExpired(customer: Customer): boolean {
    return subscriberExpired(customer, this.now());
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
  invalidateTokens(filter: TokenFilter): number {
    const dropped = this.tokens.invalidate(filter);
    if (dropped.length > 0) this.changed();
    return dropped.length;
  }

  hasUser(userName: string): boolean {
    return this.accounts.hasUser(userName);
  }

  hasClient(consumerKey: string): boolean {
    return this.accounts.hasClient(consumerKey);
  }

  hasCustomer(id: string): boolean {
    return this.customers.has(id);
  }

  /** Support's unlock: clears the lock and the failure count. */
  unlock(userName: string): Promise<void> {
    return this.accounts.unlock(userName);
  }

  userState(userName: string): { locked: boolean; failures: number } | undefined {
    return this.accounts.userState(userName);
  }

  /** Support's password change; applies at once, existing tokens stay valid. */
  setPassword(userName: string, password: string): Promise<void> {
    return this.accounts.setPassword(userName, password);
  }

  stats(): SandboxStats {
    const customers: Record<string, CustomerStats> = {};
    for (const c of this.customers.values()) customers[c.id] = { ...c.stats, resultCodes: { ...c.stats.resultCodes } };
    return { requests: this.requestCount, customers };
  }

  /** How many tokens the sandbox holds (live ones and those expired less than a day ago). */
  get tokenCount(): number {
    return this.tokens.size;
  }

  private changed(): void {
    this.saver?.schedule();
  }

  /** Saves what is pending; later changes (from requests still finishing) are not written. */
  async close(): Promise<void> {
    await this.saver?.stop();
  }

  private snapshot(): string {
    const users: Record<string, PersistedUser> = {};
    for (const name of this.accounts.userNames()) {
      const u = this.accounts.persisted(name);
      if (u !== undefined) users[name] = u;
    }
    const state: PersistedState = {
      format: 'bizdata-sandbox-state',
      version: 1,
      savedAt: new Date().toISOString(),
      clockOffsetMs: this.clockOffsetMs,
      requests: this.requestCount,
      customers: Object.fromEntries([...this.customers.values()].map((c) => [c.id, c.stats])),
      users,
      tokens: Object.fromEntries(this.tokens.entries()),
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
      if (typeof pu !== 'object' || pu === null) continue;
      this.accounts.restore(name, { failures: typeof pu.failures === 'number' ? pu.failures : 0, locked: pu.locked === true, passwordHash: pu.passwordHash });
    }
    const tokens = Object.entries(s.tokens ?? {}).filter(([, t]) => typeof t === 'object' && t !== null && (t.kind === 'a' || t.kind === 'b') &&
      this.customers.has(t.customerId) && (t.kind === 'a' ? this.accounts.hasClient(t.principal) : this.accounts.hasUser(t.principal)) &&
      typeof t.issuedAt === 'number' && typeof t.expiresAt === 'number');
    tokens.sort(([, x], [, y]) => x.expiresAt - y.expiresAt);
    for (const [digest, t] of tokens) {
      this.tokens.add(digest, { kind: t.kind, customerId: t.customerId, principal: t.principal, issuedAt: t.issuedAt, expiresAt: t.expiresAt });
    }
  }
}
