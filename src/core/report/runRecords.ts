// What every host puts into a run's records the same way: the limit the run ended with, and the
// answer of a failure as the report keeps it.
import type { CallResult, LimiterState } from '../model';
import type { ReportRun } from './reportModel';

/** The limit the run ended with: what the adaptive limiter learned or reached, else a cap, else the rate it held calls to. */
export function runLimit(state: LimiterState): ReportRun['limit'] {
  if (state.learned) return { qps: state.learned.qps, source: state.learned.exact ? 'learned' : 'reached' };
  if (state.caps && state.caps.qps > 0 && Number.isFinite(state.caps.qps)) return { qps: state.caps.qps, source: 'cap' };
  return state.qps > 0 && Number.isFinite(state.qps) ? { qps: state.qps, source: 'held' } : undefined;
}

/** Characters of an answer kept in a report's failure: enough to read, not a copy of a large download. */
const ANSWER_CHARS = 20_000;

/** The answer's text (JSON indented), cut at ANSWER_CHARS; undefined when there was no answer body. */
export function answerText(result: CallResult): string | undefined {
  const text = result.ok && result.text !== undefined ? result.text : result.body !== undefined ? JSON.stringify(result.body, null, 2) : undefined;
  if (text === undefined) return undefined;
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}\n… (${text.length - ANSWER_CHARS} more characters)` : text;
}
