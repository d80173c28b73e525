// How an adaptive limiter finds an account's real limits (the spec does not publish them, section 8):
// a pure reducer over a small serialisable state, so one process or many (through the coordinator)
// apply the same rules. Start where the knowledge is (what was learned, else the user's caps, else
// low values that grow fast while they bind, like TCP's slow start); on SC006 or 429 drop at once to
// what the service surely accepted; give calls the concurrency their rate needs (Little's law); and
// probe above what the service took only rarely, each time more rarely after a refusal.
import type { LearnedLimits } from '../ports';

export type LimitName = 'qps' | 'concurrency';

export interface Caps {
  /** Infinity: no cap (`auto`). */
  readonly qps: number;
  readonly concurrency: number;
}

interface Probe {
  /** Epoch ms before which this limit is not raised again. */
  readonly at: number;
  readonly step: number;
  readonly intervalMs: number;
}

export interface AdaptiveState {
  /** The rate and concurrency calls are held to now (before each process's own caps). */
  readonly qps: number;
  readonly concurrency: number;
  /** Per limit: no refusal put on it yet, so while it binds it grows by RAMP every RAMP_MS. */
  readonly ramp: { readonly qps: boolean; readonly concurrency: boolean };
  readonly grownAt: number;
  /** Proven: the most calls the service accepted within one second, and in flight at once. */
  readonly okQps: number;
  readonly okConcurrency: number;
  /** The service refused a call just above these values. */
  readonly exact: boolean;
  /** Refusals of the rate at or below what it accepted before, each within BELOW_MEMORY_MS of the last (the third lowers what was learned). */
  readonly belowRefusals?: number;
  readonly belowAt?: number;
  /** Refusals of a second call in flight that the rate does not explain (a concurrency of 1 needs three). */
  readonly pairRefusals?: number;
  /** Calls in flight at once shown by accepted calls above okConcurrency, largest first, not yet shown often enough. */
  readonly shown?: readonly number[];
  /** The fewest calls in flight at once of a refusal the rate may not explain, while above okConcurrency: concurrency grows to just under it, and past it only by a probe. */
  readonly refusedConcurrency?: number;
  readonly probe: { readonly qps: Probe; readonly concurrency: Probe };
}

/** What a call shows of the service's limits: calls it accepted in its last second before this one, and calls in flight with it counting itself. */
export interface Observation {
  /** Surely accepted before it. */
  readonly recent: number;
  readonly level: number;
  /** Accepted before it or perhaps so (counted when it started, some outcomes unknown); `recent` when not told. */
  readonly recentAtMost?: number;
}

/** Where a limit nobody knows starts; while it binds and nothing was refused, it grows by RAMP each RAMP_MS. */
export const START = { qps: 5, concurrency: 2 } as const;
export const RAMP_MS = 100;
const RAMP = { qps: 4, concurrency: 2 } as const;
const PROBE_BASE_MS = 1000;
/** After the refusal that ends a ramp: the limit was just found, and every probe above it costs an SC006 for each process in flight. */
const PROBE_FOUND_MS = 4000;
const PROBE_MAX_MS = 30_000;
/** A limit found in an earlier run: probed above about twice a minute, so a probe costs at most one SC006 per 30 s. */
const PROBE_LEARNED_MS = 30_000;
/** How long a refusal at a rate the service took before is remembered: three close together mean the limit moved. */
const BELOW_MEMORY_MS = 10_000;
/** A round trip at least this long (ms) is a slow answer: an eighth of a window's calls or more are in flight at once. */
export const SLOW_ANSWER_MS = 125;
/** How many times more calls in the service's window than in flight make a refusal the rate's rather than the concurrency's. */
const RATE_EVIDENCE = 4;
/** Calls in flight beyond what the rate needs on average: answers that come back late still leave a slot free. */
const IN_FLIGHT_HEADROOM = 1.25;

export function capped(s: Pick<AdaptiveState, LimitName>, caps: Caps): { qps: number; concurrency: number } {
  return { qps: Math.min(s.qps, caps.qps), concurrency: Math.max(1, Math.floor(Math.min(s.concurrency, caps.concurrency))) };
}

/**
 * Where a limiter starts, per limit: what was learned before (exact values are trusted and probed
 * rarely), else the user's cap (given, it is the start and not only a ceiling), else START. A learned
 * rate is the most calls the service surely took within one of its windows, and the limiter's own
 * count window keeps the margin: held to it as it is, calls keep under the limit.
 */
export function startState(caps: Caps, learned: LearnedLimits | undefined, now: number): AdaptiveState {
  const exact = learned?.exact === true;
  const from = (by: LimitName): number => learned?.[by] ?? (Number.isFinite(caps[by]) ? caps[by] : START[by]);
  const probe = (): Probe => ({ at: now + (exact ? PROBE_LEARNED_MS : RAMP_MS), step: 1, intervalMs: exact ? PROBE_LEARNED_MS : PROBE_BASE_MS });
  return {
    ...capped({ qps: from('qps'), concurrency: from('concurrency') }, caps),
    ramp: { qps: !exact, concurrency: !exact },
    grownAt: now,
    okQps: exact ? from('qps') : 0,
    okConcurrency: exact ? from('concurrency') : 0,
    exact,
    probe: { qps: probe(), concurrency: probe() },
  };
}

/**
 * The calls in flight at once that a rate needs (Little's law: rate × round trip, with headroom), no
 * higher than the concurrency of a refusal that accepted calls have not since outdone.
 */
function littleTarget(s: AdaptiveState, caps: Caps, latencyMs: number | undefined): { target: number; ceiling: number } | undefined {
  const rate = Math.min(s.qps, caps.qps);
  if (latencyMs === undefined || !(latencyMs > 0) || !Number.isFinite(rate)) return undefined;
  const ceiling = Math.min(caps.concurrency, s.refusedConcurrency !== undefined ? s.refusedConcurrency - 1 : Infinity);
  const need = inFlightFor(rate, latencyMs);
  return { target: Math.max(1, Math.min(ceiling, need)), ceiling: need > ceiling ? ceiling : Infinity };
}

/** Little's law: the calls in flight a rate needs at a round trip, with headroom and one more. */
export function inFlightFor(rate: number, latencyMs: number): number {
  return Math.ceil(((rate * latencyMs) / 1000) * IN_FLIGHT_HEADROOM) + 1;
}

/**
 * Calls wait for `by` while the service might take more. The rate: it grows fast while nothing was
 * refused (ramp), else one probe step above it when the probe is due. Concurrency: calls wait for a
 * slot while the rate has room, so the concurrency is what holds them back; it grows at once to what
 * the rate needs (littleTarget), and past a refusal's level only by a probe. Never past what the rate
 * needs: more in flight than that only finds the service's concurrency limit by a refusal, which at
 * a high rate looks like the rate's.
 */
export function onBlocked(s: AdaptiveState, by: LimitName, now: number, caps: Caps, latencyMs?: number): AdaptiveState | undefined {
  const current = s[by];
  const cap = caps[by];
  if (current >= cap) return undefined;
  const p = s.probe[by];
  if (by === 'concurrency') {
    const little = littleTarget(s, caps, latencyMs);
    if (little && little.target > current) return { ...s, concurrency: little.target, grownAt: now };
    // What the rate needs is there: no reason to go past it (in a ramp, the rate grows first), nor
    // to look above a refusal. With no answer yet to time, it doubles while it ramps.
    if (little && (s.ramp.concurrency || little.ceiling === Infinity)) return undefined;
  }
  if (now < p.at) return undefined;
  if (s.ramp[by]) {
    const grown = Math.min(cap, Math.ceil(current * RAMP[by]));
    return { ...s, [by]: grown, grownAt: now, probe: { ...s.probe, [by]: { ...p, at: now + RAMP_MS } } };
  }
  // The rate the service took, as a learned start uses it: the limiter's window is margin enough.
  const proven = by === 'qps' ? s.okQps : s.okConcurrency;
  // Below what the service accepted before: back there in one step (the cubic curve's steep part).
  // Beyond it: one small step, larger each time the last one held (leaving the plateau).
  const recovering = current < proven;
  const next = Math.min(cap, recovering ? proven : current + p.step);
  // Concurrency limits are small numbers: one more at a time.
  const step = recovering || by === 'concurrency' ? p.step : Math.min(p.step * 2, Math.max(1, Math.floor(next / 2)));
  return { ...s, [by]: next, grownAt: now, probe: { ...s.probe, [by]: { at: now + p.intervalMs, step, intervalMs: p.intervalMs } } };
}

/** When a limit that calls wait for may next grow (epoch ms): the limiter looks again then. */
export function nextGrowth(s: AdaptiveState, by: LimitName, caps: Caps): number | undefined {
  return s[by] >= caps[by] ? undefined : s.probe[by].at;
}

/** Accepted calls that must show a number of calls in flight at once before it counts as proven. */
const SHOWN_TIMES = 3;

/**
 * A call was accepted: remember what the service has shown it takes. Calls in flight with it count
 * no higher than the concurrency now allowed (one lowered by a refusal since it started outweighs
 * it), and are counted here, not at the service: more than one call in flight is proven once
 * SHOWN_TIMES accepted calls have shown it, so that one call timed wrong (an answer read late) does
 * not raise it.
 */
export function onAccepted(s: AdaptiveState, o: Observation): AdaptiveState | undefined {
  const okQps = Math.max(s.okQps, o.recent + 1);
  const level = Math.min(o.level, s.concurrency);
  let okConcurrency = Math.max(s.okConcurrency, 1);
  let shown = s.shown;
  if (level > okConcurrency) {
    const top = [...(s.shown ?? []), level].sort((a, b) => b - a).slice(0, SHOWN_TIMES);
    if (top.length === SHOWN_TIMES) okConcurrency = top[SHOWN_TIMES - 1];
    shown = top.filter((l) => l > okConcurrency);
  }
  // Accepted calls outdid a refusal's level: it was not the concurrency's.
  const refusedConcurrency = s.refusedConcurrency !== undefined && okConcurrency >= s.refusedConcurrency ? undefined : s.refusedConcurrency;
  // Running at what the service was proven to take, and it took more: run there (answers of a
  // burst read after the refusal that ended it show how many the service really took).
  const qps = s.exact && !s.ramp.qps && s.qps >= s.okQps ? Math.max(s.qps, okQps) : s.qps;
  if (okQps === s.okQps && okConcurrency === s.okConcurrency && shown === s.shown && refusedConcurrency === s.refusedConcurrency) return undefined;
  return { ...s, qps, okQps, okConcurrency, shown, refusedConcurrency };
}

/**
 * Which limit refused a call, as onThrottled reads it (see there). With slow answers (a round trip of
 * SLOW_ANSWER_MS or more: calls in flight are then a large share of the window's) and more in flight
 * than the service was shown to take at once, a window above the rate it took is no sign of the rate
 * when only calls still in flight (their outcome unknown) put it there, nor when the service refused
 * that many in flight before: slow answers at a concurrency just probed fill the window by as many
 * calls as are in flight, and the count of surely accepted ones varies by one from answer to answer.
 * Fast answers fill a window far fuller than the calls in flight: there a refusal at the rate taken
 * before is the rate's, as it was.
 */
function refusedBy(s: AdaptiveState, o: Observation, roundTripMs: number | undefined): 'rate' | 'concurrency' {
  const upTo = o.recentAtMost ?? o.recent;
  const unproven = roundTripMs !== undefined && roundTripMs >= SLOW_ANSWER_MS && o.level > s.okConcurrency;
  const surelyBeyond = o.recent + 1 > s.okQps && !(unproven && o.level >= (s.refusedConcurrency ?? Infinity));
  const beyondRate = surelyBeyond || (upTo + 1 > s.okQps && !unproven);
  return o.level < 2 || (beyondRate && upTo >= RATE_EVIDENCE * o.level) ? 'rate' : 'concurrency';
}

/**
 * The service refused a call for the rate (SC006, 429): the limit that refused drops at once, and is
 * probed again later, each time later still. Which one refused is read from the calls the service
 * accepted in its last second, or may have, against the calls in flight (counted here, so never
 * fewer than the service saw):
 * - alone in flight: the rate;
 * - at a new high of the rate, with a window far fuller than the calls in flight: the rate (a window
 *   fills while calls are in flight);
 * - otherwise the concurrency: below the rate accepted before, or with hardly more calls in the
 *   window than in flight (slow calls, where the concurrency binds long before any window fills).
 * `shownLevel`: calls in flight an accepted answer showed, one below the level a start's probe allowed.
 */
export function onThrottled(s: AdaptiveState, o: Observation, now: number, roundTripMs?: number, shownLevel = 0): AdaptiveState {
  const beyondRate = (o.recentAtMost ?? o.recent) + 1 > s.okQps;
  const byRate = refusedBy(s, o, roundTripMs) === 'rate';
  const byConcurrency = !byRate;
  // At a new high, the limit is found: the rate drops to what the service surely took. A refusal at
  // or below the rate accepted before may pass (a call that reached the service early, another
  // process, a second left over from the last run): one less for a moment, back soon; the third in a
  // row takes one off what was learned.
  const recentBelow = s.belowAt !== undefined && now - s.belowAt < BELOW_MEMORY_MS ? (s.belowRefusals ?? 0) : 0;
  const belowRefusals = byRate && !beyondRate ? recentBelow + 1 : 0;
  const okQps = !byRate ? s.okQps : beyondRate ? Math.max(s.okQps, o.recent) : belowRefusals >= 3 ? Math.max(o.recent, s.okQps - 1) : s.okQps;
  const qps = byRate ? Math.min(s.qps, Math.max(1, beyondRate ? okQps : okQps - 1)) : s.qps;
  // Calls in flight are counted here, and a late answer leaves a call counted that the service has
  // finished: a refusal at 2 is read as the concurrency's only the third time the rate is ruled out.
  const pairRefusals = (s.pairRefusals ?? 0) + (o.level === 2 && byConcurrency ? 1 : 0);
  const floor = pairRefusals >= 3 ? 1 : 2;
  const concurrency = byConcurrency ? Math.min(s.concurrency, Math.max(floor, o.level - 1)) : s.concurrency;
  const okConcurrency = byConcurrency ? Math.min(s.okConcurrency, concurrency) : s.okConcurrency;
  const refusedConcurrency = byConcurrency && o.level > okConcurrency ? Math.min(s.refusedConcurrency ?? Infinity, o.level) : s.refusedConcurrency;
  // Levels not yet proven that a refusal contradicts are forgotten.
  const shown = byConcurrency ? s.shown?.filter((l) => l <= concurrency) : s.shown;
  const ramp = { qps: s.ramp.qps && !byRate, concurrency: s.ramp.concurrency && !byConcurrency };
  const later = (p: Probe, ramped: boolean): Probe => {
    const intervalMs = ramped ? PROBE_FOUND_MS : Math.min(PROBE_MAX_MS, p.intervalMs * 2);
    return { at: now + intervalMs, step: 1, intervalMs };
  };
  const soon = (p: Probe): Probe => ({ at: now + PROBE_BASE_MS, step: 1, intervalMs: p.intervalMs });
  const probeQps = !byRate ? s.probe.qps : beyondRate ? later(s.probe.qps, s.ramp.qps) : soon(s.probe.qps);
  // Accepted at a level and refused one above it: the concurrency is found exactly, and each probe
  // above it costs a refusal and a hold of every call; it is looked at again as rarely as a learned one.
  const found = byConcurrency && o.level === concurrency + 1 && Math.max(s.okConcurrency, shownLevel) >= concurrency;
  const probeConcurrency = !byConcurrency ? s.probe.concurrency : found ? { at: now + PROBE_LEARNED_MS, step: 1, intervalMs: PROBE_LEARNED_MS } : later(s.probe.concurrency, s.ramp.concurrency);
  return {
    ...s,
    qps,
    concurrency,
    okQps,
    okConcurrency,
    pairRefusals,
    belowRefusals: belowRefusals >= 3 ? 0 : belowRefusals,
    belowAt: belowRefusals > 0 ? now : s.belowAt,
    shown,
    refusedConcurrency,
    ramp,
    exact: true,
    probe: { qps: probeQps, concurrency: probeConcurrency },
  };
}

/** The account's limits as found so far: what the service took, once a refusal showed where it stops. */
export function estimate(s: AdaptiveState): { qps: number; concurrency: number; exact: boolean } {
  return s.exact ? { qps: Math.max(1, s.okQps), concurrency: Math.max(1, s.okConcurrency), exact: true } : { qps: s.qps, concurrency: s.concurrency, exact: false };
}

/**
 * What to remember for the next run: a limit held down by a cap says nothing about the account, so
 * it keeps what was remembered before (or nothing).
 */
export function toLearned(s: AdaptiveState, caps: Caps, before: LearnedLimits | undefined, now: number): LearnedLimits | undefined {
  // What the service is known to take (the operating values may sit below it for a while after a refusal).
  const qps = s.okQps < caps.qps ? Math.max(1, s.okQps) : before?.qps;
  const concurrency = s.okConcurrency < caps.concurrency ? Math.max(1, s.okConcurrency) : before?.concurrency;
  if (qps === undefined || concurrency === undefined) return undefined;
  const exact = s.exact || (before?.exact ?? false);
  if (before && before.qps === qps && before.concurrency === concurrency && before.exact === exact) return undefined;
  return { qps, concurrency, exact, at: now };
}

/** A state read back from a shared store, or undefined when it is not one. */
export function parseState(raw: unknown): AdaptiveState | undefined {
  const s = raw as Partial<AdaptiveState> | null;
  if (typeof s !== 'object' || s === null) return undefined;
  const nums = [s.qps, s.concurrency, s.grownAt, s.okQps, s.okConcurrency, s.probe?.qps?.at, s.probe?.concurrency?.at];
  if (nums.some((n) => typeof n !== 'number' || !Number.isFinite(n)) || typeof s.ramp?.qps !== 'boolean' || typeof s.ramp.concurrency !== 'boolean' || typeof s.exact !== 'boolean') return undefined;
  const shown = Array.isArray(s.shown) && s.shown.every((l) => typeof l === 'number' && Number.isFinite(l)) ? s.shown : undefined;
  const num = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) ? n : undefined);
  return { ...(s as AdaptiveState), shown, refusedConcurrency: num(s.refusedConcurrency), belowRefusals: num(s.belowRefusals), belowAt: num(s.belowAt), pairRefusals: num(s.pairRefusals) };
}
