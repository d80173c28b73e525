// The results of a data-driven run (issue 26), one per row, appended as each row is answered
// (journal.ts: kill -9 loses nothing written, never written through a link), and read back so that a
// second run with the same output skips the rows already done (doneRows.ts). A row's identity is its
// line and a digest of its values, so a row edited in the data file runs again. A row's values are
// written with every secret of the run withheld, as everything else a run writes. JSON Lines
// (`.jsonl`, `.ndjson`) keeps every result with the whole answer; CSV (resultsCsv.ts) keeps the input
// columns, status, code and `--column` cells, one line per row that is done with, for a spreadsheet.
import { FileRefused } from '../files/door';
import { safeJson } from '../sanitize';
import { DoneRows } from './doneRows';
import { jsonLines, openJournal, type Journal } from './journal';
import { csvClash, openCsvResults } from './resultsCsv';
import { writtenValues, type OpenedResults, type ResultsOptions, type RowResult } from './resultTypes';

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

/** How every line of ours starts: a line cut short by a kill still does. */
const RESULT_LINE_START = '{"line":';

/** What a results file is called in messages. */
const RESULTS_FILE = 'a results file';

/**
 * Opens the results file of a run: refused (before anything is sent) for a name that is neither
 * format, a link, a file that is not a results file of a data-driven run, or a CSV this run's
 * columns do not fit. The file is left as it was when refused.
 */
export async function openResults(options: ResultsOptions): Promise<OpenedResults> {
  const { outFile } = options;
  const csv = /\.csv$/i.test(outFile);
  if (!csv && !/\.(jsonl|ndjson)$/i.test(outFile)) {
    return { ok: false, message: `--out ${outFile}: results are written as JSON Lines (.jsonl) or CSV (.csv); name the file with one of those extensions.` };
  }
  if (!csv && (options.columns ?? []).length > 0) {
    return { ok: false, message: `--column shapes a CSV; ${outFile} is JSON Lines, which holds each whole answer. Write --out with a .csv name, or leave out --column.` };
  }
  const clash = csv ? csvClash(options.dataColumns, options.columns ?? []) : undefined;
  if (clash) return { ok: false, message: clash };
  let journal: Journal;
  try {
    journal = await openJournal(outFile, RESULTS_FILE);
  } catch (err) {
    if (err instanceof FileRefused) return { ok: false, message: err.message };
    throw err;
  }
  try {
    const opened = csv ? await openCsvResults(journal, { ...options, columns: options.columns ?? [] }) : await openJsonResults(journal, options);
    if (!opened.ok) await journal.close();
    return opened;
  } catch (err) {
    await journal.close();
    throw err;
  }
}

async function openJsonResults(journal: Journal, options: ResultsOptions): Promise<OpenedResults> {
  const { outFile, redact } = options;
  const done = new DoneRows();
  let endsMidLine = false;
  for await (const { text, cut: last } of jsonLines(journal.chunks())) {
    endsMidLine = last;
    if (text.trim() === '') continue;
    const l = parsed(text);
    // A kill in the middle of a write leaves a line cut short (the last, or one a later run ended): its row runs again.
    if (l === undefined && (text.startsWith(RESULT_LINE_START) || RESULT_LINE_START.startsWith(text))) continue;
    // Appending to a file this run did not write (notes, the data file itself) would spoil it.
    if (!isResultLine(l)) {
      return { ok: false, message: `${outFile} is not a results file of a data-driven run, and is left as it is; write the results to another --out file (a run appends to its own results only).` };
    }
    done.add(l.line, l.values, l.final);
  }
  // A run killed mid-write left a line cut short; start on a fresh line so ours stay readable.
  if (endsMidLine) journal.append('\n');
  const now = options.now ?? (() => new Date());
  return {
    ok: true,
    results: {
      outFile,
      isDone: (row) => done.has(row.line, writtenValues(row.values, redact)),
      write(r) {
        const line: ResultLine = {
          line: r.row.line,
          values: writtenValues(r.row.values, redact),
          ok: r.ok,
          ...(r.status !== undefined ? { status: r.status } : {}),
          ...(r.code !== undefined ? { code: r.code } : {}),
          ...(r.answer !== undefined ? { answer: r.answer } : {}),
          ...(r.error !== undefined ? { error: r.error } : {}),
          final: r.final,
          at: now().toISOString(),
        };
        // safeJson: the same JSON, with characters that could drive a terminal escaped (the file gets `cat`).
        journal.append(`${safeJson(line)}\n`);
      },
      close: () => journal.close(),
    },
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isResultLine(v: unknown): v is ResultLine {
  const l = v as Partial<ResultLine> | null;
  return typeof l === 'object' && l !== null && typeof l.line === 'number' && typeof l.values === 'object' && l.values !== null && typeof l.final === 'boolean';
}
