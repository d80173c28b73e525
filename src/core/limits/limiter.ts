// One limiter per customer account: the service counts queries per second and concurrent requests
// across all of a customer's tokens and connections, so every request of a client (and of a batch)
// goes through the same instance, and with a coordinator through one budget for every process.
// Requests over the limit would come back as SC006 and count anyway. The limiter queues callers in
// order; its Budget says whether one more may start now, its Control which limits hold (fixed
// values, or values it learns: see adaptive.ts).
import type { Observation } from './adaptive';
import { COUNT_WINDOW_MS, LocalBudget, type Budget, type Limits } from './budget';
import { DEFAULT_LIMITS } from '../constants';
import type { LimiterState } from '../model';
import { CoordinatorUnavailableError, type Limiter, type Permit, type Throttle } from '../ports';
import { SignalWaiters } from './signalWaiters';


/** How long every caller is held after the service throttled a call without saying for how long. */
export interface BackoffOptions {
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

/** Decides the limits calls are held to; told when calls wait for a limit, and how they ended. */
export interface Control {
  /** Resolves once the limits are known (an adaptive control loads what it learned before). */
  ready(): Promise<void>;
  limits(): Limits;
  /**
   * The limits calls start under now: `limits()`, or fewer in flight while a limit not yet seen at
   * work is probed (calls in flight grow with the answers read, so a refusal is read before a
   * concurrency set too high overruns the service).
   */
  startLimits?(): Limits;
  /** Calls are waiting for `by`; true when the limits changed. */
  blocked(by: 'qps' | 'concurrency'): boolean;
  /** When the limits may change while calls wait for `by` (epoch ms), so the limiter looks again then. */
  nextChangeAt(by: 'qps' | 'concurrency'): number | undefined;
  /** A data call ended: what it showed, whether the service refused it for the rate, how long it took (ms), and the calls in flight when it started (itself included). */
  ended(seen: { recent: number; level: number }, throttled: boolean, tookMs: number, startLevel: number): void;
  describe(): Pick<LimiterState, 'caps' | 'learned'>;
  dispose(): void;
  /** Resolves once what was learned is stored; never rejects. */
  saved(): Promise<void>;
}

/** Limits that never change. */
export class FixedControl implements Control {
  private readonly value: Limits;
  constructor(limits: Limits) {
    this.value = normalise(limits);
  }
  ready(): Promise<void> {
    return Promise.resolve();
  }
  limits(): Limits {
    return this.value;
  }
  blocked(): boolean {
    return false;
  }
  nextChangeAt(): undefined {
    return undefined;
  }
  ended(): void {}
  describe(): Pick<LimiterState, 'caps' | 'learned'> {
    return {};
  }
  dispose(): void {}

  saved(): Promise<void> {
    return Promise.resolve();
  }
}

export class LimiterDisposedError extends Error {
  constructor() {
    super('The client was disposed.');
    this.name = 'LimiterDisposedError';
  }
}

/** How often a shared budget is asked again while it is full of other processes' calls. */
const SHARED_POLL_MS = 5;

export class RateLimiter implements Limiter {
  private readonly waiters: SignalWaiters<Permit>;
  private active = 0;
  private pausedUntil = 0;
  /** Throttled calls since the last call that was not: the next pause grows with it. */
  private throttles = 0;
  /** When the last pause began: calls started before it were refused by the same full window, and do not lengthen it. */
  private pausedAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private pumping = false;
  private again = false;
  private disposed = false;
  /** The control's limits are known (what was learned before is loaded). */
  private isReady = false;
  private readonly backoff: Required<BackoffOptions>;
  private readonly budget: Budget;
  private readonly control: Control;

  /**
   * Fixed limits in this process: `new RateLimiter(limits, windowMs?)`. Adaptive or shared limiters
   * pass their own Control and Budget.
   */
  constructor(
    limits: Limits | Control = DEFAULT_LIMITS,
    windowMs = COUNT_WINDOW_MS,
    private readonly now: () => number = Date.now,
    backoff: BackoffOptions = {},
    budget?: Budget,
  ) {
    this.control = 'ready' in limits ? limits : new FixedControl(limits);
    this.budget = budget ?? new LocalBudget(windowMs, now);
    this.backoff = { baseDelayMs: 200, maxDelayMs: 4000, ...backoff };
    this.waiters = new SignalWaiters(abortError);
  }

  acquire(signal?: AbortSignal): Promise<Permit> {
    if (this.disposed) return Promise.reject(new LimiterDisposedError());
    if (signal?.aborted) return Promise.reject(abortError());
    // Nobody waiting and a budget that answers at once: the call starts now, without a turn through
    // the queue (the common case of an interactive lookup, and a batch below its limits).
    if (this.isReady && this.budget instanceof LocalBudget && this.waiters.size === 0 && !this.pumping && this.now() >= this.pausedUntil) {
      const r = this.budget.tryStart(this.startLimits());
      if (r.ok) return Promise.resolve(this.permit(r.id, { recent: r.recent, level: r.level }));
      if (r.by !== 'pause') this.control.blocked(r.by);
    }
    const p = this.waiters.add(signal);
    if (this.isReady) void this.pump();
    else
      void this.control.ready().then(
        () => {
          this.isReady = true;
          return this.pump();
        },
        (err: unknown) => this.failAll(err),
      );
    return p;
  }

  private startLimits(): Limits {
    return this.control.startLimits?.() ?? this.control.limits();
  }

  state(): LimiterState {
    const l = this.control.limits();
    return { qps: l.qps, concurrency: l.concurrency, active: this.active, queued: this.waiters.size, ...this.control.describe() };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.waiters.failAll(new LimiterDisposedError());
    this.control.dispose();
    this.budget.dispose();
  }

  async close(): Promise<void> {
    this.dispose();
    await this.control.saved();
  }

  /**
   * One refusal ends sending for the service's window: every caller (every process, when shared) is
   * held until that window has passed, and at least the service's Retry-After, else a growing,
   * jittered delay. Returns how long this process holds (ms).
   */
  private throttled(t: Throttle, startedAt: number): number {
    const now = this.now();
    if (startedAt >= this.pausedAt) {
      this.throttles++;
      this.pausedAt = now;
    }
    let ms = t.retryAfterMs;
    if (ms === undefined) {
      const ceiling = Math.min(this.backoff.maxDelayMs, this.backoff.baseDelayMs * 2 ** (Math.max(1, this.throttles) - 1));
      ms = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
    }
    this.pausedUntil = Math.max(this.pausedUntil, now + ms, this.budget.closeWindow(ms) ?? 0);
    return this.pausedUntil - now;
  }

  private permit(id: string, seen: { recent: number; level: number }): Permit {
    this.active++;
    const startedAt = this.now();
    let released = false;
    return {
      release: (throttle?: Throttle, signIn = false) => {
        if (released) return 0;
        released = true;
        this.active--;
        // What the call shows, counted now that its answer is read (a shared budget answers a moment later).
        const shown = this.budget.end(id, throttle !== undefined || signIn);
        const tookMs = this.now() - startedAt;
        // A sign-in spends the budget like any call, but says nothing of the limits of data calls.
        const tell = (o: Observation | undefined): void => {
          if (!signIn && !this.disposed) this.control.ended(o ?? seen, throttle !== undefined, tookMs, seen.level);
        };
        if (shown instanceof Promise) void shown.then((r) => tell(r && { ...seen, recent: r.recent, recentAtMost: Math.max(r.recent, seen.recent) }), () => tell(undefined));
        else tell(shown);
        let held = 0;
        if (throttle) held = this.throttled(throttle, startedAt);
        else this.throttles = 0;
        if (this.waiters.size > 0) void this.pump();
        return held;
      },
    };
  }

  /** Starts waiting callers, in order, while the budget allows; then sleeps until it may again. */
  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        await this.startWaiters();
      } while (this.again && !this.disposed);
    } catch (err) {
      this.failAll(err);
    } finally {
      this.pumping = false;
    }
  }

  private async startWaiters(): Promise<void> {
    while (this.waiters.size > 0 && !this.disposed) {
      const now = this.now();
      if (now < this.pausedUntil) return this.wakeAt(this.pausedUntil);
      const r = await this.budget.tryStart(this.startLimits());
      if (!r.ok) {
        if (r.by !== 'pause' && this.control.blocked(r.by)) continue;
        // A limit that may grow before the budget frees a slot: look again then.
        const growth = r.by === 'pause' ? undefined : this.control.nextChangeAt(r.by);
        const free = r.waitMs >= 0 ? this.now() + r.waitMs : this.budget.shared ? this.now() + SHARED_POLL_MS : undefined;
        const at = Math.min(growth ?? Infinity, free ?? Infinity);
        if (Number.isFinite(at)) this.wakeAt(Math.max(at, this.now() + 1));
        return; // otherwise a release here pumps again
      }
      const seen = { recent: r.recent, level: r.level };
      // The caller may have given up while the budget answered: the slot goes back unused.
      if (!this.waiters.grantNext(() => this.permit(r.id, seen))) {
        void this.budget.end(r.id, true);
      }
    }
  }

  private wakeAt(at: number): void {
    if (this.disposed || this.waiters.size === 0) return;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.pump();
    }, Math.max(1, at - this.now()));
  }

  /** A shared budget that cannot be reached: every waiting call fails with the coordinator's message. */
  private failAll(err: unknown): void {
    const e = CoordinatorUnavailableError.is(err) ? err : new CoordinatorUnavailableError(err instanceof Error ? err.message : String(err));
    this.waiters.failAll(e);
  }
}

function normalise(l: Limits): Limits {
  const qps = l.qps > 0 ? l.qps : Infinity;
  const concurrency = Math.max(1, Math.floor(l.concurrency));
  return { qps, concurrency };
}

export function abortError(): Error {
  const e = new Error('The call was cancelled.');
  e.name = 'AbortError';
  return e;
}
