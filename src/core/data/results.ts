// The results of a data-driven run (issue 26), one per row, appended as each row is answered
// (journal.ts: kill -9 loses nothing written), and read back so that a second run with the same
// output skips the rows already done. A row's identity is its line and a hash of its values, so a row
// edited in the data file runs again. JSON Lines (`.jsonl`, `.ndjson`) keeps every result with the
// whole answer; CSV (resultsCsv.ts) keeps the input columns, status, code and `--column` cells, one
// line per row that is done with, for a spreadsheet.
import { safeJson } from '../sanitize';
import { openAppender, readJsonLines } from './journal';
import { openCsvResults } from './resultsCsv';
import { rowKey, type OpenedResults, type ResultsOptions, type RowResult } from './resultTypes';

/** One line of a JSON Lines results file. */
export interface ResultLine {
  readonly line: number;
  readonly values: Readonly<Record<string, string>>;
  readonly ok: boolean;
  readonly status?: number;
  readonly code?: string;
  readonly answer?: unknown;
  readonly error?: RowResult['error'];
  readonly final: boolean;
  readonly at: string;
}

/** Opens the results file of a run: refused (before anything is sent) for a name that is neither format, or a CSV this run's columns do not fit. */
export async function openResults(options: ResultsOptions): Promise<OpenedResults> {
  const { outFile } = options;
  if (/\.csv$/i.test(outFile)) return openCsvResults({ ...options, columns: options.columns ?? [] });
  if (!/\.(jsonl|ndjson)$/i.test(outFile)) {
    return { ok: false, message: `--out ${outFile}: results are written as JSON Lines (.jsonl) or CSV (.csv); name the file with one of those extensions.` };
  }
  if ((options.columns ?? []).length > 0) {
    return { ok: false, message: `--column shapes a CSV; ${outFile} is JSON Lines, which holds each whole answer. Write --out with a .csv name, or leave out --column.` };
  }
  const { values, endsMidLine } = await readJsonLines(outFile);
  const latest = new Map<string, boolean>();
  for (const v of values) {
    const l = v as Partial<ResultLine> | null;
    // Appending to a file this run did not write (the data file itself, say) would spoil it.
    if (typeof l?.line !== 'number' || typeof l.values !== 'object' || l.values === null || typeof l.final !== 'boolean') {
      return { ok: false, message: `${outFile} is not a results file of a data-driven run; write the results to another --out file (a run appends to its own results only).` };
    }
    latest.set(rowKey(l.line, l.values), l.final);
  }
  const done = new Set([...latest].filter(([, final]) => final).map(([key]) => key));
  const file = await openAppender(outFile, options.readOnly);
  // A run killed mid-write left a line cut short; start on a fresh line so ours stay readable.
  if (endsMidLine) file.append('\n');
  const now = options.now ?? (() => new Date());
  return {
    ok: true,
    results: {
      outFile,
      isDone: (row) => done.has(rowKey(row.line, row.values)),
      write(r) {
        const line: ResultLine = {
          line: r.row.line,
          values: r.row.values,
          ok: r.ok,
          ...(r.status !== undefined ? { status: r.status } : {}),
          ...(r.code !== undefined ? { code: r.code } : {}),
          ...(r.answer !== undefined ? { answer: r.answer } : {}),
          ...(r.error !== undefined ? { error: r.error } : {}),
          final: r.final,
          at: now().toISOString(),
        };
        // safeJson: the same JSON, with characters that could drive a terminal escaped (the file gets `cat`).
        file.append(`${safeJson(line)}\n`);
      },
      close: () => file.close(),
    },
  };
}
