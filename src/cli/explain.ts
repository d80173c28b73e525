// `bizdata explain CODE`: the catalog's entry for a code, or a plain "not in the catalog".
// `bizdata explain --answer FILE`: the same for every code of a saved answer, with what the service said.
import type { CodeInfo, Recovery } from '../core/codes/codeInfo';
import { fileProblem } from '../core/readText';
import type { CodeBook } from '../core/codes/codes';
import { readFile } from 'node:fs/promises';
import { safeJson, safeLine } from '../core/sanitize';
import { codesInText, type FoundInFile } from './check';
import { codesFrom, parse } from './args';
import { EXIT, UsageError, type CliIo } from './io';

export const EXPLAIN_HELP = `Usage: bizdata explain CODE [--json] [--codes FILE]
       bizdata explain --answer FILE [--json] [--codes FILE]

Prints what a result code means: its text, meaning and what to do, where the text comes from (the
specification, the service's own documentation, or your codes file) and what the client does on
its own when it meets the code.

With --answer, explains every code of a saved answer (a JSON file; - reads standard input) with
what the service said (ResultText and ResultMessage, errorMessage, error_description): a code the
specification lists shows the specification's text first, then the service's words; any other
code shows the service's words first, then the catalog's text. Then the meaning and action.

  --answer FILE        a saved answer of the service to explain, - for standard input
  --json               the entry as JSON (with --answer, one array of entries)
  --codes FILE         your own descriptions of codes (schemas/codes.schema.json) [BIZDATA_CODES_FILE]

Exit status: 0 the code (with --answer, every code found) is in the catalog, 1 it is not (or the
answer holds no code), 2 bad usage, or an answer that cannot be read or is not JSON.
`;

const SOURCE: Readonly<Record<CodeInfo['source'], string>> = {
  spec: 'the service specification',
  service: "the service's own documentation (not in the specification)",
  user: 'your codes file',
};

/** What the client does on its own when it meets a code, in words. */
export const CLIENT_DOES: Readonly<Record<Recovery, string>> = {
  none: 'nothing: the call succeeded',
  'reauthenticate-once': 'gets one new token and repeats the call once; if it recurs, stops',
  'wait-and-retry': 'holds every call for a while (the Retry-After time when given, up to 60 s), then retries with the same token, a bounded number of times',
  stop: 'stops and reports it',
};

export async function runExplainCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' }, codes: { type: 'string' }, answer: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help) {
    io.stdout.write(EXPLAIN_HELP);
    return EXIT.ok;
  }
  const codes = codesFrom(values.codes, io.env);
  if (values.answer !== undefined) {
    if (positionals.length > 0) throw new UsageError('Give either a CODE or --answer FILE, not both.');
    return explainAnswer(values.answer, codes, values.json === true, io);
  }
  if (positionals.length !== 1) throw new UsageError('Give exactly one code: bizdata explain CODE, such as bizdata explain SC001 (or a saved answer: bizdata explain --answer FILE).');
  const code = positionals[0].trim();
  const info = codes.describe(code) ?? codes.describe(code.toUpperCase());
  if (!info) {
    const text = `${code} is not in the catalog (the specification, the service's documented codes${values.codes || io.env.BIZDATA_CODES_FILE ? ' or your codes file' : ''}). When the service sends it, its own text is shown; describe it in a codes file (--codes) to add your own.`;
    if (values.json) io.stdout.write(`${safeJson({ code, known: false, text }, 2)}\n`);
    else io.stdout.write(`${safeLine(text)}\n`);
    return EXIT.other;
  }
  if (values.json) {
    io.stdout.write(`${safeJson({ ...info, known: true, clientDoes: CLIENT_DOES[info.recovery] }, 2)}\n`);
    return EXIT.ok;
  }
  io.stdout.write(`${entryLines(info, undefined).map(safeLine).join('\n')}\n`);
  return EXIT.ok;
}

/**
 * A code's entry: where it comes from, then its texts (a spec code's text before the service's words,
 * which an explained answer adds; any other code's own words before the catalog's), then the catalog's.
 */
function entryLines(info: CodeInfo, said: string | undefined): string[] {
  const published = info.unpublishedText ? "none published; the service's own text in the answer is shown" : info.text;
  return [
    `${info.code}: Interface ${info.interfaceName} code, from ${SOURCE[info.source]}${info.status !== undefined ? `; HTTP ${info.status}` : ''}`,
    ...(said === undefined ? [`  Text: ${published}`]
      : info.source === 'spec' ? [`  Specification's text: ${info.text}`, `  The service said: ${said}`]
      : [`  The service said: ${said}`, `  Catalog text: ${info.unpublishedText ? 'none published' : info.text}`]),
    `  Meaning: ${info.meaning}`,
    `  What to do: ${info.action}`,
    `  What the client does: ${CLIENT_DOES[info.recovery]}`,
  ];
}

async function explainAnswer(file: string, codes: CodeBook, json: boolean, io: CliIo): Promise<number> {
  const name = file === '-' ? '<stdin>' : file;
  let text: string;
  try {
    text = file === '-' ? await readAll(io.stdin) : await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${name}: cannot be read: ${fileProblem(err, name)}.`);
  }
  const found = codesInText(name, text, codes);
  if (typeof found === 'string') throw new UsageError(found);
  if (json) {
    io.stdout.write(`${safeJson(found.map(answerEntry), 2)}\n`);
  } else if (found.length === 0) {
    io.stdout.write(`${safeLine(`${name} holds no result code in any shape the service answers in.`)}\n`);
  } else {
    const blocks = found.map(({ at, found: f }) => {
      const where = `${at.file}:${at.line}:${at.column}: `;
      if (f.info) {
        const [head, ...rest] = entryLines(f.info, f.serviceText);
        return [`${where}${head}`, ...rest];
      }
      return [`${where}${f.code} is not in the catalog`, `  The service said: ${f.text}`, `  What to do: ${f.action}`];
    });
    io.stdout.write(`${blocks.map((b) => b.map(safeLine).join('\n')).join('\n\n')}\n`);
  }
  return found.length > 0 && found.every((f) => f.found.known) ? EXIT.ok : EXIT.other;
}

function answerEntry({ at, found: f }: FoundInFile): Record<string, unknown> {
  return {
    ...at,
    code: f.code,
    known: f.known,
    ...(f.serviceText !== undefined ? { serviceText: f.serviceText } : {}),
    text: f.text,
    ...(f.info ? { catalogText: f.info.unpublishedText ? undefined : f.info.text, meaning: f.info.meaning, source: f.info.source, clientDoes: CLIENT_DOES[f.info.recovery] } : {}),
    action: f.action,
    ...(f.status !== undefined ? { status: f.status } : {}),
    severity: f.severity,
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
