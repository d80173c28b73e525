// Whether a data file's rows give every variable the request file takes from them
// (requestVariables.ts `dataVariables` names those), checked before anything is sent. A CSV header
// without a used column is one problem at the header line; otherwise each row that lacks a value
// (a short CSV row, a JSON object without the key) is one at its line. An empty cell is a value, the
// empty text, as the file says; columns the request file does not use are fine.
import { safeLine } from '../sanitize';
import { rowValue, type DataProblem, type DataTable } from './rows';

/**
 * Every problem of the table for a request file that uses `variables` from its rows, in line order
 * (empty when the rows can be run). `requestFile` names the request file in the messages.
 */
export function checkRows(table: DataTable, variables: readonly string[], requestFile: string): DataProblem[] {
  const { file } = table;
  const list = (names: readonly string[]): string => names.map((n) => `"${safeLine(n)}"`).join(', ');
  if (table.format === 'csv') {
    const missing = variables.filter((v) => !table.columns.includes(v));
    if (missing.length > 0) {
      const uses = missing.map((n) => `{{${safeLine(n)}}}`).join(', ');
      return [{ file, line: table.headerLine, message: `the header has no ${missing.length === 1 ? 'column' : 'columns'} ${list(missing)}, which ${safeLine(requestFile)} uses as ${uses}; add ${missing.length === 1 ? 'it' : 'them'} to the header (a column for each variable the request file takes from the rows).` }];
    }
  }
  const problems: DataProblem[] = [];
  for (const row of table.rows) {
    const missing = variables.filter((v) => rowValue(row, v) === undefined);
    if (missing.length === 0) continue;
    const what = `${missing.length === 1 ? 'value' : 'values'} for ${list(missing)}`;
    const fix =
      table.format === 'csv'
        ? `give this row a value in the ${list(missing)} ${missing.length === 1 ? 'column' : 'columns'} (a row with fewer fields than the header lacks the last columns).`
        : `add ${missing.map((n) => `"${safeLine(n)}": "…"`).join(', ')} to this line's object.`;
    problems.push({ file, line: row.line, message: `this row has no ${what}, which ${safeLine(requestFile)} uses; ${fix}` });
  }
  return problems;
}
