// Where a limiter's window and concurrency count live: this process (LocalBudget), or the
// coordinator (the Redis budget), where every process of the account spends one budget.

/** What a budget allows: a rate and a count in flight. */
export interface Limits {
  /** Requests started in any sliding window; 0 or Infinity means no rate limit. */
  readonly qps: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
}

/**
 * The service's own window (a second: the calls it accepted in it decide the next refusal), less the
 * drift between when a call starts here and when it arrives there: calls counted together in it
 * surely were together at the service, so what the limiter learns is never above the real limit.
 */
export const SERVICE_WINDOW_MS = 980;

export type StartResult =
  | { readonly ok: true; readonly id: string; readonly recent: number; readonly level: number }
  /** `waitMs` < 0: wait until a call ends. */
  | { readonly ok: false; readonly by: 'pause' | 'qps' | 'concurrency'; readonly waitMs: number };

export interface Budget {
  /** Starts one call if `limits` (and any hold) allow it now. */
  tryStart(limits: Limits): StartResult | Promise<StartResult>;
  /** The call ended; `throttled`: the service refused it for the rate, so it does not count as accepted. */
  end(id: string, throttled: boolean): void;
  /** Holds every start of the account for `ms`. */
  hold(ms: number): void;
  /** Calls of other processes can end without this one hearing of it: poll for a free slot. */
  readonly shared: boolean;
  dispose(): void;
}

/**
 * Spreads the calls of a window instead of sending them in one burst at its start: a token bucket
 * refilled at the rate, holding about a tenth of a second's calls. Bursts are what make a service's
 * concurrency and its window refuse calls when answers or its own clock run late.
 */
export class Pacer {
  private tokens = -1;
  private at = 0;

  /** 0 when a call may start now (and counts it), else how long to wait. */
  take(qps: number, windowMs: number, now: number): number {
    if (!Number.isFinite(qps)) return 0;
    const rate = qps / windowMs;
    const capacity = Math.max(1, qps / 10);
    this.tokens = this.tokens < 0 ? capacity : Math.min(capacity, this.tokens + (now - this.at) * rate);
    this.at = now;
    if (this.tokens < 1) return Math.max(1, Math.ceil((1 - this.tokens) / rate));
    this.tokens -= 1;
    return 0;
  }
}

interface Start {
  readonly at: number;
  readonly id: string;
}

/** The budget of one process: start times of the last window and the calls in flight. */
export class LocalBudget implements Budget {
  readonly shared = false;
  /** In start order. */
  private readonly starts: Start[] = [];
  /** The throttled ones among them (few): `recent` leaves them out without walking the window. */
  private readonly throttled = new Set<Start>();
  private readonly byId = new Map<string, Start>();
  private active = 0;
  private heldUntil = 0;
  private seq = 0;
  private readonly pacer = new Pacer();

  constructor(
    /** Starts counted per sliding window: a little over a second, as a request reaches the service a varying delay after it starts. */
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  tryStart(limits: Limits): StartResult {
    const now = this.now();
    if (now < this.heldUntil) return { ok: false, by: 'pause', waitMs: this.heldUntil - now };
    if (this.active >= limits.concurrency) return { ok: false, by: 'concurrency', waitMs: -1 };
    while (this.starts.length > 0 && this.starts[0].at <= now - this.windowMs) {
      const gone = this.starts.shift() as Start;
      this.byId.delete(gone.id);
      this.throttled.delete(gone);
    }
    if (Number.isFinite(limits.qps) && this.starts.length >= limits.qps) {
      // The oldest start that must leave the window before one more fits.
      const blocker = this.starts[this.starts.length - Math.ceil(limits.qps)] ?? this.starts[0];
      return { ok: false, by: 'qps', waitMs: Math.max(1, blocker.at + this.windowMs - now) };
    }
    const paced = this.pacer.take(limits.qps, this.windowMs, now);
    if (paced > 0) return { ok: false, by: 'qps', waitMs: paced };
    // Accepted starts within the service's window: found by halving, not by walking a second of calls.
    const since = now - SERVICE_WINDOW_MS;
    let recent = this.starts.length - firstAfter(this.starts, since);
    for (const t of this.throttled) if (t.at > since) recent--;
    const start: Start = { at: now, id: String(++this.seq) };
    this.starts.push(start);
    this.byId.set(start.id, start);
    this.active++;
    return { ok: true, id: start.id, recent, level: this.active };
  }

  end(id: string, throttled: boolean): void {
    this.active = Math.max(0, this.active - 1);
    const start = this.byId.get(id);
    if (start && throttled) this.throttled.add(start);
  }

  hold(ms: number): void {
    this.heldUntil = Math.max(this.heldUntil, this.now() + ms);
  }

  dispose(): void {
    this.starts.length = 0;
    this.throttled.clear();
    this.byId.clear();
  }
}

/** The index of the first start later than `t` (starts are in time order). */
function firstAfter(starts: readonly Start[], t: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid].at > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
