// `bizdata check FILE... [--json]`: result codes in saved responses, found by the same recogniser as
// the client's and the editor's, one line per finding in the form compilers use.
import { parse as parseJson, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { readFile } from 'node:fs/promises';
import type { CodeBook } from '../core/codes/codes';
import { fileProblem } from '../core/readText';
import { lineColumns, locateCodes, type CodeLocation } from '../core/codes/locateCodes';
import { explainLine } from '../core/codes/recognise';
import { safeJson, safeLine } from '../core/sanitize';
import { codesFrom, parse } from './args';
import { EXIT, UsageError, type CliIo } from './io';

export const CHECK_HELP = `Usage: bizdata check FILE... [--json] [--codes FILE]

Scans saved responses (JSON files; .jsonl and .ndjson files line by line, such as batch results)
for the service's result codes, in every shape the service answers in, and prints one line per code:

  FILE:LINE:COL: error|warning|info CODE: text — meaning what to do

A code the specification lists shows the specification's text, followed by the service's own
words (The service said: "…") when they differ. Any other code shows the service's own text
(ResultText and ResultMessage, errorMessage, error_description) when the answer carries one,
else the catalog's. The meaning is always the catalog's. Codes outside the catalog say they are
not in the catalog.

  --json               one JSON array instead: [{"file", "line", "column", "endLine", "endColumn",
                       "severity", "code", "text", "alsoSaid", "meaning", "action", "known"}]
                       ("alsoSaid": the service's words beside a spec code's text, when they
                       differ; "meaning" for codes in the catalog); lines and columns are 1-based, in characters; the
                       range covers the code's value without quotes, endColumn just after its last
                       character
  --codes FILE         your own descriptions of codes (schemas/codes.schema.json) [BIZDATA_CODES_FILE]

Exit status: 0 no error found, 1 an error code was found, 2 a file cannot be read or is not JSON.
`;

export interface CheckFinding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: CodeLocation['severity'];
  readonly code: string;
  readonly text: string;
  /** The service's own words, beside `text` when they differ from a spec code's text. */
  readonly alsoSaid?: string;
  readonly meaning?: string;
  readonly action: string;
  readonly known: boolean;
}

export async function runCheckCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' }, codes: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help) {
    io.stdout.write(CHECK_HELP);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError('Give one or more response files: bizdata check FILE... See "bizdata check --help".');
  const codes = codesFrom(values.codes, io.env);
  const findings: CheckFinding[] = [];
  let unreadable = false;
  for (const file of positionals) {
    const scanned = await scanFile(file, codes);
    if (typeof scanned === 'string') {
      io.stderr.write(`${safeLine(scanned)}\n`);
      unreadable = true;
    } else {
      findings.push(...scanned);
    }
  }
  if (values.json) io.stdout.write(`${safeJson(findings, 2)}\n`);
  else for (const f of findings) io.stdout.write(`${safeLine(`${f.file}:${f.line}:${f.column}: ${f.severity} ${f.code}: ${explainLine(f)}`)}\n`);
  if (unreadable) return EXIT.usage;
  return findings.some((f) => f.severity === 'error') ? EXIT.other : EXIT.ok;
}

/** The findings of one file, or why it cannot be checked. */
async function scanFile(file: string, codes: CodeBook): Promise<CheckFinding[] | string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return `${file}: cannot be read: ${fileProblem(err, file)}.`;
  }
  const found = codesInText(file, text, codes);
  if (typeof found === 'string') return found;
  return found.map(({ at, found: f }) => ({
    ...at,
    severity: f.severity,
    code: f.code,
    text: f.text,
    ...(f.alsoSaid !== undefined ? { alsoSaid: f.alsoSaid } : {}),
    ...(f.meaning !== undefined ? { meaning: f.meaning } : {}),
    action: f.action,
    known: f.known,
  }));
}

/** A code found in a file: where (1-based lines and columns), and what the recogniser made of it. */
export interface FoundInFile {
  readonly at: Pick<CheckFinding, 'file' | 'line' | 'column' | 'endLine' | 'endColumn'>;
  readonly found: CodeLocation;
}

/**
 * The codes of a file's text (a .jsonl or .ndjson file line by line), or why it cannot be read:
 * "FILE:LINE:COL: not JSON (…)".
 */
export function codesInText(file: string, raw: string, codes: CodeBook): FoundInFile[] | string {
  const text = raw.replace(/^\uFEFF/, '');
  const lines = /\.(jsonl|ndjson)$/i.test(file);
  const located: CodeLocation[] = [];
  let base = 0;
  for (const part of lines ? text.split('\n') : [text]) {
    if (part.trim() !== '' || !lines) {
      const problem = notJson(part);
      if (problem) {
        const [at] = lineColumns(text, [base + problem.offset]);
        return `${file}:${at.line + 1}:${at.column + 1}: not JSON (${problem.text}); nothing was checked in this file.`;
      }
      for (const f of locateCodes(part, codes)) located.push({ ...f, offset: base + f.offset });
    }
    base += part.length + 1;
  }
  const ends = lineColumns(text, located.flatMap((f) => [f.offset, f.offset + f.length]));
  return located.map((found, i) => ({
    at: { file, line: ends[2 * i].line + 1, column: ends[2 * i].column + 1, endLine: ends[2 * i + 1].line + 1, endColumn: ends[2 * i + 1].column + 1 },
    found,
  }));
}

function notJson(text: string): { offset: number; text: string } | undefined {
  const errors: ParseError[] = [];
  parseJson(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const [e] = errors;
  return e ? { offset: e.offset, text: printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() } : undefined;
}
