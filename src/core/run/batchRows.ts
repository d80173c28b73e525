// A batch's rows as its report and its summary count them: the whole job, every input by its latest
// line in the results file (read as a stream after the run), this run's lines told apart from those
// an earlier run wrote, with the batch's own rules of what is done (batchLines.ts).
import type { BatchSummary } from './batch';
import { lstat } from 'node:fs/promises';
import { jsonLines } from '../data/journal';
import { openToRead } from '../files/door';
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

/** The results file's latest line of each input, by its key: those an earlier run finished, and this run's. */
export interface BatchJobLines {
  readonly finishedBefore: ReadonlyMap<string, BatchLine>;
  readonly now: ReadonlyMap<string, BatchLine>;
}

/** The results file's size before a run (0 when there is none yet): where this run's lines will start. */
export async function resultsSizeBefore(outFile: string): Promise<number> {
  return (await lstat(outFile).catch(() => undefined))?.size ?? 0;
}

/**
 * Reads a batch's results file after a run, as a stream (a job's answers may be gigabytes): the lines
 * in its first `beforeSize` bytes (what it held before the run) an earlier run wrote, the others this
 * run's. Each line is kept without its answer.
 */
export async function batchJobLines(outFile: string, beforeSize: number, connection: string | undefined): Promise<BatchJobLines> {
  const finishedBefore = new Map<string, BatchLine>();
  const now = new Map<string, BatchLine>();
  const handle = await openToRead(outFile, "a batch's results file");
  if (!handle) return { finishedBefore, now };
  try {
    if (beforeSize > 0) {
      for await (const line of batchLines(handle.createReadStream({ start: 0, end: beforeSize - 1, autoClose: false }))) {
        if (!countsFor(line, connection)) continue;
        if (isFinalLine(line)) finishedBefore.set(lookupKey(line.input), line);
        else finishedBefore.delete(lookupKey(line.input));
      }
    }
    for await (const line of batchLines(handle.createReadStream({ start: beforeSize, autoClose: false }))) now.set(lookupKey(line.input), line);
  } finally {
    await handle.close();
  }
  return { finishedBefore, now };
}

/**
 * Every input of the job by its results file's lines (batchJobLines). An input with a line of this
 * run is ok or failed by it (to run again when the line is not final); one an earlier run finished
 * keeps that line's outcome, marked earlier; a repeat of an input is looked up once; one no run has
 * finished nor this run reached (it stopped) is not done.
 */
export function batchRows(inputs: readonly LookupQuery[], { finishedBefore, now }: BatchJobLines): ReportRow[] {
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

/** The lines of a stretch of a results file, each without its answer. */
async function* batchLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<BatchLine> {
  for await (const { text } of jsonLines(chunks)) {
    if (text.trim() === '') continue;
    let line: Partial<BatchLine>;
    try {
      line = JSON.parse(text) as Partial<BatchLine>;
    } catch {
      continue; // a line cut short by a crash: its input runs again, as the batch reads it
    }
    if (!line.input) continue;
    const l = line as BatchLine;
    yield { input: l.input, ok: l.ok, code: l.code, status: l.status, error: l.error, final: l.final, at: l.at, connection: l.connection };
  }
}
