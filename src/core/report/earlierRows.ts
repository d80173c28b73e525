// What an earlier run of a data-driven job finished, read from its results file before this run, so
// the report and the summary count the whole job: JSON Lines keep each row's verdict, status, code and
// failure; a results CSV holds only rows done with, by status and code, and no verdict. The one place
// a report reads a results file: a row the results module already holds as done (core/data) is
// looked up here by the same identity (its line and values; a CSV's by its line).
import { parse } from 'csv-parse/sync';
import { valuesDigest } from '../data/doneRows';
import { readOwnFile } from '../files/door';

const rowKey = (line: number, values: Readonly<Record<string, string>>): string => `${line}:${valuesDigest(values)}`;

/** A row an earlier run finished, as its results file says. */
export interface EarlierRow {
  /** The verdict; undefined when the file keeps none (CSV). */
  readonly ok?: boolean;
  readonly status?: number;
  readonly code?: string;
  /** The failure's words and advice, as written. */
  readonly text?: string;
}

export interface EarlierRows {
  /** The row's latest finished result before this run, if it had one. */
  of(row: { readonly line: number; readonly values: Readonly<Record<string, string>> }): EarlierRow | undefined;
}

const NONE: EarlierRows = { of: () => undefined };

/** The finished rows of a results file (.jsonl/.ndjson or .csv); none when there is no file yet. */
export async function readEarlierRows(outFile: string | undefined): Promise<EarlierRows> {
  if (outFile === undefined) return NONE;
  const bytes = await readOwnFile(outFile, 'a results file');
  if (bytes === undefined || bytes.length === 0) return NONE;
  const rows = /\.csv$/i.test(outFile) ? csvRows(bytes) : jsonRows(bytes.toString('utf8'));
  return { of: (row) => rows.get(rowKey(row.line, row.values)) ?? rows.get(`line ${row.line}`) };
}

function jsonRows(text: string): Map<string, EarlierRow> {
  const latest = new Map<string, EarlierRow | undefined>();
  for (const raw of text.split('\n')) {
    let l: { line?: unknown; values?: unknown; ok?: unknown; final?: unknown; status?: unknown; code?: unknown; error?: { text?: unknown; advice?: unknown } };
    try {
      l = JSON.parse(raw) as typeof l;
    } catch {
      continue; // a blank line, or one cut short by a kill: its row ran again
    }
    if (typeof l?.line !== 'number' || typeof l.values !== 'object' || l.values === null) continue;
    const key = rowKey(l.line, l.values as Record<string, string>);
    // Only the latest line of a row counts, and only when it finished the row.
    if (l.final !== true) {
      latest.set(key, undefined);
      continue;
    }
    const text = [l.error?.text, l.error?.advice].filter((t): t is string => typeof t === 'string').join(' ');
    latest.set(key, {
      ok: l.ok === true,
      ...(typeof l.status === 'number' ? { status: l.status } : {}),
      ...(typeof l.code === 'string' ? { code: l.code } : {}),
      ...(text !== '' ? { text } : {}),
    });
  }
  return new Map([...latest].filter((e): e is [string, EarlierRow] => e[1] !== undefined));
}

function csvRows(bytes: Buffer): Map<string, EarlierRow> {
  const rows = new Map<string, EarlierRow>();
  let records: Array<Record<string, string>>;
  try {
    records = parse(bytes, { bom: true, columns: true, relax_column_count: true, skip_records_with_error: true }) as Array<Record<string, string>>;
  } catch {
    return rows; // not ours: the results module refuses such a file before anything is sent
  }
  for (const r of records) {
    const line = Number(r.line);
    if (!Number.isInteger(line)) continue;
    const status = Number(r.status);
    rows.set(`line ${line}`, { ...(r.status !== '' && Number.isInteger(status) ? { status } : {}), ...(r.code ? { code: r.code } : {}) });
  }
  return rows;
}
