// A batch's inputs: a list of IP addresses (the IP lookup's rows) or a CSV of organization queries
// (the organization lookup's rows), each an input of one of the batch's two built-in templates (batch.ts).
import type { LookupQuery } from '../model';

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
export function parseBatchInput(text: string, fileName: string): ParsedBatch {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.split(/\r?\n/, 1)[0]?.trim().toLowerCase() ?? '';
  if (/\.csv$/i.test(fileName) || firstLine.startsWith('country,')) return parseCsvQueries(body);
  const inputs: LookupQuery[] = [];
  body.split(/\r?\n/).forEach((raw) => {
    const value = raw.replace(/#.*$/, '').trim();
    if (value !== '') inputs.push({ kind: 'ip', ip: value });
  });
  return { format: 'ip-list', inputs, problems: [] };
}

function parseCsvQueries(text: string): ParsedBatch {
  const rows = parseCsv(text);
  const problems: BatchProblem[] = [];
  const inputs: LookupQuery[] = [];
  const header = rows.shift();
  const columns = header?.fields.map((h) => h.trim().toLowerCase()) ?? [];
  const at = (name: string): number => columns.indexOf(name);
  if (!header || at('country') < 0 || at('name') < 0) {
    return {
      format: 'csv',
      inputs,
      problems: [{ line: header?.line ?? 1, message: `The first row must be the header ${CSV_COLUMNS.join(',')} (territory is optional).` }],
    };
  }
  for (const row of rows) {
    if (row.fields.every((f) => f.trim() === '')) continue;
    if (row.fields.length > columns.length) {
      problems.push({ line: row.line, message: `This row has ${row.fields.length} fields but the header has ${columns.length}; quote names that contain commas.` });
      continue;
    }
    const field = (name: string): string | undefined => (at(name) >= 0 ? row.fields[at(name)] : undefined);
    const territory = field('territory')?.trim();
    inputs.push({
      kind: 'org',
      country: (field('country') ?? '').trim(),
      name: (field('name') ?? '').trim(),
      ...(territory ? { territory } : {}),
    });
  }
  return { format: 'csv', inputs, problems };
}

/** RFC 4180 fields: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): Array<{ line: number; fields: string[] }> {
  const rows: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      rows.push({ line: rowLine, fields });
      fields = [];
      field = '';
      line++;
      rowLine = line;
    } else {
      field += ch;
    }
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    rows.push({ line: rowLine, fields });
  }
  return rows;
}
