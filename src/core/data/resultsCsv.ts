// Results as a CSV for a spreadsheet (`--out FILE.csv`): the data file's columns, then `line` (the
// row's line in the data file: with its values, what a later run recognises it by), `status`, `code`
// and one column per `--column NAME=JSONPATH`. RFC 4180 through csv-stringify, CRLF line ends, a
// UTF-8 BOM so that Excel reads the text as UTF-8, every cell spreadsheet-safe (resultColumns.ts).
// Only a row that is done with is written, so the file holds one line per input row however many
// runs it took; the JSON Lines output keeps the failures worth trying again. A line cut short by a
// kill is cut off before the next run appends, so the file stays one a spreadsheet opens.
import { truncate } from 'node:fs/promises';
import { parse, CsvError } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { safeLine } from '../sanitize';
import { openAppender, readIfThere } from './journal';
import { columnCell, spreadsheetSafe, type ResultColumn } from './resultColumns';
import { rowKey, type OpenedResults, type ResultsOptions } from './resultTypes';

/** The columns the results add after the data file's own. */
export const RESULT_COLUMNS = ['line', 'status', 'code'] as const;

const BOM = '\uFEFF';
const cells = (row: readonly string[]): string => stringify([row.map(spreadsheetSafe)], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
/** A row's cells under the data file's columns ('' where the row has no value). */
const ownCells = (columns: readonly string[], values: Readonly<Record<string, string>>): string[] => columns.map((c) => (Object.hasOwn(values, c) ? values[c] : ''));
/** A row's values as the file holds them: what a row read back is compared by. */
const asWritten = (columns: readonly string[], cellsOf: readonly string[]): Record<string, string> => Object.fromEntries(columns.map((c, i) => [c, spreadsheetSafe(cellsOf[i] ?? '')]));

export async function openCsvResults(options: ResultsOptions & { readonly columns: readonly ResultColumn[] }): Promise<OpenedResults> {
  const { outFile, table, columns } = options;
  const clash = clashOf(table.columns, columns);
  if (clash) return { ok: false, message: clash };
  const header = [...table.columns, ...RESULT_COLUMNS, ...columns.map((c) => c.name)];
  const before = await readDone(outFile, header, table.columns.length);
  if (!before.ok) return before;
  if (before.keep !== before.size && options.readOnly !== true) await truncate(outFile, before.keep);
  const file = await openAppender(outFile, options.readOnly);
  if (before.keep === 0) file.append(BOM + cells(header));
  const { done } = before;
  return {
    ok: true,
    results: {
      outFile,
      isDone: (row) => done.has(rowKey(row.line, asWritten(table.columns, ownCells(table.columns, row.values)))),
      write(r) {
        if (!r.final) return;
        file.append(cells([...ownCells(table.columns, r.row.values), String(r.row.line), r.status !== undefined ? String(r.status) : '', r.code ?? '', ...columns.map((c) => columnCell(r.answer, c))]));
      },
      close: () => file.close(),
    },
  };
}

/** A data column or `--column` named like a column the results add, or a `--column` named like a data column. */
function clashOf(own: readonly string[], columns: readonly ResultColumn[]): string | undefined {
  const added = own.find((c) => (RESULT_COLUMNS as readonly string[]).includes(c));
  if (added !== undefined) return `The data file has a column named "${added}", which a results CSV adds itself (${RESULT_COLUMNS.join(', ')}); rename that column, or write --out as a .jsonl file.`;
  for (const c of columns) {
    if ((RESULT_COLUMNS as readonly string[]).includes(c.name) || own.includes(c.name)) {
      return `--column ${safeLine(c.name)}=…: the results already have a column "${safeLine(c.name)}"; give this one another name.`;
    }
  }
  return undefined;
}

type Done = { readonly ok: true; readonly done: Set<string>; readonly keep: number; readonly size: number } | { readonly ok: false; readonly message: string };

/** The rows an earlier run wrote to the file, and how many of its bytes to keep (a record cut short is not kept). */
async function readDone(outFile: string, header: readonly string[], own: number): Promise<Done> {
  const bytes = await readIfThere(outFile);
  const done = new Set<string>();
  if (bytes === undefined || bytes.length === 0) return { ok: true, done, keep: 0, size: 0 };
  const records: Array<{ fields: string[]; end: number }> = [];
  try {
    parse(bytes, {
      bom: true,
      relax_column_count: true,
      on_record: (fields: string[], context: { bytes: number }) => {
        records.push({ fields, end: context.bytes });
        return null;
      },
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    // A kill inside a quoted cell leaves its quote open: the records before it are whole.
    if (err.code !== 'CSV_QUOTE_NOT_CLOSED') return notOurs(outFile);
  }
  // Every record is written with its CRLF in one write: one that does not end with it was cut short.
  const whole = records.filter((r) => bytes[r.end - 1] === 0x0a);
  const [first, ...rows] = whole;
  if (!first) {
    // Only the start of our own header (a kill while it was written) is started again; anything else is someone's file.
    return Buffer.from(BOM + cells(header)).subarray(0, bytes.length).equals(bytes) ? { ok: true, done, keep: 0, size: bytes.length } : notOurs(outFile);
  }
  if (first.fields.join('\u0000') !== header.map(spreadsheetSafe).join('\u0000')) {
    return {
      ok: false,
      message: `${outFile} has the columns ${first.fields.map(safeLine).join(',')}, not the ${header.map(safeLine).join(',')} of this run; write the results to another --out file (or delete this one to start again).`,
    };
  }
  for (const { fields } of rows) {
    const line = Number(fields[own]);
    if (!Number.isInteger(line)) continue;
    // Read back as written: the cells are already spreadsheet-safe, and stay so.
    done.add(rowKey(line, Object.fromEntries(header.slice(0, own).map((c, i) => [c, fields[i] ?? '']))));
  }
  return { ok: true, done, keep: whole[whole.length - 1].end, size: bytes.length };
}

const notOurs = (outFile: string): Done => ({
  ok: false,
  message: `${outFile} is not a results CSV of a data-driven run; write the results to another --out file (a run appends to its own results only).`,
});
