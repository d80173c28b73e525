// Plain helpers of Run with Data (commands/runWithData.ts): where the results go, the progress line
// and the closing message. No `vscode` import: unit-tested in plain Node.
import { resultsFileOf } from '../../core/data/dataFiles';
import { failureLine } from '../../core/exchange/failures';
import type { RowsProgress, RowsSummary } from '../../core/run/rows';

type DataProgress = Omit<RowsProgress, 'elapsedMs'>;

/** Beside the data file, named after it: `rows.csv` → `rows.results.jsonl`. */
export function dataResultsPath(dataPath: string): string {
  return resultsFileOf(dataPath);
}

/**
 * "12 of 40 rows, 3.2 rows a second (limit 50 calls a second), about 9 s left (20 from an earlier
 * run)": rate and time left from this run's rows only; `limitQps`, the connection's limit as the
 * client holds it (runRecords.ts runLimit), when known.
 */
export function dataProgressMessage(p: DataProgress, elapsedMs: number, limitQps?: number): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 && p.done > 0 ? p.done / seconds : undefined;
  const left = p.total - p.skipped - p.done;
  const limit = limitQps === undefined ? '' : ` (limit ${limitQps >= 10 ? Math.round(limitQps) : limitQps.toFixed(1)} calls a second)`;
  const pace = rate === undefined ? '' : `, ${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} rows a second${limit}, about ${duration(left / rate)} left`;
  const resumed = p.skipped > 0 ? ` (${p.skipped} from an earlier run)` : '';
  return `${p.skipped + p.done} of ${p.total} rows${pace}${resumed}`;
}

/** Percent of the rows finished (earlier runs included), for the progress bar. */
export function dataPercentDone(p: Pick<DataProgress, 'total' | 'done' | 'skipped'>): number {
  return p.total > 0 ? ((p.skipped + p.done) / p.total) * 100 : 100;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** The closing message: what happened, and what to do next. */
export function dataSummaryMessage(s: Omit<RowsSummary, 'durationMs'>, outName: string): string {
  const counts = `${s.ok} passed, ${s.failed} did not${s.skipped > 0 ? `, ${s.skipped} done by an earlier run` : ''}`;
  if (s.stoppedBy) return `The run stopped after ${s.skipped + s.done} of ${s.total} rows (${counts}): ${failureLine(s.stoppedBy)} Run with Data again on the same file to resume; the results so far are in ${outName}.`;
  if (s.cancelled) return `Cancelled after ${s.skipped + s.done} of ${s.total} rows (${counts}). Run with Data again on the same file to resume where it stopped; the results so far are in ${outName}.`;
  return `${s.total} rows run (${counts}). The results are in ${outName}.`;
}
