// What a run may call the service's limit, decided once for the report, the summaries and the
// editor's progress: a rate configured (the connection's qps, --qps or BIZDATA_QPS: the caps the
// limiter never exceeds), one learned (the service refused a call just above it, in this run or an
// earlier one: what `bizdata token` shows as "learned"), or none known yet. Where an adaptive limiter
// starts and how far it ramped while nothing was refused are positions of the limiter, not limits:
// never shown as one.
import type { LimiterState } from '../model';
import type { LearnedLimits } from '../ports';
import { rateText } from './numbers';

export type RunLimit =
  | { readonly source: 'learned'; readonly qps: number; readonly concurrency: number; readonly configured?: number }
  | { readonly source: 'configured'; readonly qps: number }
  | { readonly source: 'unknown' };

/**
 * The limit as the limiter knows it at the end of a run (an adaptive limiter's learned values only
 * once exact); `remembered`, what an earlier run learned (the limits store), for a run whose limiter
 * never started because it sent nothing.
 */
export function runLimit(state: LimiterState | undefined, remembered?: Pick<LearnedLimits, 'qps' | 'concurrency' | 'exact'>): RunLimit {
  const cap = state?.caps ? state.caps.qps : state?.learned ? undefined : state?.qps;
  const configured = cap !== undefined && cap > 0 && Number.isFinite(cap) ? cap : undefined;
  const learned = state?.learned?.exact ? state.learned : remembered?.exact ? remembered : undefined;
  if (learned) return { source: 'learned', qps: learned.qps, concurrency: learned.concurrency, ...(configured !== undefined ? { configured } : {}) };
  return configured !== undefined ? { source: 'configured', qps: configured } : { source: 'unknown' };
}

/** The rate to hold a run's calls against, when one is known. */
export function limitQps(limit: RunLimit): number | undefined {
  return limit.source === 'unknown' ? undefined : limit.qps;
}

/** What the service is known to take: null until a refusal showed it (a summary's `learnedQps`, `learnedConcurrency`). */
export function learnedOf(limit: RunLimit): { readonly qps: number | null; readonly concurrency: number | null } {
  return limit.source === 'learned' ? { qps: limit.qps, concurrency: limit.concurrency } : { qps: null, concurrency: null };
}

/** The limit as a summary's JSON names it. */
export function limitJson(limit: RunLimit): { readonly qps: number | null; readonly source: RunLimit['source'] } {
  return { qps: limitQps(limit) ?? null, source: limit.source };
}

/** The limit in words, saying what it is. */
export function limitText(limit: RunLimit): string {
  if (limit.source === 'unknown') return 'not known yet: no limit is configured, and the service refused no call for the rate';
  const rate = `${rateText(limit.qps)} calls/s`;
  if (limit.source === 'configured') return `${rate}, configured (the connection's qps, --qps or BIZDATA_QPS)`;
  const cap = limit.configured !== undefined ? `; ${rateText(limit.configured)} calls/s configured` : '';
  return `${rate}, learned: the service refused calls just above it${cap}`;
}

/** The limit in a few words, for a chart's legend. */
export function limitShort(limit: RunLimit): string {
  return limit.source === 'unknown' ? 'limit not known yet' : `limit ${rateText(limit.qps)} calls/s (${limit.source})`;
}
