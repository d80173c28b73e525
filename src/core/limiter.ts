// One limiter per customer account: the service counts queries per second and concurrent requests
// across all of a customer's tokens and connections, so every request of a client (and of a batch)
// goes through the same instance. Requests over the limit would come back as SC006 and count anyway.
import { DEFAULT_LIMITS } from './constants';
import type { LimiterState } from './model';
import type { Limiter, Permit, Throttle } from './ports';

export interface Limits {
  /** Requests started in any sliding window; 0 or Infinity means no rate limit. */
  readonly qps: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
}

/** How long every caller is held after the service throttled a call without saying for how long. */
export interface BackoffOptions {
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

interface Waiter {
  readonly grant: (permit: Permit) => void;
  readonly fail: (err: Error) => void;
  readonly signal?: AbortSignal;
  readonly onAbort?: () => void;
}

export class LimiterDisposedError extends Error {
  constructor() {
    super('The client was disposed.');
    this.name = 'LimiterDisposedError';
  }
}

export class RateLimiter implements Limiter {
  private readonly limits: Limits;
  private active = 0;
  private readonly queue: Waiter[] = [];
  /** Start times inside the current window, oldest first. */
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  /** Throttled calls since the last call that was not: the next pause grows with it. */
  private throttles = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private disposed = false;
  private readonly backoff: Required<BackoffOptions>;

  /**
   * `windowMs` is a little over a second by default: a request's arrival at the service lags its
   * start here by a varying network delay, and two starts exactly 1000 ms apart could land inside
   * one server-side second.
   */
  constructor(
    limits: Limits = DEFAULT_LIMITS,
    private readonly windowMs = 1020,
    private readonly now: () => number = Date.now,
    backoff: BackoffOptions = {},
  ) {
    this.limits = normalise(limits);
    this.backoff = { baseDelayMs: 200, maxDelayMs: 4000, ...backoff };
  }

  acquire(signal?: AbortSignal): Promise<Permit> {
    if (this.disposed) return Promise.reject(new LimiterDisposedError());
    if (signal?.aborted) return Promise.reject(abortError());
    // Fast path: nobody waiting and room now.
    if (this.queue.length === 0 && this.canStart(this.now())) return Promise.resolve(this.start());
    return new Promise((resolve, reject) => {
      const onAbort = signal
        ? () => {
            const i = this.queue.indexOf(waiter);
            if (i >= 0) this.queue.splice(i, 1);
            reject(abortError());
          }
        : undefined;
      const waiter: Waiter = { grant: resolve, fail: reject, signal, onAbort };
      if (signal && onAbort) signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  state(): LimiterState {
    return {
      qps: this.limits.qps,
      concurrency: this.limits.concurrency,
      active: this.active,
      queued: this.queue.length,
    };
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.queue.splice(0)) {
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.fail(new LimiterDisposedError());
    }
  }

  /** Holds every new start for `ms` (the service blocks a customer for a while after SC006); returns the hold left. */
  private pause(ms: number): number {
    const now = this.now();
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
    return this.pausedUntil - now;
  }

  /** The service's Retry-After, else a growing, jittered delay. */
  private throttled(t: Throttle): number {
    this.throttles++;
    if (t.retryAfterMs !== undefined) return this.pause(t.retryAfterMs);
    const ceiling = Math.min(this.backoff.maxDelayMs, this.backoff.baseDelayMs * 2 ** (this.throttles - 1));
    return this.pause(Math.round(ceiling / 2 + Math.random() * (ceiling / 2)));
  }

  private canStart(now: number): boolean {
    if (this.active >= this.limits.concurrency || now < this.pausedUntil) return false;
    if (!Number.isFinite(this.limits.qps)) return true;
    while (this.starts.length > 0 && this.starts[0] <= now - this.windowMs) this.starts.shift();
    return this.starts.length < this.limits.qps;
  }

  private start(): Permit {
    this.active++;
    if (Number.isFinite(this.limits.qps)) this.starts.push(this.now());
    let released = false;
    return {
      release: (throttle?: Throttle) => {
        if (released) return 0;
        released = true;
        this.active--;
        let held = 0;
        if (throttle) held = this.throttled(throttle);
        else this.throttles = 0;
        this.pump();
        return held;
      },
    };
  }

  private pump(): void {
    if (this.disposed) return;
    const now = this.now();
    while (this.queue.length > 0 && this.canStart(now)) {
      const w = this.queue.shift() as Waiter;
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.grant(this.start());
    }
    if (this.queue.length === 0 || this.active >= this.limits.concurrency) return;
    // Blocked by time (rate window or pause), not by slots: wake up when the earliest becomes free.
    const wakeAt = Math.max(this.pausedUntil, this.starts.length >= this.limits.qps ? this.starts[0] + this.windowMs : now);
    if (this.timer && this.timerAt <= wakeAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = wakeAt;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, Math.max(1, wakeAt - now));
  }
}

function normalise(l: Limits): Limits {
  const qps = l.qps > 0 ? l.qps : Infinity;
  const concurrency = Math.max(1, Math.floor(l.concurrency));
  return { qps, concurrency };
}

function abortError(): Error {
  const e = new Error('The call was cancelled.');
  e.name = 'AbortError';
  return e;
}
