// A CSV data file read as a stream (RFC 4180 by csv-parse: quoted commas, doubled quotes, line breaks
// in quotes, CRLF, a UTF-8 BOM), under a header row naming the columns. Records are taken from the
// parser as each chunk is parsed, so memory holds one chunk and one record however large the file;
// each row keeps the line it starts at (byteWindow.ts). What cannot be read is refused at its line:
// an unclosed quote at the line where the quote opened, a value or a row over the limits.
import { parse, CsvError } from 'csv-parse';
import { safeLine } from '../sanitize';
import { ByteWindow } from './byteWindow';
import { DataFileError, tooManyLines, type DataItem, type DataLimits } from './dataLimits';

interface Record {
  readonly fields: string[];
  /** File offset just past the record (its line break included). */
  readonly end: number;
}

/** The items of a CSV data file: its columns first, then its rows; a problem throws DataFileError. */
export async function* csvRows(chunks: AsyncIterable<Uint8Array>, file: string, limits: DataLimits): AsyncGenerator<DataItem, void> {
  const window = new ByteWindow();
  const records: Record[] = [];
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: limits.maxRowBytes,
    // Taken as parsed, not pushed downstream: the parser parses each written chunk at once, so the
    // records of a chunk are here when write() returns, and nothing queues between parser and reader.
    on_record: (fields: string[], context: { bytes: number }) => {
      records.push({ fields, end: context.bytes });
      return null;
    },
  });
  parser.on('error', () => undefined);
  const state = { columns: undefined as string[] | undefined, headerLine: 0, end: 0, rows: 0 };
  const refuse = (line: number | undefined, message: string): never => {
    throw new DataFileError({ file, ...(line !== undefined ? { line } : {}), message });
  };
  const take = function* (): Generator<DataItem> {
    for (const r of records.splice(0)) {
      const line = window.lineAt(window.recordStart(state.end));
      state.end = r.end;
      window.dropTo(r.end);
      if (!r.fields.some((f) => f !== '')) continue;
      yield* item(r.fields, line);
    }
  };
  const item = function* (fields: string[], line: number): Generator<DataItem> {
    const long = fields.findIndex((f) => f.length > limits.maxCellChars);
    if (!state.columns) {
      state.columns = header(fields, line, limits, refuse);
      state.headerLine = line;
      yield { kind: 'columns', columns: state.columns, line };
      return;
    }
    const { columns } = state;
    if (line > limits.maxLines) refuse(line, tooManyLines(limits));
    if (fields.length > columns.length) {
      refuse(line, `this row has ${fields.length} fields but the header names ${columns.length}; quote a value that holds a comma ("Acme, Inc."), or name the extra column in the header.`);
    }
    if (long >= 0) refuse(line, `the value of "${safeLine(columns[long])}" is ${fields[long].length} characters long; a value may have at most ${limits.maxCellChars}. Shorten it, or split it over columns.`);
    state.rows++;
    yield { kind: 'row', row: { line, values: Object.fromEntries(fields.map((value, i) => [columns[i], value])) } };
  };
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    window.add(bytes);
    parser.write(bytes);
    yield* take();
    if (parser.errored) refuse(...failure(parser.errored, window, state.end, limits));
  }
  parser.end();
  yield* take();
  if (parser.errored) refuse(...failure(parser.errored, window, state.end, limits));
  if (!state.columns) refuse(undefined, 'the file is empty; its first row names the columns (country,name,…) and each row below it is one run.');
  if (state.rows === 0) refuse(state.headerLine, 'the file has a header but no rows; add one row below it for each run.');
}

/** The header's names, trimmed, or the problem at its line. */
function header(fields: readonly string[], line: number, limits: DataLimits, refuse: (line: number, message: string) => never): string[] {
  const columns = fields.map((f) => f.trim());
  if (columns.length > limits.maxColumns) refuse(line, `the header names ${columns.length} columns; a data file may have at most ${limits.maxColumns}. Keep the columns the request file uses.`);
  const empty = columns.indexOf('');
  if (empty >= 0) refuse(line, `column ${empty + 1} of the header has no name; name every column (or delete the empty one).`);
  const twice = columns.find((c, i) => columns.indexOf(c) !== i);
  if (twice !== undefined) refuse(line, `the header names the column "${safeLine(twice)}" twice; give each column its own name.`);
  const long = columns.find((c) => c.length > limits.maxCellChars);
  if (long !== undefined) refuse(line, `a column's name is ${long.length} characters long; a name may have at most ${limits.maxCellChars}.`);
  return columns;
}

/** The line and message for what csv-parse could not read, in the record after the last one read (which ended at `end`). */
function failure(err: Error, window: ByteWindow, end: number, limits: DataLimits): [number, string] {
  const start = window.recordStart(end);
  const startLine = window.lineAt(start);
  if (!(err instanceof CsvError)) return [startLine, `${safeLine(err.message)}; save the file as CSV (RFC 4180) and try again.`];
  const quote = openQuoteAt(window.from(start));
  if (err.code === 'CSV_QUOTE_NOT_CLOSED' || (err.code === 'CSV_MAX_RECORD_SIZE' && quote !== undefined)) {
    // csv-parse names the end of the file (or of its buffer); the quote to close is where the unfinished record opened one.
    const at = window.lineAt(start + (quote ?? 0));
    return [at, 'a quote opens a field here and is never closed; close it, and write a quote inside a quoted field as two ("").'];
  }
  if (err.code === 'CSV_MAX_RECORD_SIZE') {
    return [startLine, `this row is longer than ${limits.maxRowBytes} bytes; a row may have at most that much. Shorten its values.`];
  }
  // The other failures are within the record that follows the last one read, on its first line or
  // a later one: csv-parse's own count, which is right where no quoted field holds a line break.
  const line = Math.max(startLine, typeof err.lines === 'number' ? err.lines : 0);
  if (err.code === 'CSV_INVALID_CLOSING_QUOTE') return [line, 'a quoted value goes on after its closing quote; quote the whole value and write a quote inside it as two (""), as "say ""hi"" twice".'];
  if (err.code === 'INVALID_OPENING_QUOTE') return [line, 'a quote in the middle of a value; quote the whole value and write the quote inside it as two (""), as "6"" pipe".'];
  return [line, `${safeLine(err.message)}; save the file as CSV (RFC 4180) and try again.`];
}

/** The offset (from the record's start) of a quote still open at the end of the bytes, reading RFC 4180; undefined when none is. */
function openQuoteAt(bytes: Buffer): number | undefined {
  let open = 0;
  let inQuotes = false;
  let fieldStart = true;
  for (let i = 0; i < bytes.length; i++) {
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
  return inQuotes ? open : undefined;
}
