// How an adaptive limiter finds an account's real limits (the spec does not publish them, section 8):
// a pure reducer over a small serialisable state, so one process or many (through the coordinator)
// apply the same rules. Like TCP and the AWS SDKs' adaptive retry mode: start safe and double while
// the limit binds; on SC006 or 429 drop at once to what the service actually accepted; then probe
// upwards by small steps, less often after each refusal, and settle just under the limit.
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
  /** Per limit: no refusal put on it yet, so while it binds it doubles every RAMP_MS. */
  readonly ramp: { readonly qps: boolean; readonly concurrency: boolean };
  readonly grownAt: number;
  /** Proven: the most calls the service accepted within one second, and in flight at once. */
  readonly okQps: number;
  readonly okConcurrency: number;
  /** The service refused a call just above these values. */
  readonly exact: boolean;
  /** Refusals of a second call in flight that the rate does not explain (a concurrency of 1 needs three). */
  readonly pairRefusals?: number;
  /** Calls in flight at once shown by accepted calls above okConcurrency, largest first, not yet shown often enough. */
  readonly shown?: readonly number[];
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

export const START = { qps: 5, concurrency: 2 } as const;
export const RAMP_MS = 150;
const PROBE_BASE_MS = 1000;
const PROBE_MAX_MS = 30_000;
const PROBE_LEARNED_MS = 8000;

/** Just under a rate the service was seen to take: a window of calls here never lands as one call too many there. */
export function settle(qps: number): number {
  return Math.max(1, qps - Math.max(1, Math.round(qps * 0.02)));
}

export function capped(s: Pick<AdaptiveState, LimitName>, caps: Caps): { qps: number; concurrency: number } {
  return { qps: Math.min(s.qps, caps.qps), concurrency: Math.max(1, Math.floor(Math.min(s.concurrency, caps.concurrency))) };
}

/**
 * Where a limiter starts: what was learned before (exact values are trusted and probed rarely), else
 * safe values. A learned rate is the most calls the service took within its window less the drift
 * (SERVICE_WINDOW_MS), and the limiter counts a longer window: held to it as it is, calls keep under
 * the limit without the margin taken after a refusal.
 */
export function startState(caps: Caps, learned: LearnedLimits | undefined, now: number): AdaptiveState {
  const from = learned ?? { ...START, exact: false };
  const exact = learned?.exact === true;
  const probe = (): Probe => ({ at: now + (exact ? PROBE_LEARNED_MS : RAMP_MS), step: 1, intervalMs: exact ? PROBE_LEARNED_MS : PROBE_BASE_MS });
  return {
    ...capped({ qps: from.qps, concurrency: from.concurrency }, caps),
    ramp: { qps: !exact, concurrency: !exact },
    grownAt: now,
    okQps: exact ? from.qps : 0,
    okConcurrency: exact ? from.concurrency : 0,
    exact,
    probe: { qps: probe(), concurrency: probe() },
  };
}

/** Calls wait for `by` while the service might take more: grow it (ramp) or probe one step above it. */
export function onBlocked(s: AdaptiveState, by: LimitName, now: number, caps: Caps): AdaptiveState | undefined {
  const current = s[by];
  const cap = caps[by];
  if (current >= cap) return undefined;
  const p = s.probe[by];
  if (now < p.at) return undefined;
  if (s.ramp[by]) {
    const doubled = Math.min(cap, by === 'qps' ? current * 2 : Math.ceil(current * 2));
    return { ...s, [by]: doubled, grownAt: now, probe: { ...s.probe, [by]: { ...p, at: now + RAMP_MS } } };
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
  if (okQps === s.okQps && okConcurrency === s.okConcurrency && shown === s.shown) return undefined;
  return { ...s, okQps, okConcurrency, shown };
}

/**
 * The service refused a call for the rate (SC006, 429): the limits drop at once to what the service
 * accepted when that call started, and a limit that dropped is probed again later, each time later
 * still. Which limit refused is read from the calls the service accepted in its last second, or may
 * have, against the calls in flight (counted here, so never fewer than the service saw). Below the
 * rate it has accepted before, the rate did not refuse: concurrency did, unless the call was alone.
 * At a new high of the rate, either may have: both drop, the rate to what was surely accepted.
 */
export function onThrottled(s: AdaptiveState, o: Observation, now: number): AdaptiveState {
  const beyondRate = (o.recentAtMost ?? o.recent) + 1 > s.okQps;
  const alone = o.level < 2;
  const byRate = beyondRate || alone;
  // At a new high the service has shown its limit: settle just under it. Below, take what it accepted.
  const qps = byRate ? Math.min(s.qps, beyondRate ? settle(Math.max(1, o.recent)) : Math.max(1, o.recent)) : s.qps;
  // Calls in flight are counted here, and a late answer leaves a call counted that the service has
  // finished: a refusal at 2 is read as the concurrency's only the third time the rate is ruled out.
  const pairRefusals = (s.pairRefusals ?? 0) + (o.level === 2 && !beyondRate ? 1 : 0);
  const floor = pairRefusals >= 3 ? 1 : 2;
  const concurrency = alone ? s.concurrency : Math.min(s.concurrency, Math.max(floor, o.level - 1));
  // A refusal below the rate accepted before may pass (another process, a second left over from the
  // last run): back soon, to a little less than before. At a new high, the limit is found: probe rarely.
  const okQps = beyondRate ? Math.max(s.okQps, o.recent) : byRate ? Math.max(o.recent, s.okQps - 1) : s.okQps;
  const okConcurrency = alone ? s.okConcurrency : Math.min(s.okConcurrency, concurrency);
  // Levels not yet proven that a refusal contradicts are forgotten.
  const shown = alone ? s.shown : s.shown?.filter((l) => l <= concurrency);
  // When either limit may have refused, the rate keeps ramping until a refusal is surely its own.
  const ramp = { qps: s.ramp.qps && !alone, concurrency: s.ramp.concurrency && alone };
  const later = (p: Probe, ramped: boolean): Probe => {
    const intervalMs = ramped ? PROBE_BASE_MS : Math.min(PROBE_MAX_MS, p.intervalMs * 2);
    return { at: now + intervalMs, step: 1, intervalMs };
  };
  const soon = (p: Probe): Probe => ({ at: now + PROBE_BASE_MS, step: 1, intervalMs: p.intervalMs });
  let probeQps = s.probe.qps;
  if (ramp.qps) probeQps = { ...probeQps, at: now + RAMP_MS };
  else if (byRate) probeQps = beyondRate ? later(probeQps, s.ramp.qps) : soon(probeQps);
  return {
    ...s,
    qps,
    concurrency,
    okQps,
    okConcurrency,
    pairRefusals,
    shown,
    ramp,
    exact: true,
    probe: { qps: probeQps, concurrency: alone ? s.probe.concurrency : later(s.probe.concurrency, s.ramp.concurrency) },
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
  return { ...(s as AdaptiveState), shown };
}
