// The rows of a data file (issue 26): a request file runs once per row, each column a variable.
// CSV is read as RFC 4180 by csv-parse (quoted commas, doubled quotes, line breaks in quotes, CRLF,
// a UTF-8 BOM), under a header row naming the columns; JSON Lines (`.jsonl`, `.ndjson`) holds one
// object of strings, numbers and booleans a line. Every row keeps its 1-based line in the file, so
// every message can say FILE:LINE, and its values as strings. A file that cannot be read is refused
// at its line: an unclosed quote at the line where the quote opened.
import { parse, CsvError } from 'csv-parse/sync';
import { safeLine } from '../sanitize';

/** One row: its first line in the data file and its values by column name (own keys only). */
export interface DataRow {
  readonly line: number;
  readonly values: Readonly<Record<string, string>>;
}

export interface DataTable {
  /** The data file as the user named it, for FILE:LINE messages. */
  readonly file: string;
  readonly format: 'csv' | 'jsonl';
  /** The header's names (CSV), or every key in the order first met (JSON Lines). */
  readonly columns: readonly string[];
  /** The header row's line (CSV only). */
  readonly headerLine?: number;
  readonly rows: readonly DataRow[];
}

/** What is wrong with a data file, at its 1-based line (absent when it is the file as a whole). */
export interface DataProblem {
  readonly file: string;
  readonly line?: number;
  readonly message: string;
}

export type ReadRows = { readonly ok: true; readonly table: DataTable } | { readonly ok: false; readonly problem: DataProblem };

/** A problem as the command line and the editor write it: `FILE:LINE: message`. */
export function problemText(p: DataProblem): string {
  return `${p.file}${p.line !== undefined ? `:${p.line}` : ''}: ${p.message}`;
}

/** A row's value for a column, never one of Object.prototype's. */
export function rowValue(row: DataRow, column: string): string | undefined {
  return Object.hasOwn(row.values, column) ? row.values[column] : undefined;
}

/** The format a file name says, or undefined for a name that says neither. */
export function dataFormat(fileName: string): DataTable['format'] | undefined {
  return /\.csv$/i.test(fileName) ? 'csv' : /\.(jsonl|ndjson)$/i.test(fileName) ? 'jsonl' : undefined;
}

/** The rows of a data file's text, by its name's extension, or the first problem. */
export function readRows(text: string, fileName: string): ReadRows {
  const format = dataFormat(fileName);
  if (format === 'csv') return readCsv(text, fileName);
  if (format === 'jsonl') return readJsonLines(text, fileName);
  return refuse(fileName, undefined, 'a data file is CSV (.csv, with a header row) or JSON Lines (.jsonl or .ndjson, one object a line); rename it to say which.');
}

const refuse = (file: string, line: number | undefined, message: string): ReadRows => ({ ok: false, problem: { file, ...(line !== undefined ? { line } : {}), message } });
const quoted = (name: string): string => `"${safeLine(name)}"`;

function readCsv(text: string, file: string): ReadRows {
  const bytes = Buffer.from(text, 'utf8');
  const lines = new LineCounter(bytes);
  const records: Array<{ fields: string[]; line: number }> = [];
  let end = 0;
  try {
    parse(bytes, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (fields: string[], context: { bytes: number }) => {
        records.push({ fields, line: lines.lineAt(recordStart(bytes, end)) });
        end = context.bytes;
        return null;
      },
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    return refuse(file, ...csvFailure(err, bytes, end, lines));
  }
  const kept = records.filter((r) => r.fields.some((f) => f !== ''));
  const header = kept.shift();
  if (!header) return refuse(file, undefined, 'the file is empty; its first row names the columns (country,name,…) and each row below it is one run.');
  const columns = header.fields.map((f) => f.trim());
  const empty = columns.indexOf('');
  if (empty >= 0) return refuse(file, header.line, `column ${empty + 1} of the header has no name; name every column (or delete the empty one).`);
  const twice = columns.find((c, i) => columns.indexOf(c) !== i);
  if (twice !== undefined) return refuse(file, header.line, `the header names the column ${quoted(twice)} twice; give each column its own name.`);
  if (kept.length === 0) return refuse(file, header.line, 'the file has a header but no rows; add one row below it for each run.');
  const rows: DataRow[] = [];
  for (const r of kept) {
    if (r.fields.length > columns.length) {
      return refuse(file, r.line, `this row has ${r.fields.length} fields but the header names ${columns.length}; quote a value that holds a comma ("Acme, Inc."), or name the extra column in the header.`);
    }
    rows.push({ line: r.line, values: Object.fromEntries(r.fields.map((value, i) => [columns[i], value])) });
  }
  return { ok: true, table: { file, format: 'csv', columns, headerLine: header.line, rows } };
}

/** Where a record starts: after the end of the one before and any empty lines between them. */
function recordStart(bytes: Buffer, from: number): number {
  let at = from;
  while (at < bytes.length && (bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
  return at;
}

/** The line and message for what csv-parse could not read. */
function csvFailure(err: CsvError, bytes: Buffer, end: number, lines: LineCounter): [number, string] {
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
    // csv-parse names the end of the file; the quote to close is where the unfinished record opened one.
    return [lines.lineAt(openQuoteAt(bytes, recordStart(bytes, end))), 'a quote opens a field here and is never closed; close it, and write a quote inside a quoted field as two ("").'];
  }
  // The other failures are within the record that follows the last one read, on its first line or
  // a later one: csv-parse's own count, which is right where no quoted field holds a line break.
  const line = Math.max(lines.lineAt(recordStart(bytes, end)), typeof err.lines === 'number' ? err.lines : 0);
  if (err.code === 'CSV_INVALID_CLOSING_QUOTE') return [line, 'a quoted value goes on after its closing quote; quote the whole value and write a quote inside it as two (""), as "say ""hi"" twice".'];
  if (err.code === 'INVALID_OPENING_QUOTE') return [line, 'a quote in the middle of a value; quote the whole value and write the quote inside it as two (""), as "6"" pipe".'];
  return [line, `${safeLine(err.message)}; save the file as CSV (RFC 4180) and try again.`];
}

/** The offset of the quote that is still open at the end of the text, reading RFC 4180 from `from`. */
function openQuoteAt(bytes: Buffer, from: number): number {
  let open = from;
  let inQuotes = false;
  let fieldStart = true;
  for (let i = from; i < bytes.length; i++) {
    const b = bytes[i];
    if (inQuotes) {
      if (b === 0x22 && bytes[i + 1] === 0x22) i++;
      else if (b === 0x22) inQuotes = false;
    } else if (b === 0x22 && fieldStart) {
      inQuotes = true;
      open = i;
    }
    if (!inQuotes) fieldStart = b === 0x2c || b === 0x0a || b === 0x0d;
  }
  return open;
}

/** 1-based line numbers of byte offsets, counting line feeds, for offsets asked in increasing order. */
class LineCounter {
  private at = 0;
  private line = 1;
  constructor(private readonly bytes: Buffer) {}

  lineAt(offset: number): number {
    if (offset < this.at) {
      this.at = 0;
      this.line = 1;
    }
    for (; this.at < offset && this.at < this.bytes.length; this.at++) if (this.bytes[this.at] === 0x0a) this.line++;
    return this.line;
  }
}

function readJsonLines(text: string, file: string): ReadRows {
  const columns = new Set<string>();
  const rows: DataRow[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return refuse(file, line, 'this line is not JSON; write each row as one object on one line, as {"country": "US", "name": "Acme"}.');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return refuse(file, line, 'this line is not a JSON object; write each row as one object on one line, as {"country": "US", "name": "Acme"}.');
    }
    const values: Array<[string, string]> = [];
    for (const [name, v] of Object.entries(value)) {
      if (name.trim() === '') return refuse(file, line, 'this row has a value with an empty name; name every value (its name is the variable, {{name}}).');
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        return refuse(file, line, `the value of ${quoted(name)} is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : 'an object'}; a row's values are strings, numbers or booleans (write nested data as a string).`);
      }
      values.push([name, String(v)]);
      columns.add(name);
    }
    rows.push({ line, values: Object.fromEntries(values) });
  }
  if (rows.length === 0) return refuse(file, undefined, 'the file has no rows; write one JSON object a line, as {"country": "US", "name": "Acme"}.');
  return { ok: true, table: { file, format: 'jsonl', columns: [...columns], rows } };
}
