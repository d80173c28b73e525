// Stores for one process (tests, the sandbox profile in the extension), and what every store of
// guard counts shares: how an attempt settles, and the hashed key no account name is written under.
import { createHash } from 'node:crypto';
import type { StoredToken } from '../model';
import type { AccountLocks, AttemptOutcome, GuardStore, TokenOwner, TokenStore, UsageRecord, UsageStore, UsageTake } from '../ports';

/** Tokens in this process's memory: nothing at rest, so nothing sealed. */
export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredToken>();
  async get({ key }: TokenOwner): Promise<StoredToken | undefined> {
    return this.tokens.get(key);
  }
  async set({ key }: TokenOwner, t: StoredToken): Promise<void> {
    this.tokens.set(key, t);
  }
  async delete({ key }: TokenOwner, ifValue?: string): Promise<void> {
    if (ifValue === undefined || this.tokens.get(key)?.value === ifValue) this.tokens.delete(key);
  }
}

/** The count after an attempt settles, whatever keeps it. */
export function settledCount(count: number, outcome: AttemptOutcome): number {
  if (outcome === 'accepted') return 0;
  // `begin` already counted the attempt: a failure keeps it, anything else gives it back.
  return outcome === 'failed' ? count : Math.max(0, count - 1);
}

export class MemoryGuardStore implements GuardStore {
  private readonly failures = new Map<string, number>();
  async read(account: string): Promise<number> {
    return this.failures.get(account) ?? 0;
  }
  async begin(account: string): Promise<number> {
    const before = this.failures.get(account) ?? 0;
    this.failures.set(account, before + 1);
    return before;
  }
  async end(account: string, outcome: AttemptOutcome): Promise<void> {
    const next = settledCount(this.failures.get(account) ?? 0, outcome);
    if (next === 0) this.failures.delete(account);
    else this.failures.set(account, next);
  }
}

/** A contract's count of data calls in this process's memory (the local sandbox in the extension, tests). */
export class MemoryUsageStore implements UsageStore {
  private readonly records = new Map<string, { used: number; reachedAt?: number }>();

  async take(scope: string, period: string): Promise<UsageTake> {
    const r = this.record(scope, period);
    if (r.reachedAt !== undefined) return { counted: false, reachedAt: r.reachedAt };
    r.used++;
    return { counted: true };
  }
  async giveBack(scope: string, period: string): Promise<void> {
    const r = this.record(scope, period);
    r.used = Math.max(0, r.used - 1);
  }
  async read(scope: string, period: string): Promise<UsageRecord> {
    return { ...this.record(scope, period) };
  }
  async markReached(scope: string, period: string, at: number): Promise<void> {
    this.record(scope, period).reachedAt = at;
  }
  async clearReached(scope: string, period: string): Promise<void> {
    delete this.record(scope, period).reachedAt;
  }
  private record(scope: string, period: string): { used: number; reachedAt?: number } {
    const key = `${period}|${scope}`;
    let r = this.records.get(key);
    if (!r) this.records.set(key, (r = { used: 0 }));
    return r;
  }
}

/** Sign-ins of one account wait for each other inside this process. */
export class MemoryLocks implements AccountLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async withLock<T>(key: string, run: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await run();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** The hashed form of an account key, for every store outside SecretStorage. */
export function guardKey(account: string): string {
  return createHash('sha256').update(account).digest('hex').slice(0, 32);
}
