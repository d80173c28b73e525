// A JSON Lines data file (`.jsonl`, `.ndjson`) read as a stream: one object of strings, numbers and
// booleans a line, blank lines skipped, a UTF-8 BOM allowed. A line is cut from the chunks as they
// come and never held longer than the longest row allowed, so memory stays bounded whatever the file.
import { safeLine } from '../sanitize';
import { DataFileError, tooManyLines, type DataItem, type DataLimits } from './dataLimits';

/** The rows of a JSON Lines data file; a problem throws DataFileError at its line. */
export async function* jsonlRows(chunks: AsyncIterable<Uint8Array>, file: string, limits: DataLimits): AsyncGenerator<DataItem, void> {
  let pending: Buffer[] = [];
  let held = 0;
  let line = 0;
  let rows = 0;
  const refuse = (at: number, message: string): never => {
    throw new DataFileError({ file, line: at, message });
  };
  const one = (bytes: Buffer): DataItem | undefined => {
    line++;
    const text = (line === 1 ? bytes.toString('utf8').replace(/^\uFEFF/, '') : bytes.toString('utf8')).trim();
    if (text === '') return undefined;
    if (line > limits.maxLines) refuse(line, tooManyLines(limits));
    rows++;
    return { kind: 'row', row: { line, values: rowValues(text, line, limits, refuse) } };
  };
  for await (const chunk of chunks) {
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let lf = bytes.indexOf(0x0a); lf >= 0; lf = bytes.indexOf(0x0a)) {
      const whole = pending.length > 0 ? Buffer.concat([...pending, bytes.subarray(0, lf)]) : bytes.subarray(0, lf);
      pending = [];
      held = 0;
      if (whole.length > limits.maxRowBytes) refuse(line + 1, tooLong(limits));
      const item = one(whole);
      if (item) yield item;
      bytes = bytes.subarray(lf + 1);
    }
    held += bytes.length;
    if (held > limits.maxRowBytes) refuse(line + 1, tooLong(limits));
    if (bytes.length > 0) pending.push(Buffer.from(bytes));
  }
  if (held > 0) {
    const item = one(Buffer.concat(pending));
    if (item) yield item;
  }
  if (rows === 0) throw new DataFileError({ file, message: 'the file has no rows; write one JSON object a line, as {"country": "US", "name": "Acme"}.' });
}

const tooLong = (limits: DataLimits): string => `this line is longer than ${limits.maxRowBytes} bytes; a row may have at most that much. Shorten its values.`;

function rowValues(text: string, line: number, limits: DataLimits, refuse: (line: number, message: string) => never): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse(line, 'this line is not JSON; write each row as one object on one line, as {"country": "US", "name": "Acme"}.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse(line, 'this line is not a JSON object; write each row as one object on one line, as {"country": "US", "name": "Acme"}.');
  }
  const entries = Object.entries(value);
  if (entries.length > limits.maxColumns) refuse(line, `this row has ${entries.length} values; a row may have at most ${limits.maxColumns}. Keep the values the request file uses.`);
  const values: Array<[string, string]> = [];
  for (const [name, v] of entries) {
    const quoted = `"${safeLine(name.slice(0, 80))}"`;
    if (name.trim() === '') refuse(line, 'this row has a value with an empty name; name every value (its name is the variable, {{name}}).');
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      refuse(line, `the value of ${quoted} is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : 'an object'}; a row's values are strings, numbers or booleans (write nested data as a string).`);
    }
    const s = String(v);
    if (s.length > limits.maxCellChars || name.length > limits.maxCellChars) {
      refuse(line, `the value of ${quoted} is ${s.length} characters long; a value may have at most ${limits.maxCellChars}. Shorten it, or split it over values.`);
    }
    values.push([name, s]);
  }
  return Object.fromEntries(values);
}
