// The sandbox's state as its state file keeps it (--state): what changed since the last write, made
// into journal lines; the whole state as a snapshot; and a saved state applied over the config at
// start. The store (store.ts) tells it each change; the journal (journal.ts) decides when to write.
import type { Accounts, PersistedUser } from './accounts';
import type { SandboxConfig } from './config';
import type { Customer, CustomerStats } from './customers';
import { Journal } from './journal';
import { KeyHashes } from './keyHashes';
import { type Change, STATE_FORMAT, type SavedState, type Snapshot, readStateFile, savedStats, savedToken, savedUser } from './stateFile';
import type { TokenRecord, TokenTable } from './tokens';

/** The store's two numbers that are not in its tables: the virtual clock's offset and the requests served. */
export interface Counters {
  clockOffsetMs: number;
  requests: number;
}

/** The store's state that the file keeps: read when it is written, replaced when a saved state is applied. */
export interface StoreParts {
  readonly customers: ReadonlyMap<string, Customer>;
  readonly tokens: TokenTable;
  readonly accounts: Accounts;
  readonly counters: Counters;
}

/** What changed since the last journal write. */
interface Pending {
  clock: boolean;
  readonly users: Set<string>;
  tokens: Array<[string, TokenRecord]>;
  drops: string[];
}

export class PersistedState {
  private readonly pending: Pending = { clock: false, users: new Set(), tokens: [], drops: [] };
  private journal!: Journal;

  private constructor(
    private readonly parts: StoreParts,
    /** The consumer keys as the state file names them. */
    private readonly keyHashes: KeyHashes,
  ) {}

  /** Reads the state file (if there is one yet), applies it over the config's state, and opens its journal. */
  static async open(statePath: string, config: SandboxConfig, parts: StoreParts, log: (line: string) => void): Promise<PersistedState> {
    const saved = await readStateFile(statePath);
    const keys = config.customers.flatMap((c) => (c.clients ?? []).map((cl) => cl.consumerKey));
    const state = new PersistedState(parts, await KeyHashes.create(keys, saved?.snapshot.keySalt));
    if (saved !== undefined) state.restore(saved);
    if (saved?.tornTail === true) log(`sandbox: ${statePath} ended in a line cut short by a crash; that change was never acknowledged and is ignored.`);
    state.journal = await Journal.open(statePath, { changes: () => state.changes(), snapshot: () => state.snapshot() });
    return state;
  }

  clockMoved(): void {
    this.pending.clock = true;
    this.touch();
  }

  userChanged(name: string): void {
    this.pending.users.add(name);
    this.touch();
  }

  tokenIssued(digest: string, record: TokenRecord): void {
    this.pending.tokens.push([digest, record]);
    this.touch();
  }

  tokensDropped(digests: readonly string[]): void {
    this.pending.drops.push(...digests);
    this.touch();
  }

  /** Something the next write carries changed (statistics ride along with every write). */
  touch(): void {
    this.journal.touch();
  }

  /** Resolves once every change made so far is on disk. */
  durable(): Promise<void> | undefined {
    return this.journal.durable();
  }

  /** Writes what is pending and closes the state file. */
  async close(): Promise<void> {
    await this.journal.close();
  }

  /** Journal lines for what changed since the last call; statistics ride along with every write. */
  private changes(): string {
    const out: Change[] = [];
    const p = this.pending;
    if (p.clock) out.push({ k: 'clock', offsetMs: this.parts.counters.clockOffsetMs });
    for (const name of p.users) {
      const state = this.parts.accounts.persisted(name);
      if (state !== undefined) out.push({ k: 'user', name, state });
    }
    for (const [digest, record] of p.tokens) {
      const token = this.persistedToken(record);
      if (token !== undefined) out.push({ k: 'token', digest, token });
    }
    if (p.drops.length > 0) out.push({ k: 'drop', digests: p.drops });
    out.push({ k: 'stats', requests: this.parts.counters.requests, customers: this.customerStats() });
    p.clock = false;
    p.users.clear();
    p.tokens = [];
    p.drops = [];
    return out.map((c) => `${JSON.stringify(c)}\n`).join('');
  }

  private customerStats(): Record<string, CustomerStats> {
    return Object.fromEntries([...this.parts.customers.values()].map((c) => [c.id, c.stats]));
  }

  private snapshot(): string {
    const users: Record<string, PersistedUser> = {};
    for (const name of this.parts.accounts.userNames()) {
      const u = this.parts.accounts.persisted(name);
      if (u !== undefined) users[name] = u;
    }
    const state: Snapshot = {
      format: STATE_FORMAT,
      version: 2,
      savedAt: new Date().toISOString(),
      clockOffsetMs: this.parts.counters.clockOffsetMs,
      requests: this.parts.counters.requests,
      customers: this.customerStats(),
      users,
      keySalt: this.keyHashes.salt,
      tokens: Object.fromEntries([...this.parts.tokens.entries()].flatMap(([digest, record]) => {
        const token = this.persistedToken(record);
        return token === undefined ? [] : [[digest, token] as const];
      })),
    };
    return `${JSON.stringify(state)}\n`;
  }

  /** Applies a saved state over the config: the snapshot, then each change in order. Entries the config no longer has are dropped. */
  private restore(saved: SavedState): void {
    const s = saved.snapshot;
    this.parts.counters.clockOffsetMs = s.clockOffsetMs ?? 0;
    this.restoreStats(s.requests, s.customers);
    for (const [name, user] of Object.entries(s.users ?? {})) this.restoreUser(name, user);
    const tokens = Object.entries(s.tokens ?? {}).sort(([, x], [, y]) => (x.expiresAt ?? 0) - (y.expiresAt ?? 0));
    for (const [digest, token] of tokens) this.restoreToken(digest, token);
    for (const c of saved.changes) {
      if (c.k === 'clock') this.parts.counters.clockOffsetMs = c.offsetMs;
      else if (c.k === 'user') this.restoreUser(c.name, c.state);
      else if (c.k === 'token') this.restoreToken(c.digest, c.token);
      else if (c.k === 'drop') this.parts.tokens.drop(c.digests);
      else this.restoreStats(c.requests, c.customers);
    }
  }

  private restoreStats(requests: unknown, customers: unknown): void {
    if (typeof requests === 'number' && Number.isInteger(requests) && requests >= 0) this.parts.counters.requests = requests;
    if (typeof customers !== 'object' || customers === null) return;
    for (const [id, stats] of Object.entries(customers)) {
      const c = this.parts.customers.get(id);
      if (c !== undefined) savedStats(stats, c.stats);
    }
  }

  private restoreUser(name: string, raw: unknown): void {
    const user = savedUser(raw);
    if (user !== undefined) this.parts.accounts.restore(name, user);
  }

  private restoreToken(digest: string, raw: unknown): void {
    const saved = savedToken(raw);
    if (saved === undefined || !this.parts.customers.has(saved.customerId)) return;
    const principal = saved.kind === 'a' ? this.keyHashes.keyOf(saved.principal) : saved.principal;
    if (principal === undefined) return;
    const t = { ...saved, principal };
    if (t.kind === 'a' ? this.parts.accounts.hasClient(t.principal) : this.parts.accounts.hasUser(t.principal)) this.parts.tokens.add(digest, t);
  }

  /** A token as the state file keeps it: an Interface A token names its consumer key by the key's hash. */
  private persistedToken(record: TokenRecord): TokenRecord | undefined {
    if (record.kind !== 'a') return record;
    const principal = this.keyHashes.hashOf(record.principal);
    return principal === undefined ? undefined : { ...record, principal };
  }
}
