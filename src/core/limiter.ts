// One limiter per customer: the service counts queries per second and concurrent requests across
// all of a customer's tokens and connections, so every request of a client (and of a batch) goes
// through the same instance. Requests over the limit would come back as SC006 and count anyway.
import type { LimiterState } from './model';

export interface Limits {
  /** Requests started in any sliding window; 0 or Infinity means no rate limit. */
  readonly qps: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
}

export const DEFAULT_LIMITS: Limits = { qps: 10, concurrency: 4 };

interface Waiter {
  readonly grant: (release: () => void) => void;
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

export class RateLimiter {
  private limits: Limits;
  private active = 0;
  private readonly queue: Waiter[] = [];
  /** Start times inside the current window, oldest first. */
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private disposed = false;

  /**
   * `windowMs` is a little over a second by default: a request's arrival at the service lags its
   * start here by a varying network delay, and two starts exactly 1000 ms apart could land inside
   * one server-side second.
   */
  constructor(
    limits: Limits = DEFAULT_LIMITS,
    private readonly windowMs = 1020,
    private readonly now: () => number = Date.now,
  ) {
    this.limits = normalise(limits);
  }

  setLimits(limits: Limits): void {
    this.limits = normalise(limits);
    this.pump();
  }

  /** Resolves with a release function once a slot is free; rejects when cancelled or disposed. */
  acquire(signal?: AbortSignal): Promise<() => void> {
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

  /** Holds every new start for `ms`: the service blocks a customer for a while after SC006. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    this.pump();
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

  private canStart(now: number): boolean {
    if (this.active >= this.limits.concurrency || now < this.pausedUntil) return false;
    if (!Number.isFinite(this.limits.qps)) return true;
    while (this.starts.length > 0 && this.starts[0] <= now - this.windowMs) this.starts.shift();
    return this.starts.length < this.limits.qps;
  }

  private start(): () => void {
    this.active++;
    if (Number.isFinite(this.limits.qps)) this.starts.push(this.now());
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.pump();
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
    const wakeAt = Math.max(
      this.pausedUntil,
      this.starts.length >= this.limits.qps ? this.starts[0] + this.windowMs : now,
    );
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
