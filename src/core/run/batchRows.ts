// A batch's rows as its report shows them (pure): each input's outcome in this run, read from the
// results file the run appended to, with the batch's own rules of what an earlier run finished.
import type { BatchSummary } from './batch';
import { countsFor, isFinalLine, type BatchLine } from './batchLines';
import { lookupKey } from '../requests/queries';
import { failureLine } from '../exchange/failures';
import type { LimiterState, LookupQuery, WireEvent } from '../model';
import type { ReportRow, ReportRun } from '../report/reportModel';
import { runLimit } from '../report/runRecords';

/** What a host knows of a batch it ran, for its report. */
export interface BatchRecords {
  readonly title: string;
  readonly inputs: readonly LookupQuery[];
  /** The results file's text before the run and after it, and how the report names it. */
  readonly before: string;
  readonly after: string;
  readonly resultsFile: string;
  readonly connection: string | undefined;
  readonly startedAt: number;
  readonly summary: BatchSummary;
  readonly wire: readonly WireEvent[];
  readonly limiter: LimiterState;
}

/** A batch as its report shows it (core/report). */
export function batchReportRun(b: BatchRecords): ReportRun {
  const rows = batchRows(b.inputs, b.before, b.after.slice(b.before.length), b.connection);
  const stopped = b.summary.stoppedBy;
  return {
    title: b.title,
    kind: 'batch',
    startedAt: b.startedAt,
    durationMs: b.summary.durationMs,
    connections: [b.connection ?? 'default'],
    wire: b.wire,
    limit: runLimit(b.limiter),
    batch: { resultsFile: b.resultsFile, rows },
    ...(stopped ? { stopped: failureLine(stopped) } : {}),
  };
}

/**
 * `before`: the results file's text before the run; `during`: what the run appended. An input with a
 * line of this run is ok or failed by it (a duplicate of an input is skipped, as the batch skips it);
 * one finished by an earlier run is skipped; one the run never reached (it stopped) is unsent.
 */
export function batchRows(inputs: readonly LookupQuery[], before: string, during: string, connection: string | undefined): ReportRow[] {
  const finishedBefore = new Map<string, boolean>();
  for (const line of lines(before)) if (countsFor(line, connection)) finishedBefore.set(lookupKey(line.input), isFinalLine(line));
  const now = new Map<string, BatchLine>();
  for (const line of lines(during)) now.set(lookupKey(line.input), line);
  const seen = new Set<string>();
  return inputs.map((q) => {
    const key = lookupKey(q);
    const input = q.kind === 'ip' ? q.ip : [q.country, q.name, q.territory].filter((x) => x !== undefined && x !== '').join(',');
    const first = !seen.has(key);
    seen.add(key);
    const line = now.get(key);
    if (finishedBefore.get(key) === true || (line && !first)) return { input, outcome: 'skipped' };
    if (!line) return { input, outcome: 'unsent' };
    if (line.ok) return { input, outcome: 'ok', status: line.status, code: line.code };
    const text = line.error ? failureLine({ code: line.code, ...line.error }) : undefined;
    return { input, outcome: 'failed', status: line.status, code: line.code, ...(text !== undefined ? { text } : {}) };
  });
}

function lines(text: string): BatchLine[] {
  const out: BatchLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const line = JSON.parse(raw) as Partial<BatchLine>;
      if (line.input) out.push(line as BatchLine);
    } catch {
      // A line cut short by a crash: its input runs again, as the batch reads it.
    }
  }
  return out;
}
