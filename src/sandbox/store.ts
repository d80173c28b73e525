// The state of one sandbox instance: customers and their statistics, accounts, tokens and the virtual
// clock; their persisted form is persistedState.ts. Everything lives on the instance: two sandboxes
// in one process share nothing.
import { availableParallelism } from 'node:os';
import { TOKEN_LIFETIME_SECONDS } from '../core/constants';
import { type AuthOutcome, Accounts } from './accounts';
import type { SandboxConfig } from './config';
import { type Customer, type CustomerStats, type SandboxStats, makeCustomer, subscriberExpired } from './customers';
import { FifoQueue } from './queues';
import { SecretChecker } from './secrets';
import { type Counters, PersistedState } from './persistedState';
import { MAX_CLOCK_OFFSET_SECONDS } from './stateFile';
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

export class SandboxStore {
  private readonly customers = new Map<string, Customer>();
  private readonly tokens: TokenTable;
  private readonly checker: SecretChecker;
  private accounts!: Accounts;
  private readonly counters: Counters = { clockOffsetMs: 0, requests: 0 };
  /** With --state: the state file, told of every change. */
  private persisted: PersistedState | undefined;

  private constructor(config: SandboxConfig, hashCost: number | undefined) {
    this.checker = new SecretChecker(new FifoQueue(HASH_CONCURRENCY), hashCost);
    this.tokens = new TokenTable((config.tokenLifetimeSeconds ?? TOKEN_LIFETIME_SECONDS) * 1000, () => this.now());
  }

  /** Hashes every configured secret (once, here, not per request) and loads the state file if any. */
  static async create(config: SandboxConfig, statePath: string | undefined, log: (line: string) => void, hashCost?: number): Promise<SandboxStore> {
    const store = new SandboxStore(config, hashCost);
    const pairs = config.customers.map((c) => [c, makeCustomer(c)] as const);
    for (const [, customer] of pairs) store.customers.set(customer.id, customer);
    store.accounts = await Accounts.create(pairs, store.checker, {
      now: () => store.now(),
      issue: (kind, customer, principal) => {
        const { token, digest, record } = store.tokens.issue(kind, customer.id, principal);
        store.persisted?.tokenIssued(digest, record);
        return token;
      },
      userChanged: (name) => store.persisted?.userChanged(name),
    });
    if (statePath !== undefined) {
      const parts = { customers: store.customers, tokens: store.tokens, accounts: store.accounts, counters: store.counters };
      store.persisted = await PersistedState.open(statePath, config, parts, log);
    }
    return store;
  }

  /**
   * Resolves once every change made so far is on disk (with --state); undefined when nothing waits.
   * The server holds each answer until then, so nothing acknowledged can be lost by a crash.
   */
  durable(): Promise<void> | undefined {
    return this.persisted?.durable();
  }

  /** Virtual time in epoch milliseconds: real time plus what the admin clock has advanced. */
  now(): number {
    return Date.now() + this.counters.clockOffsetMs;
  }

  get clockOffsetSeconds(): number {
    return this.counters.clockOffsetMs / 1000;
  }

  /** Moves the virtual clock forward; returns false (and moves nothing) past MAX_CLOCK_OFFSET_SECONDS. */
  advanceClock(seconds: number): boolean {
    if (this.counters.clockOffsetMs + seconds * 1000 > MAX_CLOCK_OFFSET_SECONDS * 1000) return false;
    this.counters.clockOffsetMs += seconds * 1000;
    this.persisted?.clockMoved();
    return true;
  }

  get tokenLifetimeSeconds(): number {
    return this.tokens.lifetimeSeconds;
  }

  noteRequest(): void {
    this.counters.requests += 1;
    this.changed();
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

  /** A customer's contract as support sees it: the limit, the successful calls it counted, every data call it received. */
  contract(id: string): { customer: string; contractLimit: number | null; contractUsed: number; dataCalls: number } | undefined {
    const c = this.customers.get(id);
    return c && { customer: c.id, contractLimit: c.contractLimit ?? null, contractUsed: c.stats.contractUsed, dataCalls: c.stats.dataCalls };
  }

  /** Support raises (or lowers, or lifts: null) the limit, and may start the count again; until the sandbox restarts. */
  changeContract(id: string, change: { readonly contractLimit?: number | null; readonly resetUsed?: boolean }): void {
    const c = this.customers.get(id);
    if (!c) return;
    if (change.contractLimit !== undefined) c.contractLimit = change.contractLimit ?? undefined;
    if (change.resetUsed === true) {
      c.stats.contractUsed = 0;
      this.changed();
    }
  }

  /** Drops tokens early, as a release update, disaster recovery or contract expiration would. */
  invalidateTokens(filter: TokenFilter): number {
    const dropped = this.tokens.invalidate(filter);
    if (dropped.length > 0) this.persisted?.tokensDropped(dropped);
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
    return { requests: this.counters.requests, customers };
  }

  /** How many tokens the sandbox holds (live ones and those expired less than a day ago). */
  get tokenCount(): number {
    return this.tokens.size;
  }

  private changed(): void {
    this.persisted?.touch();
  }

  /** Writes what is pending and closes the state file; later changes (from requests still finishing) are not written. */
  async close(): Promise<void> {
    await this.persisted?.close();
  }
}
