// A batch's rows as its report and its summary count them (pure): the whole job, every input by its
// latest line in the results file, this run's lines told apart from those an earlier run wrote, with
// the batch's own rules of what is done (batchLines.ts).
import type { BatchSummary } from './batch';
import { countsFor, isFinalLine, type BatchLine } from './batchLines';
import { lookupKey } from '../requests/queries';
import { failureLine } from '../exchange/failures';
import type { LookupQuery, WireEvent } from '../model';
import type { ReportRow } from '../report/jobRows';
import type { RunLimit } from '../report/limits';
import type { ReportRun } from '../report/reportModel';

/** What a host knows of a batch it ran, for its report. */
export interface BatchRecords {
  readonly title: string;
  /** The input file, as the run names it. */
  readonly source: string;
  readonly rows: readonly ReportRow[];
  /** The results file, as the report names it (relative to a report file). */
  readonly resultsFile: string;
  readonly connection: string | undefined;
  readonly startedAt: number;
  readonly summary: BatchSummary;
  readonly wire: readonly WireEvent[];
  readonly limit: RunLimit;
}

/** A batch as its report shows it (core/report): the whole job. */
export function batchReportRun(b: BatchRecords): ReportRun {
  const stopped = b.summary.stoppedBy;
  return {
    title: b.title,
    kind: 'batch',
    startedAt: b.startedAt,
    durationMs: b.summary.durationMs,
    connections: [b.connection ?? 'default'],
    wire: b.wire,
    limit: b.limit,
    job: { source: b.source, resultsFile: b.resultsFile, rows: b.rows },
    ...(stopped ? { stopped: failureLine(stopped) } : {}),
  };
}

/**
 * Every input of the job by the results file: `before`, its text before this run, and `after`. An
 * input with a line of this run is ok or failed by it (to run again when the line is not final); one
 * an earlier run finished keeps that line's outcome, marked earlier; a repeat of an input is looked up
 * once; one no run has finished nor this run reached (it stopped) is not done.
 */
export function batchRows(inputs: readonly LookupQuery[], before: string, after: string, connection: string | undefined): ReportRow[] {
  const finishedBefore = new Map<string, BatchLine>();
  for (const line of lines(before)) {
    if (!countsFor(line, connection)) continue;
    if (isFinalLine(line)) finishedBefore.set(lookupKey(line.input), line);
    else finishedBefore.delete(lookupKey(line.input));
  }
  const now = new Map<string, BatchLine>();
  for (const line of lines(after.slice(before.length))) now.set(lookupKey(line.input), line);
  const seen = new Set<string>();
  return inputs.map((q): ReportRow => {
    const key = lookupKey(q);
    const label = q.kind === 'ip' ? q.ip : [q.country, q.name, q.territory].filter((x) => x !== undefined && x !== '').join(',');
    if (seen.has(key)) return { label, outcome: 'repeated' };
    seen.add(key);
    const line = now.get(key) ?? finishedBefore.get(key);
    if (!line) return { label, outcome: 'unsent' };
    const earlier = !now.has(key) ? { earlier: true } : {};
    const answer = { ...(line.status !== undefined ? { status: line.status } : {}), ...(line.code !== undefined ? { code: line.code } : {}) };
    if (line.ok) return { label, outcome: 'ok', ...earlier, ...answer };
    const text = line.error ? failureLine({ code: line.code, ...line.error }) : undefined;
    return { label, outcome: 'failed', ...earlier, ...(isFinalLine(line) ? {} : { again: true }), ...answer, ...(text !== undefined ? { text } : {}) };
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
