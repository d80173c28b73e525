// The seams of the client: where tokens, lockout-guard counts, locks, credentials and the rate budget
// live. The client only sees these interfaces, so an implementation for one process (memory), for one
// machine (files under the state directory) or for many machines (Redis) plugs in without touching it.
import type { Credentials, InterfaceId, LimiterState, StoredToken } from './model';

/**
 * Whose token: where it is kept (the account at the exact origin it was issued at: session.ts
 * tokenOwner), and the account's own secret (consumer secret or password). Stores
 * outside SecretStorage hash the key (it names an account) and seal the token with a key derived from
 * the secret (storage/sealing.ts): every process that may use the token has the secret, and a reader
 * of the store without it learns nothing usable.
 */
export interface TokenOwner {
  readonly key: string;
  readonly secret: string;
}

/** Tokens by account and exact sign-in origin (TokenOwner.key). */
export interface TokenStore {
  get(owner: TokenOwner): Promise<StoredToken | undefined>;
  set(owner: TokenOwner, token: StoredToken): Promise<void>;
  /**
   * Drops the token; with `ifValue`, only while the stored token is that one, so a process reporting a
   * refused token never deletes the replacement another process just stored (atomic in shared stores).
   */
  delete(owner: TokenOwner, ifValue?: string): Promise<void>;
}

/** How a sign-in attempt ended, for the lockout guard. */
export type AttemptOutcome =
  /** The service accepted the credentials: the count goes back to 0. */
  | 'accepted'
  /** The service refused the credentials, or the answer was lost and the service may have counted it. */
  | 'failed'
  /** The service did not count it: never sent, or answered with something other than a verdict on the credentials. */
  | 'uncounted';

/**
 * Consecutive failed sign-ins per account key, as the service counts them. An attempt is counted
 * before it is sent (`begin`) and settled after its answer (`end`), so an attempt cut off by a crash
 * still counts. Stores shared by several processes make each operation atomic.
 */
export interface GuardStore {
  /** The count now. */
  read(account: string): Promise<number>;
  /** Counts one attempt about to be sent; resolves with the count before it. */
  begin(account: string): Promise<number>;
  /** Settles the attempt counted by `begin`. */
  end(account: string, outcome: AttemptOutcome): Promise<void>;
  /**
   * Why the account's count is not known, naming the record (a file that could not be read, kept
   * aside); undefined when it is known. Such an account reads as one failure away from the lockout
   * until it signs in successfully. Stores whose record cannot be damaged leave it out.
   */
  doubt?(account: string): Promise<string | undefined>;
}

/**
 * Mutual exclusion per account across everyone sharing the store: while one holder signs in, the
 * others wait, then find its token (or its failure count) instead of signing in again.
 */
export interface AccountLocks {
  withLock<T>(key: string, run: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export type CredentialProvider = (id: InterfaceId) => Promise<Credentials | undefined>;

/** What the service said about the rate when a call ended. */
export interface Throttle {
  /** The service's Retry-After, when it gave one. */
  readonly retryAfterMs?: number;
}

/** One call's place under the limits; released exactly once. */
export interface Permit {
  /**
   * Ends the call; `throttle` when the service refused it for the rate (SC006, HTTP 429); `signIn`
   * when it was a sign-in, held to the same limits but no measure of them (the service may leave
   * sign-ins out of its rate). Returns how long every caller is now held, in milliseconds (0 when not held).
   */
  release(throttle?: Throttle, signIn?: boolean): number;
}

/** What a limiter found the account's limits to be, remembered for the next run. */
export interface LearnedLimits {
  readonly qps: number;
  readonly concurrency: number;
  /** True when the service refused a call just above these values; false when only proven accepted. */
  readonly exact: boolean;
  /** Epoch milliseconds of the last change. */
  readonly at: number;
}

/** Learned limits by account key (hashed by every store: it names an account). */
export interface LimitsStore {
  get(account: string): Promise<LearnedLimits | undefined>;
  set(account: string, limits: LearnedLimits): Promise<void>;
}

/** A call counted, or refused: the period is marked reached (since `reachedAt`, epoch ms). */
export type UsageTake = { readonly counted: true } | { readonly counted: false; readonly reachedAt: number };

/** What a store holds of one contract period's data calls. */
export interface UsageRecord {
  /** Data calls counted in the period: each counted before it is sent, given back only when it surely never left. */
  readonly used: number;
  /** When the service answered SC005 in this period (epoch ms): no data call is sent until the mark is lifted or the period ends. */
  readonly reachedAt?: number;
}

/**
 * The data calls of a contract, by scope (whose contract: core/accounts/session.ts contractScope, hashed
 * by every store: it names an account) and period (its first day, `YYYY-MM-DD`). Shared by every process
 * that uses the store, each change atomic, so any number of them add up as one.
 */
export interface UsageStore {
  /**
   * Counts one call about to be sent, unless the period's contract is marked reached: then nothing is
   * counted and the mark's time comes back. `keepMs`: how long the period's record must be kept at least.
   */
  take(scope: string, period: string, keepMs: number): Promise<UsageTake>;
  /** Gives back a call counted by `take` that surely never reached the service (refused before it was sent). */
  giveBack(scope: string, period: string): Promise<void>;
  read(scope: string, period: string): Promise<UsageRecord>;
  /** Marks the period's contract as reached (SC005): every process's next `take` in the period is refused. */
  markReached(scope: string, period: string, at: number, keepMs: number): Promise<void>;
  /** Lifts the mark (`bizdata usage --reset`: the operator raised the limit); the count stays. */
  clearReached(scope: string, period: string): Promise<void>;
  /** Lets go of what the store keeps open (files); a later call opens it again. */
  close?(): void;
}

/**
 * Thrown by a shared store, lock or limiter when the coordinator it lives in (Redis) cannot be
 * reached, or answers but refuses this client's password (`reason` 'auth'). Nothing was sent to the
 * service for the call that met it; the message names the coordinator (never its password).
 */
export class CoordinatorUnavailableError extends Error {
  static readonly advice = 'Nothing was sent for this call. Check that the coordinator is running and reachable, then run again: a batch continues where it stopped.';
  static readonly authAdvice = 'Nothing was sent for this call. Give the password (and user) the coordinator expects, then run again: a batch continues where it stopped.';

  /** What to do; a host may word it for its own settings. */
  readonly advice: string;

  constructor(
    message: string,
    readonly reason: 'unreachable' | 'auth' = 'unreachable',
    advice?: string,
  ) {
    super(message);
    this.name = 'CoordinatorUnavailableError';
    this.advice = advice ?? (reason === 'auth' ? CoordinatorUnavailableError.authAdvice : CoordinatorUnavailableError.advice);
  }

  /** By name, not instanceof: the coordinator is a bundle of its own, with its own copy of this class. */
  static is(err: unknown): err is CoordinatorUnavailableError {
    return err instanceof Error && err.name === 'CoordinatorUnavailableError';
  }
}

/**
 * The rate and concurrency budget of one customer account, shared by every call that spends it. On
 * a throttled release every caller is held for a while; the next acquire waits through that pause.
 */
export interface Limiter {
  /** Resolves once a call may start; rejects when `signal` aborts or the limiter is disposed. */
  acquire(signal?: AbortSignal): Promise<Permit>;
  state(): LimiterState;
  dispose(): void;
  /** Disposes it, then resolves once what it learned is stored (a process about to exit waits for this). */
  close(): Promise<void>;
}
