// Where a limiter's window and concurrency count live: this process (LocalBudget), or the
// coordinator (the Redis budget), where every process of the account spends one budget.
import type { Observation } from './adaptive';

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
  /**
   * The call ended; `uncounted`: the service refused it for the rate, or it was a sign-in, so it does
   * not count as a call the service accepted. Returns what the call shows of the service's limits,
   * counted now that its answer is read, or undefined where only the count at its start is known.
   */
  end(id: string, uncounted: boolean): Observation | undefined;
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
  /** Start order. */
  readonly n: number;
  readonly id: string;
  /** Calls in flight here when it started, itself included. */
  readonly level: number;
  /** Those other calls: its answer is weighed against theirs (emptied once it is read, so no chain of calls stays in memory). */
  alongside: readonly Start[];
  /** How many answers had been read when it started. */
  readonly endsBefore: number;
  /** The calls accepted in the service's window when it started, or perhaps so (some still in flight). */
  readonly recentAtStart: number;
  /** The number of its own answer among all answers read, and when it was read; undefined while in flight. */
  endNo?: number;
  endedAt?: number;
  refused?: boolean;
}

/** The budget of one process: start times of the last window and the calls in flight. */
export class LocalBudget implements Budget {
  readonly shared = false;
  /** In start order. */
  private readonly starts: Start[] = [];
  /** The throttled ones among them (few): `recent` leaves them out without walking the window. */
  private readonly throttled = new Set<Start>();
  /** In start order, whether or not still in the window. */
  private readonly inFlight = new Map<string, Start>();
  private ends = 0;
  /** The fastest round trip of a call the service accepted so far (ms). */
  private fastest = Infinity;
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
    if (this.inFlight.size >= limits.concurrency) return { ok: false, by: 'concurrency', waitMs: -1 };
    while (this.starts.length > 0 && this.starts[0].at <= now - this.windowMs) {
      this.throttled.delete(this.starts.shift() as Start);
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
    const n = ++this.seq;
    const start: Start = { at: now, n, id: String(n), level: this.inFlight.size + 1, alongside: [...this.inFlight.values()], endsBefore: this.ends, recentAtStart: recent };
    this.starts.push(start);
    this.inFlight.set(start.id, start);
    return { ok: true, id: start.id, recent, level: start.level };
  }

  /**
   * What the call shows, counted when its answer is read rather than when it started: an answer may
   * reach this process, or be read by it, long after the service sent it (a slow network, a busy
   * process), and a call still in flight may yet be refused.
   * - Accepted before it, surely: the calls whose answers were read before it started and were not
   *   refused, sent within the service's window before its own answer was read (it had reached the
   *   service by then).
   * - In flight with it, and accepted before it too: those in flight when it started and not refused
   *   whose answers came back as they were sent (no slower than its own), and later after its start
   *   than all the time it took beyond the fastest accepted round trip: that extra time, spent on the
   *   way or waiting here, is how long an answer already on its way back when it reached the service
   *   could have taken to be read.
   */
  end(id: string, throttled: boolean): Observation | undefined {
    const call = this.inFlight.get(id);
    if (!call) return undefined;
    this.inFlight.delete(id);
    const now = this.now();
    call.endNo = ++this.ends;
    call.endedAt = now;
    call.refused = throttled;
    // Out of the window (or about to leave it): never counted again, nor kept in the set.
    if (throttled && call.at > now - this.windowMs) this.throttled.add(call);
    const took = now - call.at;
    // A refusal comes back sooner than any call the service serves: only those served set the pace.
    if (!throttled) this.fastest = Math.min(this.fastest, took);
    const after = call.at + (took - this.fastest);
    const withIt = call.alongside.filter((x) => x.endedAt !== undefined && !x.refused && x.endedAt > after && x.endedAt - x.at <= took);
    const edge = now - SERVICE_WINDOW_MS;
    let recent = 0;
    if (edge < call.at) {
      // Started before it within the window: answered before it started (throttled ones left out) or in flight then.
      recent = indexOf(this.starts, call.n) - firstAfter(this.starts, edge);
      for (const t of this.throttled) if (t.at > edge && (t.endNo as number) <= call.endsBefore) recent--;
      for (const x of call.alongside) if (x.at > edge) recent--;
      for (const x of withIt) if (x.at > edge) recent++;
    }
    call.alongside = [];
    return { recent: Math.max(0, recent), level: throttled ? call.level : 1 + withIt.length, recentAtMost: Math.max(recent, call.recentAtStart) };
  }

  hold(ms: number): void {
    this.heldUntil = Math.max(this.heldUntil, this.now() + ms);
  }

  dispose(): void {
    this.starts.length = 0;
    this.throttled.clear();
    this.inFlight.clear();
  }
}

/** The index of the start numbered `n` (starts are in start order). */
function indexOf(starts: readonly Start[], n: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid].n < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
