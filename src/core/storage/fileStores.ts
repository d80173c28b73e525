// The client's stores for one machine, in the shared state directory: guard counts, account locks,
// kept tokens and learned limits. Every change is a read-modify-write under a file lock, so any
// number of processes (command lines, extension windows) add up as one. Keys are hashed: no account
// name is written anywhere.
import { basename, dirname, join } from 'node:path';
import { LOCKOUT_AFTER_FAILURES } from '../constants';
import type { StoredToken } from '../model';
import type { AccountLocks, AttemptOutcome, GuardStore, LearnedLimits, LimitsStore, TokenOwner, TokenStore } from '../ports';
import { sealTokens, unsealToken } from './sealing';
import { type Damage, LockedJsonFile, objectEntries, withFileLock } from './stateDir';
import { guardKey, settledCount } from './stores';

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** Where the counts went when `guard.json` could not be read: every account without a count since is in doubt. */
interface DamageNote {
  /** The file name it was kept aside as, in the same folder (or the file itself when it could not be moved). */
  readonly keptAs: string;
  readonly why: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

interface GuardCounts {
  /** By hashed account key. While `damaged` is set, 0 is kept too: that account signed in since. */
  readonly counts: Readonly<Record<string, number>>;
  readonly damaged?: DamageNote;
}

/** The one key of guard.json that is not an account's count. */
const DAMAGED = 'damaged';

function parseGuard(raw: unknown): GuardCounts | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const counts: Record<string, number> = {};
  let damaged: DamageNote | undefined;
  for (const [k, v] of Object.entries(raw)) {
    if (k === DAMAGED) {
      const d = v as Partial<DamageNote> | null;
      if (typeof d !== 'object' || d === null || typeof d.keptAs !== 'string' || typeof d.why !== 'string' || typeof d.at !== 'number') return undefined;
      damaged = { keptAs: d.keptAs, why: d.why, at: d.at };
    } else if (typeof v === 'number' && Number.isInteger(v) && v >= 0) {
      counts[k] = v;
    } else {
      // Anything else is not a file this program wrote: it counts as damaged, never as zero.
      return undefined;
    }
  }
  return damaged ? { counts, damaged } : { counts };
}

/** The count of an account: its own, else, after a damaged file, one failure away from the lockout. */
function countOf(g: GuardCounts, k: string): number {
  return g.counts[k] ?? (g.damaged ? LOCKOUT_AFTER_FAILURES - 1 : 0);
}

function withCount(g: GuardCounts, k: string, n: number): GuardCounts {
  const counts = { ...g.counts };
  // A success after damage is remembered as 0: without it the account would be in doubt again.
  if (n > 0 || g.damaged) counts[k] = n;
  else delete counts[k];
  return { ...g, counts };
}

/**
 * `guard.json`: consecutive failed sign-ins per account, as the service counts them. A file that
 * cannot be read or parsed is never taken for zero: it is kept aside (`guard.json.corrupt-<time>`),
 * and every account without a count since is treated as one failure away from the lockout, with a
 * message naming both files, until it signs in successfully.
 */
export class FileGuardStore implements GuardStore {
  private readonly file: LockedJsonFile<GuardCounts>;

  constructor(dir: string) {
    this.file = new LockedJsonFile(dir, 'guard.json', {
      parse: parseGuard,
      empty: { counts: {} },
      toJson: (g) => (g.damaged ? { ...g.counts, [DAMAGED]: g.damaged } : g.counts),
      keepAside: (d: Damage) => ({ counts: {}, damaged: { keptAs: basename(d.keptAs ?? d.file), why: d.notMoved ? `${d.why}; it could not be moved aside (${d.notMoved})` : d.why, at: Date.now() } }),
      mode: 0o600,
    });
  }

  async read(account: string): Promise<number> {
    return countOf(await this.file.read(), guardKey(account));
  }

  async doubt(account: string): Promise<string | undefined> {
    const g = await this.file.read();
    const k = guardKey(account);
    if (!g.damaged || g.counts[k] === 0) return undefined;
    const file = this.file.path;
    const kept = join(dirname(file), g.damaged.keptAs);
    const where = kept === file ? `${file} could not be read (${g.damaged.why})` : `${file} could not be read (${g.damaged.why}); it was kept aside as ${kept}`;
    return `the lockout guard's record of failed sign-ins ${where}. How many sign-ins of this account failed in a row is unknown, so it is treated as one failure away from the lockout until it signs in successfully.`;
  }

  /** Read and counted under the lock, right before the attempt: no other process slips in between. */
  begin(account: string): Promise<number> {
    const k = guardKey(account);
    return this.file.update((g) => {
      const before = countOf(g, k);
      return { next: withCount(g, k, before + 1), result: before };
    });
  }

  end(account: string, outcome: AttemptOutcome): Promise<void> {
    const k = guardKey(account);
    return this.file.update((g) => ({ next: withCount(g, k, settledCount(countOf(g, k), outcome)), result: undefined }));
  }

  /** Adds counts kept elsewhere before (hashed keys), keeping the larger of each: a migration never lowers a count. */
  merge(counts: Readonly<Record<string, number>>): Promise<void> {
    return this.file.update((g) => {
      let next = g;
      for (const [k, v] of Object.entries(counts)) if (isCount(v) && v > countOf(next, k)) next = withCount(next, k, v);
      return { next, result: undefined };
    });
  }
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

/** `tokens.json` as it is on disk: values sealed by `fileTokenStore`, times in clear to drop expired ones. */
class TokensFile implements TokenStore {
  private readonly file: LockedJsonFile<Record<string, StoredToken>>;

  constructor(
    dir: string,
    private readonly now: () => number,
  ) {
    this.file = new LockedJsonFile(dir, 'tokens.json', { parse: (raw) => objectEntries(raw, isToken), empty: {}, mode: 0o600 });
  }

  async get({ key }: TokenOwner): Promise<StoredToken | undefined> {
    const t = (await this.file.read())[guardKey(key)];
    return t && this.now() < t.expiresAt ? t : undefined;
  }

  set({ key }: TokenOwner, token: StoredToken): Promise<void> {
    return this.file.update((tokens) => ({ next: { ...this.live(tokens), [guardKey(key)]: token }, result: undefined }));
  }

  delete({ key }: TokenOwner, ifValue?: string): Promise<void> {
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

/**
 * `tokens.json`, readable by the user alone (0600 in a 0700 directory): tokens kept between command
 * line runs when the user asks (`--keep-token`), sealed with the account's secret. Expired tokens are
 * dropped on every write.
 */
export function fileTokenStore(dir: string, now: () => number = Date.now): TokenStore {
  return sealTokens(new TokensFile(dir, now));
}

/**
 * The kept token of `owner`, read only: unlike the store, a value that does not unseal (another
 * secret's) is left where it is, so a listing (bizdata connections) changes nothing.
 */
export async function peekKeptToken(dir: string, owner: TokenOwner, now: () => number = Date.now): Promise<StoredToken | undefined> {
  const kept = await new TokensFile(dir, now).get(owner);
  return kept && unsealToken(owner, kept.value);
}

const isLearned = (v: unknown): v is LearnedLimits => {
  const l = v as Partial<LearnedLimits> | null;
  return typeof l === 'object' && l !== null && typeof l.qps === 'number' && l.qps > 0 && typeof l.concurrency === 'number' && l.concurrency >= 1 && typeof l.at === 'number';
};

/** `limits.json`: the limits each account's limiter found, reused by the next run. */
export class FileLimitsStore implements LimitsStore {
  private readonly file: LockedJsonFile<Record<string, LearnedLimits>>;

  constructor(dir: string) {
    this.file = new LockedJsonFile(dir, 'limits.json', { parse: (raw) => objectEntries(raw, isLearned), empty: {}, mode: 0o600 });
  }

  async get(account: string): Promise<LearnedLimits | undefined> {
    const l = (await this.file.read())[guardKey(account)];
    return l ? { qps: l.qps, concurrency: l.concurrency, exact: l.exact === true, at: l.at } : undefined;
  }

  set(account: string, limits: LearnedLimits): Promise<void> {
    return this.file.update((all) => ({ next: { ...all, [guardKey(account)]: limits }, result: undefined }));
  }
}
