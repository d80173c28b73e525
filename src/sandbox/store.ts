// The state of one sandbox instance: customers and their statistics, accounts, tokens, the virtual
// clock, and their persisted form. Everything lives on the instance: two sandboxes in one process
// share nothing.
import { availableParallelism } from 'node:os';
import { TOKEN_LIFETIME_SECONDS } from '../core/constants';
import { type AuthOutcome, Accounts, type PersistedUser } from './accounts';
import type { SandboxConfig } from './config';
import { type Customer, type CustomerStats, type SandboxStats, makeCustomer, subscriberExpired } from './customers';
import { Journal } from './journal';
import { KeyHashes } from './keyHashes';
import { FifoQueue } from './queues';
import { SecretChecker } from './secrets';
import { type Change, MAX_CLOCK_OFFSET_SECONDS, STATE_FORMAT, type SavedState, type Snapshot, readStateFile, savedStats, savedToken, savedUser } from './stateFile';
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

/** What changed since the last journal write. */
interface Pending {
  clock: boolean;
  readonly users: Set<string>;
  tokens: Array<[string, TokenRecord]>;
  drops: string[];
}

export class SandboxStore {
  private readonly customers = new Map<string, Customer>();
  private readonly tokens: TokenTable;
  private readonly checker: SecretChecker;
  private accounts!: Accounts;
  private clockOffsetMs = 0;
  private requestCount = 0;
  private journal: Journal | undefined;
  /** With a state file: the consumer keys as it names them. */
  private keyHashes: KeyHashes | undefined;
  private readonly pending: Pending = { clock: false, users: new Set(), tokens: [], drops: [] };

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
        if (store.journal !== undefined) store.pending.tokens.push([digest, record]);
        store.changed();
        return token;
      },
      userChanged: (name) => {
        if (store.journal !== undefined) store.pending.users.add(name);
        store.changed();
      },
    });
    if (statePath !== undefined) {
      const saved = await readStateFile(statePath);
      const keys = config.customers.flatMap((c) => (c.clients ?? []).map((cl) => cl.consumerKey));
      store.keyHashes = await KeyHashes.create(keys, saved?.snapshot.keySalt);
      if (saved !== undefined) store.restore(saved);
      if (saved?.tornTail === true) log(`sandbox: ${statePath} ended in a line cut short by a crash; that change was never acknowledged and is ignored.`);
      store.journal = await Journal.open(statePath, { changes: () => store.changes(), snapshot: () => store.snapshot() });
    }
    return store;
  }

  /**
   * Resolves once every change made so far is on disk (with --state); undefined when nothing waits.
   * The server holds each answer until then, so nothing acknowledged can be lost by a crash.
   */
  durable(): Promise<void> | undefined {
    return this.journal?.durable();
  }

  /** Virtual time in epoch milliseconds: real time plus what the admin clock has advanced. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  get clockOffsetSeconds(): number {
    return this.clockOffsetMs / 1000;
  }

  /** Moves the virtual clock forward; returns false (and moves nothing) past MAX_CLOCK_OFFSET_SECONDS. */
  advanceClock(seconds: number): boolean {
    if (this.clockOffsetMs + seconds * 1000 > MAX_CLOCK_OFFSET_SECONDS * 1000) return false;
    this.clockOffsetMs += seconds * 1000;
    this.pending.clock = true;
    this.changed();
    return true;
  }

  get tokenLifetimeSeconds(): number {
    return this.tokens.lifetimeSeconds;
  }

  noteRequest(): void {
    this.requestCount += 1;
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

  /** Drops tokens early, as a release update, disaster recovery or contract expiration would. */
  invalidateTokens(filter: TokenFilter): number {
    const dropped = this.tokens.invalidate(filter);
    if (dropped.length > 0 && this.journal !== undefined) {
      this.pending.drops.push(...dropped);
      this.changed();
    }
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
    this.journal?.touch();
  }

  /** Writes what is pending and closes the state file; later changes (from requests still finishing) are not written. */
  async close(): Promise<void> {
    await this.journal?.close();
  }

  /** Journal lines for what changed since the last call; statistics ride along with every write. */
  private changes(): string {
    const out: Change[] = [];
    const p = this.pending;
    if (p.clock) out.push({ k: 'clock', offsetMs: this.clockOffsetMs });
    for (const name of p.users) {
      const state = this.accounts.persisted(name);
      if (state !== undefined) out.push({ k: 'user', name, state });
    }
    for (const [digest, record] of p.tokens) {
      const token = this.persistedToken(record);
      if (token !== undefined) out.push({ k: 'token', digest, token });
    }
    if (p.drops.length > 0) out.push({ k: 'drop', digests: p.drops });
    out.push({ k: 'stats', requests: this.requestCount, customers: this.customerStats() });
    p.clock = false;
    p.users.clear();
    p.tokens = [];
    p.drops = [];
    return out.map((c) => `${JSON.stringify(c)}\n`).join('');
  }

  private customerStats(): Record<string, CustomerStats> {
    return Object.fromEntries([...this.customers.values()].map((c) => [c.id, c.stats]));
  }

  private snapshot(): string {
    const users: Record<string, PersistedUser> = {};
    for (const name of this.accounts.userNames()) {
      const u = this.accounts.persisted(name);
      if (u !== undefined) users[name] = u;
    }
    const state: Snapshot = {
      format: STATE_FORMAT,
      version: 2,
      savedAt: new Date().toISOString(),
      clockOffsetMs: this.clockOffsetMs,
      requests: this.requestCount,
      customers: this.customerStats(),
      users,
      keySalt: this.keyHashes?.salt,
      tokens: Object.fromEntries([...this.tokens.entries()].flatMap(([digest, record]) => {
        const token = this.persistedToken(record);
        return token === undefined ? [] : [[digest, token] as const];
      })),
    };
    return `${JSON.stringify(state)}\n`;
  }

  /** Applies a saved state over the config: the snapshot, then each change in order. Entries the config no longer has are dropped. */
  private restore(saved: SavedState): void {
    const s = saved.snapshot;
    this.clockOffsetMs = s.clockOffsetMs ?? 0;
    this.restoreStats(s.requests, s.customers);
    for (const [name, user] of Object.entries(s.users ?? {})) this.restoreUser(name, user);
    const tokens = Object.entries(s.tokens ?? {}).sort(([, x], [, y]) => (x.expiresAt ?? 0) - (y.expiresAt ?? 0));
    for (const [digest, token] of tokens) this.restoreToken(digest, token);
    for (const c of saved.changes) {
      if (c.k === 'clock') this.clockOffsetMs = c.offsetMs;
      else if (c.k === 'user') this.restoreUser(c.name, c.state);
      else if (c.k === 'token') this.restoreToken(c.digest, c.token);
      else if (c.k === 'drop') this.tokens.drop(c.digests);
      else this.restoreStats(c.requests, c.customers);
    }
  }

  private restoreStats(requests: unknown, customers: unknown): void {
    if (typeof requests === 'number' && Number.isInteger(requests) && requests >= 0) this.requestCount = requests;
    if (typeof customers !== 'object' || customers === null) return;
    for (const [id, stats] of Object.entries(customers)) {
      const c = this.customers.get(id);
      if (c !== undefined) savedStats(stats, c.stats);
    }
  }

  private restoreUser(name: string, raw: unknown): void {
    const user = savedUser(raw);
    if (user !== undefined) this.accounts.restore(name, user);
  }

  private restoreToken(digest: string, raw: unknown): void {
    const saved = savedToken(raw);
    if (saved === undefined || !this.customers.has(saved.customerId)) return;
    const principal = saved.kind === 'a' ? this.keyHashes?.keyOf(saved.principal) : saved.principal;
    if (principal === undefined) return;
    const t = { ...saved, principal };
    if (t.kind === 'a' ? this.accounts.hasClient(t.principal) : this.accounts.hasUser(t.principal)) this.tokens.add(digest, t);
  }

  /** A token as the state file keeps it: an Interface A token names its consumer key by the key's hash. */
  private persistedToken(record: TokenRecord): TokenRecord | undefined {
    if (record.kind !== 'a') return record;
    const principal = this.keyHashes?.hashOf(record.principal);
    return principal === undefined ? undefined : { ...record, principal };
  }
}
