// The rows of a data file (issue 26): a request file runs once per row, each column a variable. CSV
// (csvRows.ts) or JSON Lines (jsonlRows.ts) by the file's name, read as a stream within the limits of
// dataLimits.ts. Every row keeps its 1-based line in the file, so every message can say FILE:LINE,
// and its values as strings. A file that cannot be read is refused at its line.
import { Readable } from 'node:stream';
import { csvRows } from './csvRows';
import { DATA_LIMITS, DataFileError, type DataItem, type DataLimits, type DataProblem, type DataRow } from './dataLimits';
import { jsonlRows } from './jsonlRows';

export { problemText, type DataProblem, type DataRow } from './dataLimits';

export type DataFormat = 'csv' | 'jsonl';

export interface DataTable {
  /** The data file as the user named it, for FILE:LINE messages. */
  readonly file: string;
  readonly format: DataFormat;
  /** The header's names (CSV), or every key in the order first met (JSON Lines). */
  readonly columns: readonly string[];
  /** The header row's line (CSV only). */
  readonly headerLine?: number;
  readonly rows: readonly DataRow[];
}

export type ReadRows = { readonly ok: true; readonly table: DataTable } | { readonly ok: false; readonly problem: DataProblem };

/** A row's value for a column, never one of Object.prototype's. */
export function rowValue(row: DataRow, column: string): string | undefined {
  return Object.hasOwn(row.values, column) ? row.values[column] : undefined;
}

/** The format a file name says, or undefined for a name that says neither. */
export function dataFormat(fileName: string): DataFormat | undefined {
  return /\.csv$/i.test(fileName) ? 'csv' : /\.(jsonl|ndjson)$/i.test(fileName) ? 'jsonl' : undefined;
}

/** Why a file name is no data file's. */
export const NOT_A_DATA_FILE = 'a data file is CSV (.csv, with a header row) or JSON Lines (.jsonl or .ndjson, one object a line); rename it to say which.';

/** The items of a data file's bytes, as they come: a problem throws DataFileError at its line. */
export function dataItems(chunks: AsyncIterable<Uint8Array>, file: string, format: DataFormat, limits: DataLimits = DATA_LIMITS): AsyncGenerator<DataItem, void> {
  return format === 'csv' ? csvRows(chunks, file, limits) : jsonlRows(chunks, file, limits);
}

/** A whole data file's rows in memory (a batch's inputs, a small file), or the first problem. */
export async function readRows(text: string | Uint8Array, fileName: string, limits: DataLimits = DATA_LIMITS): Promise<ReadRows> {
  const format = dataFormat(fileName);
  if (format === undefined) return { ok: false, problem: { file: fileName, message: NOT_A_DATA_FILE } };
  const rows: DataRow[] = [];
  const columns = new Set<string>();
  let headerLine: number | undefined;
  try {
    for await (const item of dataItems(Readable.from([Buffer.from(text)]), fileName, format, limits)) {
      if (item.kind === 'columns') {
        headerLine = item.line;
        for (const c of item.columns) columns.add(c);
        continue;
      }
      rows.push(item.row);
      if (format === 'jsonl') for (const c of Object.keys(item.row.values)) columns.add(c);
    }
  } catch (err) {
    if (err instanceof DataFileError) return { ok: false, problem: err.problem };
    throw err;
  }
  return { ok: true, table: { file: fileName, format, columns: [...columns], ...(headerLine !== undefined ? { headerLine } : {}), rows } };
}
