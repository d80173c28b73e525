// What a streamed data file gives its reader, and the bounds that keep a stranger's file from taking
// the machine: a value, a row and a header have a most, each refused at its line (ROWS:LINE).

/** One row: its first line in the data file and its values by column name (own keys only). */
export interface DataRow {
  readonly line: number;
  readonly values: Readonly<Record<string, string>>;
}

/** What is wrong with a data file, at its 1-based line (absent when it is the file as a whole). */
export interface DataProblem {
  readonly file: string;
  readonly line?: number;
  readonly message: string;
}

/** What a reader gives, in order: a CSV's columns (at its header line) before its rows. */
export type DataItem = { readonly kind: 'columns'; readonly columns: readonly string[]; readonly line: number } | { readonly kind: 'row'; readonly row: DataRow };

export interface DataLimits {
  /** The longest value (and column name), in characters. */
  readonly maxCellChars: number;
  /** The most columns a header (or a JSON Lines row) may have. */
  readonly maxColumns: number;
  /** The longest row as read (a CSV record, a JSON Lines line), in bytes. */
  readonly maxRowBytes: number;
  /** The last line a row may start at: a results file knows a row by its line (doneRows.ts). */
  readonly maxLines: number;
}

/**
 * The last line of a data file a row may start at (134,217,728, a file of some gigabytes): a results
 * file names its rows by line, and what holds a job's rows by line (doneRows.ts, earlierRows.ts)
 * holds none past it, whatever line numbers a results file from elsewhere writes.
 */
export const MAX_DATA_LINE = 2 ** 27;

/**
 * A value as long as a request may carry in a URL or a header (8 KiB is what servers take in a
 * request line), with room for a body's text; a row of many such values; columns enough for any
 * spreadsheet a request file is fed from.
 */
export const DATA_LIMITS: DataLimits = { maxCellChars: 64 * 1024, maxColumns: 1000, maxRowBytes: 1024 * 1024, maxLines: MAX_DATA_LINE };

/** What is said of a row past the last line a data file may have. */
export function tooManyLines(limits: DataLimits): string {
  const most = limits.maxLines.toLocaleString('en');
  return `a data file may have at most ${most} lines, as a results file knows each row by its line. ` + 'Split the file into parts, each run with a results file of its own.';
}

/** A data file that cannot be read, at its line. */
export class DataFileError extends Error {
  constructor(readonly problem: DataProblem) {
    super(problemText(problem));
  }
}

/** A problem as the command line and the editor write it: `FILE:LINE: message`. */
export function problemText(p: DataProblem): string {
  return `${p.file}${p.line !== undefined ? `:${p.line}` : ''}: ${p.message}`;
}
