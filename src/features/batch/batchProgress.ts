// Plain helpers of the batch command: where results go, and the progress line. No `vscode` import.
import type { BatchProgress, BatchSummary } from '../../core/run/batch';
import { failureLine } from '../../core/exchange/failures';

/** Results are written beside the input as JSON lines: `<file>.results.jsonl`. */
export function resultsPathFor(inputPath: string): string {
  return `${inputPath}.results.jsonl`;
}

/** "12 of 40 done, 3.2 per second (20 from an earlier run)"; the rate counts only this run's lookups. */
export function progressMessage(p: BatchProgress, elapsedMs: number): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 && p.done > 0 ? `, ${formatRate(p.done / seconds)} per second` : '';
  const resumed = p.skipped > 0 ? ` (${p.skipped} from an earlier run)` : '';
  return `${p.skipped + p.done} of ${p.total} done${rate}${resumed}`;
}

function formatRate(perSecond: number): string {
  return perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

/** Percent of the whole batch finished (earlier runs included), for the progress bar. */
export function percentDone(p: BatchProgress): number {
  return p.total > 0 ? ((p.skipped + p.done) / p.total) * 100 : 100;
}

/** The closing message: what happened, and what to do next. */
export function summaryMessage(s: BatchSummary, outName: string): string {
  const counts = `${s.ok} succeeded, ${s.failed} failed${s.skipped > 0 ? `, ${s.skipped} already done earlier` : ''}`;
  if (s.stoppedBy) {
    return `Batch stopped after ${s.skipped + s.done} of ${s.total} (${counts}). ${failureLine(s.stoppedBy)} Run the batch again${s.stoppedBy.comeBackAt !== undefined ? ' at that time' : ''} to resume; results so far are in ${outName}.`;
  }
  if (s.cancelled) {
    return `Batch cancelled after ${s.skipped + s.done} of ${s.total} (${counts}). Run it again on the same file to resume where it stopped; results so far are in ${outName}.`;
  }
  return `Batch finished: ${s.total} inputs (${counts}). Results are in ${outName}.`;
}
