// Results as a CSV for a spreadsheet (`--out FILE.csv`): the data file's columns, then `line` (the
// row's line in the data file: with its values, what a later run recognises it by), `status`, `code`
// and one column per `--column NAME=JSONPATH`. RFC 4180 through csv-stringify, CRLF line ends, a
// UTF-8 BOM so that Excel reads the text as UTF-8, every cell spreadsheet-safe (resultColumns.ts).
// Only a row that is done with is written, so the file holds one line per input row however many
// runs it took; the JSON Lines output keeps the failures worth trying again. A line cut short by a
// kill is cut off before the next run appends, so the file stays one a spreadsheet opens. The file is
// read back as a stream (csv-parse), a record at a time.
import { parse, CsvError } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { safeLine } from '../sanitize';
import { DoneRows } from './doneRows';
import type { Journal } from './journal';
import { columnCell, spreadsheetSafe, type ResultColumn } from './resultColumns';
import { writtenValues, type OpenedResults, type ResultsOptions } from './resultTypes';

/** The columns the results add after the data file's own. */
export const RESULT_COLUMNS = ['line', 'status', 'code'] as const;

const BOM = '\uFEFF';
const cells = (row: readonly string[]): string => stringify([row.map(spreadsheetSafe)], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
/** A row's cells under the data file's columns ('' where the row has no value). */
const ownCells = (columns: readonly string[], values: Readonly<Record<string, string>>): string[] => columns.map((c) => (Object.hasOwn(values, c) ? values[c] : ''));
/** A row's values as the file holds them: what a row read back is compared by. */
const asWritten = (columns: readonly string[], cellsOf: readonly string[]): Record<string, string> => Object.fromEntries(columns.map((c, i) => [c, spreadsheetSafe(cellsOf[i] ?? '')]));

/** A data column or `--column` named like a column the results add, or a `--column` named like a data column. */
export function csvClash(own: readonly string[], columns: readonly ResultColumn[]): string | undefined {
  const added = own.find((c) => (RESULT_COLUMNS as readonly string[]).includes(c));
  if (added !== undefined) return `The data file has a column named "${added}", which a results CSV adds itself (${RESULT_COLUMNS.join(', ')}); rename that column, or write --out as a .jsonl file.`;
  for (const c of columns) {
    if ((RESULT_COLUMNS as readonly string[]).includes(c.name) || own.includes(c.name)) {
      return `--column ${safeLine(c.name)}=…: the results already have a column "${safeLine(c.name)}"; give this one another name.`;
    }
  }
  return undefined;
}

export async function openCsvResults(journal: Journal, options: ResultsOptions & { readonly columns: readonly ResultColumn[] }): Promise<OpenedResults> {
  const { outFile, dataColumns, columns, redact } = options;
  const header = [...dataColumns, ...RESULT_COLUMNS, ...columns.map((c) => c.name)];
  const before = await readDone(journal, outFile, header, dataColumns.length);
  if (!before.ok) return before;
  if (before.keep !== journal.size) await journal.truncate(before.keep);
  if (before.keep === 0) journal.append(BOM + cells(header));
  const { done } = before;
  const written = (values: Readonly<Record<string, string>>): string[] => ownCells(dataColumns, writtenValues(values, redact));
  return {
    ok: true,
    results: {
      outFile,
      isDone: (row) => done.has(row.line, asWritten(dataColumns, written(row.values))),
      write(r) {
        if (!r.final) return;
        journal.append(cells([...written(r.row.values), String(r.row.line), r.status !== undefined ? String(r.status) : '', r.code ?? '', ...columns.map((c) => columnCell(r.answer, c))]));
      },
      close: () => journal.close(),
    },
  };
}

type Done = { readonly ok: true; readonly done: DoneRows; readonly keep: number } | { readonly ok: false; readonly message: string };

/** The rows an earlier run wrote to the file, and how many of its bytes to keep (a record cut short is not kept). */
async function readDone(journal: Journal, outFile: string, header: readonly string[], own: number): Promise<Done> {
  const done = new DoneRows();
  if (journal.size === 0) return { ok: true, done, keep: 0 };
  const records: Array<{ fields: string[]; end: number }> = [];
  const parser = parse({
    bom: true,
    relax_column_count: true,
    on_record: (fields: string[], context: { bytes: number }) => {
      records.push({ fields, end: context.bytes });
      return null;
    },
  });
  parser.on('error', () => undefined);
  let first: string[] | undefined;
  let keep = 0;
  /** The last two chunks read and where they start, to tell a whole record (it ends with its CRLF, written in one write) from one cut short. */
  const recent: Array<{ readonly at: number; readonly bytes: Buffer }> = [];
  const byteAt = (offset: number): number | undefined => {
    const c = recent.find((r) => offset >= r.at && offset < r.at + r.bytes.length);
    return c?.bytes[offset - c.at];
  };
  const take = (): Done | undefined => {
    for (const r of records.splice(0)) {
      const whole = byteAt(r.end - 1) === 0x0a;
      if (!whole) continue;
      keep = r.end;
      if (!first) {
        first = r.fields;
        if (first.join('\u0000') !== header.map(spreadsheetSafe).join('\u0000')) {
          return {
            ok: false,
            message: `${outFile} has the columns ${first.map(safeLine).join(',')}, not the ${header.map(safeLine).join(',')} of this run; write the results to another --out file (or delete this one to start again).`,
          };
        }
        continue;
      }
      const line = Number(r.fields[own]);
      // Read back as written: the cells are already spreadsheet-safe, and stay so.
      if (Number.isInteger(line)) done.add(line, Object.fromEntries(header.slice(0, own).map((c, i) => [c, r.fields[i] ?? ''])), true);
    }
    return undefined;
  };
  let startBytes: Buffer | undefined;
  let offset = 0;
  for await (const chunk of journal.chunks()) {
    startBytes ??= chunk;
    recent.push({ at: offset, bytes: chunk });
    if (recent.length > 2) recent.shift();
    offset += chunk.length;
    parser.write(chunk);
    const refused = take();
    if (refused) return refused;
    if (parser.errored) break;
  }
  if (!parser.errored) parser.end();
  const refused = take();
  if (refused) return refused;
  // A kill inside a quoted cell leaves its quote open: the records before it are whole.
  if (parser.errored && !(parser.errored instanceof CsvError && parser.errored.code === 'CSV_QUOTE_NOT_CLOSED')) return notOurs(outFile);
  if (!first) {
    // Only the start of our own header (a kill while it was written) is started again; anything else is someone's file.
    const ours = Buffer.from(BOM + cells(header));
    const bytes = startBytes ?? Buffer.alloc(0);
    return journal.size <= ours.length && ours.subarray(0, bytes.length).equals(bytes) ? { ok: true, done, keep: 0 } : notOurs(outFile);
  }
  return { ok: true, done, keep };
}

const notOurs = (outFile: string): Done => ({
  ok: false,
  message: `${outFile} is not a results CSV of a data-driven run, and is left as it is; write the results to another --out file (a run appends to its own results only).`,
});
