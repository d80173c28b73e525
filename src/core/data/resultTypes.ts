// The types a results file is written through (results.ts for JSON Lines, resultsCsv.ts for CSV), and
// the one identity of a row for resuming.
import type { ResultColumn } from './resultColumns';
import type { DataRow } from './rows';

/** What became of one row, as the run engine tells it. */
export interface RowResult {
  readonly row: DataRow;
  readonly ok: boolean;
  readonly status?: number;
  readonly code?: string;
  /** The answer's JSON (redacted), when it had one. */
  readonly answer?: unknown;
  readonly error?: { readonly kind: string; readonly text: string; readonly meaning?: string; readonly advice: string };
  /** Done with: a later run skips it. False for what is worth trying again (network, limits, a stopped run). */
  readonly final: boolean;
}

/** A results file open for a run. */
export interface ResultsFile {
  readonly outFile: string;
  /** Whether the file already holds this row as done (same line, same values). */
  isDone(row: DataRow): boolean;
  /** Appends the row's result now (CSV: only a final one, so a spreadsheet has one line per row). */
  write(result: RowResult): void;
  close(): Promise<void>;
}

export interface ResultsOptions {
  /** `.jsonl`, `.ndjson` or `.csv`. */
  readonly outFile: string;
  /** The data file's columns (a CSV's header, every key of a JSON Lines file), for a results CSV. */
  readonly dataColumns: readonly string[];
  /** The run's one redaction: a row's values are written (and recognised again) with every secret of the run withheld. */
  readonly redact?: (text: string) => string;
  /** `--column` flags (resultColumns.ts `parseColumnFlags`); CSV only. */
  readonly columns?: readonly ResultColumn[];
  /** When each result was written (JSON Lines' `at`); the time now by default. */
  readonly now?: () => Date;
}

export type OpenedResults = { readonly ok: true; readonly results: ResultsFile } | { readonly ok: false; readonly message: string };

/** A row's values as a results file writes them: every secret of the run withheld. */
export function writtenValues(values: Readonly<Record<string, string>>, redact: ((text: string) => string) | undefined): Record<string, string> {
  return redact ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, redact(v)])) : { ...values };
}
