// Whether a data file's rows give every variable the request file takes from them
// (requestVariables.ts `dataVariables` names those), checked before anything is sent, as the whole
// file streams by (checkData). A CSV header without a used column is one problem at the header line;
// otherwise each row that lacks a value (a short CSV row, a JSON object without the key) is one at its
// line. An empty cell is a value, the empty text, as the file says; columns the request file does not
// use are fine. A file that cannot be read is refused at its line (dataLimits.ts).
import { safeLine } from '../sanitize';
import { DataFileError, type DataProblem, type DataRow } from './dataLimits';
import type { DataSource } from './dataSource';
import { rowValue, type DataFormat } from './rows';

/** What a data file came to: its columns and rows counted, or its problems (the first few, and how many more). */
export type DataCheck =
  | { readonly ok: true; readonly columns: readonly string[]; readonly headerLine?: number; readonly rows: number }
  | { readonly ok: false; readonly problems: readonly DataProblem[]; readonly more: number };

/** The problems shown of a file whose rows lack values; the rest are counted. */
const SHOWN = 20;

/**
 * Reads the whole data file once and checks it for a request file that uses `variables` from its
 * rows. `requestFile` names the request file in the messages.
 */
export async function checkData(source: DataSource, variables: readonly string[], requestFile: string): Promise<DataCheck> {
  const problems: DataProblem[] = [];
  let more = 0;
  const columns = new Set<string>();
  let headerLine: number | undefined;
  let rows = 0;
  try {
    for await (const item of source.items()) {
      if (item.kind === 'columns') {
        headerLine = item.line;
        for (const c of item.columns) columns.add(c);
        const header = headerProblem(source.file, item.columns, item.line, variables, requestFile);
        if (header) return { ok: false, problems: [header], more: 0 };
        continue;
      }
      rows++;
      if (source.format === 'jsonl') for (const c of Object.keys(item.row.values)) columns.add(c);
      const problem = rowProblem(source.file, source.format, item.row, variables, requestFile);
      if (!problem) continue;
      if (problems.length < SHOWN) problems.push(problem);
      else more++;
    }
  } catch (err) {
    if (!(err instanceof DataFileError)) throw err;
    return { ok: false, problems: [...problems, err.problem], more };
  }
  if (problems.length > 0) return { ok: false, problems, more };
  return { ok: true, columns: [...columns], ...(headerLine !== undefined ? { headerLine } : {}), rows };
}

const list = (names: readonly string[]): string => names.map((n) => `"${safeLine(n)}"`).join(', ');

/** A CSV header without a column the request file uses: every row lacks it. */
export function headerProblem(file: string, columns: readonly string[], line: number, variables: readonly string[], requestFile: string): DataProblem | undefined {
  const missing = variables.filter((v) => !columns.includes(v));
  if (missing.length === 0) return undefined;
  const uses = missing.map((n) => `{{${safeLine(n)}}}`).join(', ');
  return {
    file,
    line,
    message: `the header has no ${missing.length === 1 ? 'column' : 'columns'} ${list(missing)}, which ${safeLine(requestFile)} uses as ${uses}; add ${missing.length === 1 ? 'it' : 'them'} to the header (a column for each variable the request file takes from the rows).`,
  };
}

/** A row without a value for a variable the request file uses. */
export function rowProblem(file: string, format: DataFormat, row: DataRow, variables: readonly string[], requestFile: string): DataProblem | undefined {
  const missing = variables.filter((v) => rowValue(row, v) === undefined);
  if (missing.length === 0) return undefined;
  const what = `${missing.length === 1 ? 'value' : 'values'} for ${list(missing)}`;
  const fix =
    format === 'csv'
      ? `give this row a value in the ${list(missing)} ${missing.length === 1 ? 'column' : 'columns'} (a row with fewer fields than the header lacks the last columns).`
      : `add ${missing.map((n) => `"${safeLine(n)}": "…"`).join(', ')} to this line's object.`;
  return { file, line: row.line, message: `this row has no ${what}, which ${safeLine(requestFile)} uses; ${fix}` };
}
