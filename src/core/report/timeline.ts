// A run's calls second by second, scaled to what the run sent (pure): calls per second (sign-ins
// included: they count against the limit too), the response times of the data calls (sign-ins left
// out, as in the slowest table), the waits, and what to say instead of a chart where one would say
// nothing (no call, or a run too short to have seconds to compare).
import type { WireEvent } from '../model';
import { limitQps, limitShort, type RunLimit } from './limits';
import { durationText, plural, rateText } from './numbers';

export type SentEvent = Extract<WireEvent, { kind: 'sent' }>;

/** Seconds with calls a chart needs before it compares anything: fewer are said in words. */
export const CHART_SECONDS = 3;
/** A limit more than this many times the run's peak rate is written as a note, not drawn: it would flatten the run. */
const LIMIT_IN_SCALE = 2;

export interface Timeline {
  /** Per second since the first call: calls sent (sign-ins included). */
  readonly calls: readonly number[];
  /** Per second: the median and slowest response time of the data calls (null: none that second). */
  readonly medianMs: readonly (number | null)[];
  readonly slowestMs: readonly (number | null)[];
  readonly waits: readonly { readonly second: number; readonly ms: number; readonly what: string }[];
  /** The most calls sent within one second, and which second (0-based). */
  readonly peak: number;
  readonly peakSecond: number;
  /** The top of the calls chart's axis: a little above the peak, and the limit when it is near. */
  readonly yMax: number;
  /** The limit drawn across the chart, when one is known and near enough to the run's rates to read. */
  readonly limit: number | null;
  /** `none`: no call; `short`: too few seconds to chart, said in words; `chart`: drawn. */
  readonly mode: 'none' | 'short' | 'chart';
  /** What the chart shows, in words: its legend, readable without a pointer and with script off. */
  readonly callsWords: string;
  readonly timesWords: string;
  /** Said beside the chart: a limit far above the run, not drawn to scale. */
  readonly note?: string;
}

export function timeline(wire: readonly WireEvent[], limit: RunLimit): Timeline {
  const sent = wire.filter((e): e is SentEvent => e.kind === 'sent');
  const data = sent.filter((e) => !e.signIn);
  const signIns = sent.filter((e) => e.signIn);
  const t0 = wire.reduce((m, e) => Math.min(m, e.at), Infinity);
  const seconds = wire.length === 0 ? 0 : Math.floor((wire.reduce((m, e) => Math.max(m, e.at), -Infinity) - t0) / 1000) + 1;
  const calls = new Array<number>(seconds).fill(0);
  const took: number[][] = Array.from({ length: seconds }, () => []);
  for (const e of sent) calls[Math.floor((e.at - t0) / 1000)]++;
  for (const e of data) took[Math.floor((e.at - t0) / 1000)].push(e.ms);
  const waits = wire.flatMap((e) => (e.kind === 'wait' ? [{ second: Math.floor((e.at - t0) / 1000), ms: Math.round(e.ms), what: e.what }] : []));
  const peak = calls.reduce((m, c) => Math.max(m, c), 0);
  const peakSecond = calls.indexOf(peak);
  const known = limitQps(limit);
  const near = known !== undefined && peak > 0 && known <= peak * LIMIT_IN_SCALE ? known : null;
  const all = data.map((e) => e.ms).sort((a, b) => a - b);
  const mode = sent.length === 0 ? 'none' : seconds < CHART_SECONDS ? 'short' : 'chart';
  const slowestSignIn = durationText(signIns.reduce((m, e) => Math.max(m, e.ms), 0));
  const signInWords = signIns.length === 0 ? 'no sign-in' : `${plural(signIns.length, 'sign-in')} not counted (slowest ${slowestSignIn})`;
  const figures = `median ${durationText(median(all))}, slowest ${durationText(all[all.length - 1])}`;
  const times = all.length === 0 ? 'No data call was answered in this run.' : `${plural(all.length, 'data call')}: ${figures}; ${signInWords}.`;
  const farAbove = `is far above what this run sent (at most ${plural(peak, 'call')} in a second): it is not drawn, so the run keeps its scale`;
  return {
    calls,
    medianMs: took.map((t) => (t.length === 0 ? null : Math.round(median(t.sort((a, b) => a - b))))),
    slowestMs: took.map((t) => (t.length === 0 ? null : Math.round(t.reduce((m, ms) => Math.max(m, ms), 0)))),
    waits,
    peak,
    peakSecond,
    yMax: niceCeiling(Math.max(peak, near ?? 0) * 1.15),
    limit: near,
    mode,
    callsWords: callsWords(sent.length, seconds, peak, peakSecond, waits.length, limit, mode),
    timesWords: times,
    ...(known !== undefined && near === null && peak > 0 ? { note: `The limit, ${rateText(known)} calls/s, ${farAbove}.` } : {}),
  };
}

function callsWords(total: number, seconds: number, peak: number, peakSecond: number, waits: number, limit: RunLimit, mode: Timeline['mode']): string {
  if (mode === 'none') return `No call went out in this run; ${limitShort(limit)}.`;
  const retries = waits === 0 ? 'no wait before a retry' : `${plural(waits, 'wait')} before a retry`;
  const rest = `${limitShort(limit)}; ${retries}`;
  const within = `${plural(total, 'call')} within ${plural(seconds, 'second')}`;
  if (mode === 'short') return `${within}: too short a run to chart per second (at most ${peak} in one second); ${rest}.`;
  const most = `at most ${plural(peak, 'call')} in one second (second ${peakSecond})`;
  return `${plural(total, 'call')} over ${plural(seconds, 'second')}: ${most}, ${rateText(total / seconds)} a second on average; ${rest}.`;
}

function median(sorted: readonly number[]): number {
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The axis top: a round number at least the value (and at least 1), never more than a quarter above it past 4. */
export function niceCeiling(value: number): number {
  if (!(value > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
