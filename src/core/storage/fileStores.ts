// The client's stores for one machine, in the shared state directory: guard counts, account locks,
// kept tokens and learned limits. Every change is a read-modify-write under a file lock, so any
// number of processes (command lines, extension windows) add up as one. Keys are hashed: no account
// name is written anywhere.
import type { StoredToken } from '../model';
import type { AccountLocks, AttemptOutcome, GuardStore, LearnedLimits, LimitsStore, TokenStore } from '../ports';
import { LockedJsonFile, objectEntries, withFileLock } from './stateDir';
import { guardKey, settledCount } from './stores';

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** `guard.json`: consecutive failed sign-ins per account, as the service counts them. */
export class FileGuardStore implements GuardStore {
  private readonly file: LockedJsonFile<Record<string, number>>;

  constructor(dir: string) {
    this.file = new LockedJsonFile(dir, 'guard.json', (raw) => objectEntries(raw, isCount), 0o600);
  }

  async read(account: string): Promise<number> {
    return (await this.file.read())[guardKey(account)] ?? 0;
  }

  /** Read and counted under the lock, right before the attempt: no other process slips in between. */
  begin(account: string): Promise<number> {
    const k = guardKey(account);
    return this.file.update((counts) => {
      const before = counts[k] ?? 0;
      return { next: { ...counts, [k]: before + 1 }, result: before };
    });
  }

  end(account: string, outcome: AttemptOutcome): Promise<void> {
    const k = guardKey(account);
    return this.file.update((counts) => ({ next: withCount(counts, k, settledCount(counts[k] ?? 0, outcome)), result: undefined }));
  }

  /** Adds counts kept elsewhere before (hashed keys), keeping the larger of each: a migration never lowers a count. */
  merge(counts: Readonly<Record<string, number>>): Promise<void> {
    return this.file.update((current) => {
      const next = { ...current };
      for (const [k, v] of Object.entries(counts)) if (isCount(v) && v > (next[k] ?? 0)) next[k] = v;
      return { next, result: undefined };
    });
  }
}

function withCount(counts: Readonly<Record<string, number>>, k: string, n: number): Record<string, number> {
  const next = { ...counts };
  if (n > 0) next[k] = n;
  else delete next[k];
  return next;
}

/** Sign-ins of one account wait for each other across every process using the directory. */
export class FileLocks implements AccountLocks {
  constructor(private readonly dir: string) {}

  withLock<T>(key: string, run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return withFileLock(this.dir, `account-${guardKey(key)}`, run, signal);
  }
}

const isToken = (v: unknown): v is StoredToken => {
  const t = v as Partial<StoredToken> | null;
  return typeof t === 'object' && t !== null && typeof t.value === 'string' && typeof t.issuedAt === 'number' && typeof t.expiresAt === 'number';
};

/**
 * `tokens.json`, readable by the user alone (0600 in a 0700 directory): tokens kept between command
 * line runs when the user asks (`--keep-token`). Expired tokens are dropped on every write.
 */
export class FileTokenStore implements TokenStore {
  private readonly file: LockedJsonFile<Record<string, StoredToken>>;

  constructor(
    dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = new LockedJsonFile(dir, 'tokens.json', (raw) => objectEntries(raw, isToken), 0o600);
  }

  async get(key: string): Promise<StoredToken | undefined> {
    const t = (await this.file.read())[guardKey(key)];
    return t && this.now() < t.expiresAt ? t : undefined;
  }

  set(key: string, token: StoredToken): Promise<void> {
    return this.file.update((tokens) => ({ next: { ...this.live(tokens), [guardKey(key)]: token }, result: undefined }));
  }

  delete(key: string, ifValue?: string): Promise<void> {
    const k = guardKey(key);
    return this.file.update((tokens) => {
      if (!(k in tokens) || (ifValue !== undefined && tokens[k].value !== ifValue)) return { result: undefined };
      const next = this.live(tokens);
      delete next[k];
      return { next, result: undefined };
    });
  }

  private live(tokens: Readonly<Record<string, StoredToken>>): Record<string, StoredToken> {
    return Object.fromEntries(Object.entries(tokens).filter(([, t]) => this.now() < t.expiresAt));
  }
}

const isLearned = (v: unknown): v is LearnedLimits => {
  const l = v as Partial<LearnedLimits> | null;
  return typeof l === 'object' && l !== null && typeof l.qps === 'number' && l.qps > 0 && typeof l.concurrency === 'number' && l.concurrency >= 1 && typeof l.at === 'number';
};

/** `limits.json`: the limits each account's limiter found, reused by the next run. */
export class FileLimitsStore implements LimitsStore {
  private readonly file: LockedJsonFile<Record<string, LearnedLimits>>;

  constructor(dir: string) {
    this.file = new LockedJsonFile(dir, 'limits.json', (raw) => objectEntries(raw, isLearned), 0o600);
  }

  async get(account: string): Promise<LearnedLimits | undefined> {
    const l = (await this.file.read())[guardKey(account)];
    return l ? { qps: l.qps, concurrency: l.concurrency, exact: l.exact === true, at: l.at } : undefined;
  }

  set(account: string, limits: LearnedLimits): Promise<void> {
    return this.file.update((all) => ({ next: { ...all, [guardKey(account)]: limits }, result: undefined }));
  }
}
