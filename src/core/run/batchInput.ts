// A batch's inputs: a list of IP addresses (the IP lookup's rows) or a CSV of organization queries
// (the organization lookup's rows), each an input of one of the batch's two built-in templates (batch.ts).
import type { LookupQuery } from '../model';
import { readRows, rowValue } from '../data/rows';

export interface BatchProblem {
  /** 1-based line of the input file. */
  readonly line: number;
  readonly message: string;
}

export interface ParsedBatch {
  readonly format: 'ip-list' | 'csv';
  readonly inputs: readonly LookupQuery[];
  /** Lines that could not be read as an input at all (values are checked later, per input). */
  readonly problems: readonly BatchProblem[];
}

const CSV_COLUMNS = ['country', 'name', 'territory'] as const;

/**
 * An IP list (one address per line; `#` comments and blank lines ignored) or, for a `.csv` file or
 * a text whose first line is the header `country,name,territory`, organization queries.
 */
export async function parseBatchInput(text: string, fileName: string): Promise<ParsedBatch> {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.split(/\r?\n/, 1)[0]?.trim().toLowerCase() ?? '';
  if (/\.csv$/i.test(fileName) || firstLine.startsWith('country,')) return parseCsvQueries(text, fileName);
  const inputs: LookupQuery[] = [];
  body.split(/\r?\n/).forEach((raw) => {
    const value = raw.replace(/#.*$/, '').trim();
    if (value !== '') inputs.push({ kind: 'ip', ip: value });
  });
  return { format: 'ip-list', inputs, problems: [] };
}

/** Organization queries from a CSV read by the data layer's reader (RFC 4180, core/data/rows.ts), under a header naming country and name (any case), territory optional. */
async function parseCsvQueries(text: string, fileName: string): Promise<ParsedBatch> {
  const read = await readRows(text, /\.csv$/i.test(fileName) ? fileName : `${fileName}.csv`);
  if (!read.ok) return { format: 'csv', inputs: [], problems: [{ line: read.problem.line ?? 1, message: read.problem.message }] };
  const { columns, headerLine = 1, rows } = read.table;
  const named = (name: string): string | undefined => columns.find((c) => c.trim().toLowerCase() === name);
  const country = named('country');
  const name = named('name');
  const territoryColumn = named('territory');
  if (country === undefined || name === undefined) {
    return { format: 'csv', inputs: [], problems: [{ line: headerLine, message: `The first row must be the header ${CSV_COLUMNS.join(',')} (territory is optional).` }] };
  }
  const inputs = rows.map((row): LookupQuery => {
    const territory = territoryColumn === undefined ? undefined : rowValue(row, territoryColumn)?.trim();
    return { kind: 'org', country: (rowValue(row, country) ?? '').trim(), name: (rowValue(row, name) ?? '').trim(), ...(territory ? { territory } : {}) };
  });
  return { format: 'csv', inputs, problems: [] };
}
