// The adaptive limiter: a RateLimiter whose limits follow the rules of adaptive.ts, capped by the
// user's --qps / --concurrency, started from what the account's limiter learned before, and kept in
// step with every other process of the account when the state is shared (the coordinator).
import { capped, estimate, nextGrowth, onAccepted, onBlocked, onThrottled, SLOW_ANSWER_MS, START, startState, toLearned, type AdaptiveState, type Caps, type LimitName } from './adaptive';
import { onProbeAnswer, probeNeed, startProbe, type InFlightProbe } from './inFlightProbe';
import type { Budget } from './budget';
import type { Limits } from './budget';
import { RateLimiter, type BackoffOptions, type Control } from './limiter';
import type { LimiterState } from '../model';
import type { LearnedLimits, LimitsStore } from '../ports';

/** The adaptive state where every process of an account reads and changes it (the coordinator). */
export interface SharedState {
  load(): Promise<AdaptiveState | undefined>;
  /** Stores `next` unless the state changed since `base`; resolves with the state now. */
  swap(base: AdaptiveState | undefined, next: AdaptiveState): Promise<AdaptiveState>;
}

export interface AdaptiveOptions {
  /** Never exceeded; Infinity for `auto`. */
  readonly caps: Caps;
  /** The account whose limits these are (the key names it: stores hash it); undefined: nothing is remembered. */
  readonly account: () => Promise<string | undefined>;
  /** Where learned limits are remembered between runs. */
  readonly memory?: LimitsStore;
  /** The state every process of the account shares, and the budget they spend together. */
  readonly shared?: { readonly state: (account: string) => SharedState; readonly budget: Budget };
  readonly backoff?: BackoffOptions;
  readonly now?: () => number;
  /** Told when what was learned could not be read or saved (never fatal). */
  readonly log?: (line: string) => void;
}

const SYNC_MS = 250;
/** How much one accepted call moves the smoothed round trip. */
const LATENCY_WEIGHT = 0.1;
/** What a round trip may exceed twice the fastest by and still not be queueing (ms). */
const QUEUE_SLACK_MS = 2;

class AdaptiveControl implements Control {
  private state: AdaptiveState;
  private loading: Promise<void> | undefined;
  private account: string | undefined;
  private cell: SharedState | undefined;
  /** The state as last read from or written to the shared cell: the base of the next compare-and-set. */
  private sharedBase: AdaptiveState | undefined;
  private remembered: LearnedLimits | undefined;
  private saving: Promise<void> = Promise.resolve();
  private sync: NodeJS.Timeout | undefined;
  /** The round trip of accepted calls here (ms), smoothed, and the fastest one. */
  private latencyMs: number | undefined;
  private fastestMs = Infinity;
  /** Calls in flight allowed before the first refusal (startLimits). */
  private probe: InFlightProbe;
  private readonly now: () => number;

  constructor(private readonly o: AdaptiveOptions) {
    this.now = o.now ?? Date.now;
    this.state = startState(o.caps, undefined, this.now());
    this.probe = startProbe(this.now());
  }

  ready(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  limits(): Limits {
    return capped(this.state, this.o.caps);
  }

  /**
   * Until the first refusal (and when nothing was learned exactly), calls in flight grow as
   * inFlightProbe.ts says: with a given concurrency, with slow answers, and before any answer.
   * Without a cap and with fast answers the concurrency follows the rate's ramp (adaptive.ts).
   */
  startLimits(): Limits {
    const l = this.limits();
    return this.probing() ? { qps: l.qps, concurrency: Math.min(l.concurrency, this.probe.allowed) } : l;
  }

  private probing(): boolean {
    if (this.state.exact) return false;
    const rt = this.roundTrip();
    return rt === undefined || rt >= SLOW_ANSWER_MS || Number.isFinite(this.o.caps.concurrency);
  }

  /** What the probe may grow to: a given rate not yet seen at work counts as what the service accepted. */
  private probeNeed(rt: number): number {
    const rate = Number.isFinite(this.o.caps.qps) ? Math.min(this.limits().qps, this.state.okQps) : this.limits().qps;
    return probeNeed(rate, rt, rt >= SLOW_ANSWER_MS);
  }

  blocked(by: LimitName): boolean {
    return this.apply(onBlocked(this.state, by, this.now(), this.o.caps, this.roundTrip()));
  }

  nextChangeAt(by: LimitName): number | undefined {
    return nextGrowth(this.state, by, this.o.caps);
  }

  ended(seen: { recent: number; level: number }, throttled: boolean, tookMs: number, startLevel: number): void {
    const now = this.now();
    if (throttled) {
      // The first refusal ends the probe: what it allowed in flight is where the concurrency stands.
      // A step above START was shown one below by an accepted answer: refused there, the concurrency is found.
      const allowed = this.probing() ? this.probe.allowed : undefined;
      const base = allowed !== undefined ? { ...this.state, concurrency: Math.min(this.state.concurrency, allowed) } : this.state;
      const shown = allowed !== undefined && allowed > START.concurrency ? allowed - 1 : 0;
      this.apply(onThrottled(base, seen, now, this.roundTrip(), shown));
      return;
    }
    this.latencyMs = this.latencyMs === undefined ? tookMs : this.latencyMs + (tookMs - this.latencyMs) * LATENCY_WEIGHT;
    this.fastestMs = Math.min(this.fastestMs, tookMs);
    this.apply(onAccepted(this.state, seen));
    const rt = this.roundTrip();
    if (this.probing() && rt !== undefined) this.probe = onProbeAnswer(this.probe, { startedAt: now - tookMs, level: startLevel }, now, this.probeNeed(rt));
  }

  /**
   * The round trip Little's law multiplies the rate by: the smoothed one, but no more than twice the
   * fastest and a little. Beyond that the time is spent queueing (here, when this process is busy, or
   * at the service), and more calls in flight would only queue longer: a round trip that grows with
   * the concurrency would grow it without end.
   */
  private roundTrip(): number | undefined {
    return this.latencyMs === undefined ? undefined : Math.min(this.latencyMs, 2 * this.fastestMs + QUEUE_SLACK_MS);
  }

  describe(): Pick<LimiterState, 'caps' | 'learned'> {
    return { caps: { ...this.o.caps }, learned: estimate(this.state) };
  }

  dispose(): void {
    if (this.sync) clearInterval(this.sync);
    this.sync = undefined;
  }

  saved(): Promise<void> {
    return this.saving;
  }

  private async load(): Promise<void> {
    try {
      this.account = await this.o.account();
      if (this.account === undefined) return;
      this.remembered = await this.o.memory?.get(this.account);
      this.cell = this.o.shared?.state(this.account);
      const start = startState(this.o.caps, this.remembered, this.now());
      this.state = start;
      const cell = this.cell;
      if (!cell) return;
      // The first process of the account sets the state; the others take it over.
      this.adopt((await cell.load()) ?? (await cell.swap(undefined, start)));
      // Another process's refusal or probe changes the limits of all: read them a few times a second.
      this.sync = setInterval(() => {
        cell.load().then((s) => s && this.adopt(s), () => undefined);
      }, SYNC_MS);
      this.sync.unref();
    } catch (err) {
      this.o.log?.(`limits: could not read what was learned before (${err instanceof Error ? err.message : String(err)}); starting from safe values`);
    }
  }

  /** Acts on a change at once; shares it (first writer wins) and remembers it for the next run. */
  private apply(next: AdaptiveState | undefined): boolean {
    if (!next) return false;
    const base = this.state;
    const changedLimits = next.qps !== base.qps || next.concurrency !== base.concurrency;
    this.state = next;
    // First writer wins: a change that lost to another process's gives way to it.
    this.cell?.swap(this.sharedBase, next).then(
      (s) => this.adopt(s),
      () => undefined,
    );
    if (changedLimits) this.o.log?.(`limits: ${fmt(base)} -> ${fmt(next)}${next.exact && !base.exact ? ' (first refusal: settling)' : ''}`);
    const e = estimate(next);
    const was = estimate(base);
    if (e.qps !== was.qps || e.concurrency !== was.concurrency || e.exact !== was.exact) this.remember(next);
    return changedLimits;
  }

  private adopt(s: AdaptiveState): void {
    this.sharedBase = s;
    this.state = s;
  }

  private remember(s: AdaptiveState): void {
    const account = this.account;
    const memory = this.o.memory;
    // Only what a refusal confirmed is worth remembering: a ramp's values are guesses.
    if (account === undefined || !memory || !s.exact) return;
    const learned = toLearned(s, this.o.caps, this.remembered, this.now());
    if (!learned) return;
    this.remembered = learned;
    this.saving = this.saving
      .then(() => memory.set(account, learned))
      .catch((err: unknown) => this.o.log?.(`limits: could not remember the learned limits (${err instanceof Error ? err.message : String(err)})`));
  }
}

/** A limiter that finds the account's limits by itself, never above `caps`. */
export function adaptiveLimiter(o: AdaptiveOptions): RateLimiter {
  // After a refusal the limits already keep calls under the service's: a short hold is enough.
  return new RateLimiter(new AdaptiveControl(o), undefined, o.now, o.backoff ?? { baseDelayMs: 20 }, o.shared?.budget);
}

function fmt(s: AdaptiveState): string {
  return `${Math.round(s.qps * 10) / 10}/s, ${s.concurrency} at once`;
}
