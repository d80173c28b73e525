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

/** The service's own window: the calls it accepted in the last second decide the next refusal. */
export const SERVICE_PERIOD_MS = 1000;

/**
 * The service's window less the drift between when a call starts here and when it arrives there:
 * calls counted together in it surely were together at the service, so what the limiter learns is
 * never above the real limit.
 */
export const SERVICE_WINDOW_MS = 980;

/**
 * The calls a call's answer shows were accepted with it: those accepted and read by then that started
 * less than this before. Each reached the service between its start and the reading of its answer,
 * so they were all there within one of its windows (less a millisecond or two of clock granularity).
 */
export const SURE_WINDOW_MS = 998;

/**
 * The window a limiter counts its starts in: the service's, plus the margin for a call that reaches
 * the service a little sooner than the one a second before it. The margin lives here, in the count
 * of starts, and nowhere else: calls are paced at the limit itself, so a limit runs at
 * 1000/1008 = 0.992 of itself (1,005 ms met more refusals at 2,000 QPS, where a busy machine
 * delays calls more).
 */
export const COUNT_WINDOW_MS = 1008;

/**
 * The same for a budget several processes share (the coordinator): calls started by different
 * processes, perhaps machines, reach the service with more spread (1000/1010 = 0.990).
 */
export const SHARED_COUNT_WINDOW_MS = 1010;

/** What a shared budget learns of a call when its answer is read: the calls surely accepted with it (the rest is known from its start). */
export interface SureCount {
  readonly recent: number;
}

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
   * counted now that its answer is read (a shared budget: the calls surely accepted with it, a moment
   * later), or undefined where only the count at its start is known.
   */
  end(id: string, uncounted: boolean): Observation | undefined | Promise<SureCount | undefined>;
  /**
   * The service refused a call for its limits (SC006, 429): no call of the account starts until the
   * service's window that refused it has passed, that is until the first call it may still count
   * there has surely left it (a window after its answer was read), and not before `minMs`. Returns
   * when that is (epoch ms of `now`) where this process can tell, else undefined.
   */
  closeWindow(minMs: number): number | undefined;
  /** Calls of other processes can end without this one hearing of it: poll for a free slot. */
  readonly shared: boolean;
  dispose(): void;
}

/**
 * Spreads the calls of a window instead of sending them in one burst at its start: a token bucket
 * refilled at the rate, holding about a tenth of a second's calls. Bursts are what make a service's
 * concurrency and its window refuse calls when answers or its own clock run late. It starts with one
 * call, not a full bucket: the first calls are a probe of a limit not yet seen at work (a cap set too
 * high), spread so that a refusal is read before the service's concurrency is overrun.
 */
export class Pacer {
  private tokens = -1;
  private at = 0;

  /** 0 when a call may start now (and counts it), else how long to wait. Paced at the limit itself, per service second. */
  take(qps: number, now: number): number {
    if (!Number.isFinite(qps)) return 0;
    const rate = qps / SERVICE_PERIOD_MS;
    const capacity = Math.max(1, qps / 10);
    this.tokens = this.tokens < 0 ? 1 : Math.min(capacity, this.tokens + (now - this.at) * rate);
    this.at = now;
    if (this.tokens < 1) return Math.max(1, Math.ceil((1 - this.tokens) / rate));
    this.tokens -= 1;
    return 0;
  }
}

interface Start {
  readonly at: number;
  readonly id: string;
  /** Calls in flight here when it started, itself included. */
  readonly level: number;
  /** Those other calls: its answer is weighed against theirs (emptied once it is read, so no chain of calls stays in memory). */
  alongside: readonly Start[];
  /** The calls accepted in the service's window when it started, or perhaps so (some still in flight). */
  readonly recentAtStart: number;
  endedAt?: number;
  refused?: boolean;
}

/** How much later than twice the fastest round trip an answer may be read and still show the calls in flight with it. */
const READ_LATE_MS = 2;

/** The budget of one process: start times of the last window and the calls in flight. */
export class LocalBudget implements Budget {
  readonly shared = false;
  /** In start order. */
  private readonly starts: Start[] = [];
  /** The throttled ones among them (few): `recentAtStart` leaves them out without walking the window. */
  private readonly throttled = new Set<Start>();
  /** In start order, whether or not still in the window. */
  private readonly inFlight = new Map<string, Start>();
  /** The index in `starts` of the first start within SURE_WINDOW_MS of the last look. */
  private edge = 0;
  /** Starts from `edge` on whose answers were read and accepted. */
  private acceptedInEdge = 0;
  /** The fastest round trip of a call the service accepted so far (ms). */
  private fastest = Infinity;
  private heldUntil = 0;
  private seq = 0;
  private readonly pacer = new Pacer();

  constructor(
    /** Starts counted per sliding window: the service's second and a margin (COUNT_WINDOW_MS). */
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  tryStart(limits: Limits): StartResult {
    const now = this.now();
    if (now < this.heldUntil) return { ok: false, by: 'pause', waitMs: this.heldUntil - now };
    this.slide(now);
    // The rate first: calls that wait for a slot while the rate has room wait for concurrency.
    if (Number.isFinite(limits.qps) && this.starts.length >= limits.qps) {
      // The oldest start that must leave the window before one more fits.
      const blocker = this.starts[this.starts.length - Math.ceil(limits.qps)] ?? this.starts[0];
      return { ok: false, by: 'qps', waitMs: Math.max(1, blocker.at + this.windowMs - now) };
    }
    if (this.inFlight.size >= limits.concurrency) return { ok: false, by: 'concurrency', waitMs: -1 };
    const paced = this.pacer.take(limits.qps, now);
    if (paced > 0) return { ok: false, by: 'qps', waitMs: paced };
    // Accepted (or perhaps accepted) starts within the service's window.
    let recent = this.starts.length - firstAfter(this.starts, now - SERVICE_WINDOW_MS);
    for (const t of this.throttled) if (t.at > now - SERVICE_WINDOW_MS) recent--;
    const n = ++this.seq;
    const start: Start = { at: now, id: String(n), level: this.inFlight.size + 1, alongside: [...this.inFlight.values()], recentAtStart: recent };
    this.starts.push(start);
    this.inFlight.set(start.id, start);
    return { ok: true, id: start.id, recent, level: start.level };
  }

  /**
   * What the call shows, counted when its answer is read rather than when it started: an answer may
   * reach this process, or be read by it, long after the service sent it (a slow network, a busy
   * process), and a call still in flight may yet be refused.
   * - Accepted with it in one service window, surely: the calls whose answers were read by now and
   *   accepted, started within the service's window (less the drift) before now. Each reached the
   *   service between its start and the reading of its answer, so all of them were at the service
   *   within one second: the service takes at least that many and one more (the call itself, when
   *   accepted). What is learned from it is never above the real limit.
   * - In flight with it: those in flight when it started and not refused whose answers came back as
   *   they were sent (no slower than its own), and later after its start than all the time it took
   *   beyond the fastest accepted round trip: that extra time, spent on the way or waiting here, is
   *   how long an answer already on its way back when it reached the service could have taken to be
   *   read.
   */
  end(id: string, throttled: boolean): Observation | undefined {
    const call = this.inFlight.get(id);
    if (!call) return undefined;
    this.inFlight.delete(id);
    const now = this.now();
    this.slide(now);
    const recent = this.acceptedInEdge;
    call.endedAt = now;
    call.refused = throttled;
    const inEdge = call.at > now - SURE_WINDOW_MS;
    if (throttled && call.at > now - this.windowMs) this.throttled.add(call);
    else if (!throttled && inEdge) this.acceptedInEdge++;
    const took = now - call.at;
    // A refusal comes back sooner than any call the service serves: only those served set the pace.
    if (!throttled) this.fastest = Math.min(this.fastest, took);
    const after = call.at + (took - this.fastest);
    let withIt = 0;
    // An answer read much later than the fastest one (this process was busy, answers waited unread)
    // shows nothing of the calls at the service with it: they may all have been done there long before.
    const clean = 2 * this.fastest + READ_LATE_MS;
    if (took <= clean) {
      for (const x of call.alongside) if (x.endedAt !== undefined && !x.refused && x.endedAt > after && x.endedAt - x.at <= took) withIt++;
    }
    call.alongside = [];
    return { recent, level: throttled ? call.level : 1 + withIt, recentAtMost: Math.max(recent, call.recentAtStart) };
  }

  closeWindow(minMs: number): number {
    const now = this.now();
    this.slide(now);
    // Each call reached the service by the time its answer was read (a call in flight: by now), so it
    // leaves the service's window at the latest a window after that. The first accepted call to leave
    // frees the window; with none of this process's there, the window was full of calls it never saw.
    let leaves = Infinity;
    for (const x of this.starts) {
      if (x.at >= leaves) break;
      const by = x.endedAt ?? now;
      if (x.refused || by <= now - SERVICE_PERIOD_MS) continue;
      leaves = Math.min(leaves, by);
    }
    if (!Number.isFinite(leaves)) leaves = now;
    this.heldUntil = Math.max(this.heldUntil, now + minMs, leaves + SERVICE_PERIOD_MS);
    return this.heldUntil;
  }

  dispose(): void {
    this.starts.length = 0;
    this.throttled.clear();
    this.inFlight.clear();
    this.edge = 0;
    this.acceptedInEdge = 0;
  }

  /** Moves both windows to `now`: starts leave the service's window, then the counted one. */
  private slide(now: number): void {
    const edge = now - SURE_WINDOW_MS;
    while (this.edge < this.starts.length && this.starts[this.edge].at <= edge) {
      const s = this.starts[this.edge++];
      if (s.endedAt !== undefined && !s.refused) this.acceptedInEdge--;
    }
    while (this.starts.length > 0 && this.starts[0].at <= now - this.windowMs) {
      const s = this.starts.shift() as Start;
      this.throttled.delete(s);
      // A counted window shorter than the service's (a test's) drops starts still within it.
      if (this.edge > 0) this.edge--;
      else if (s.endedAt !== undefined && !s.refused) this.acceptedInEdge--;
    }
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
