// `bizdata explain CODE`: the catalog's entry for a code, or a plain "not in the catalog".
import type { CodeInfo, Recovery } from '../core/codes/codeInfo';
import { safeJson, safeLine } from '../core/sanitize';
import { codesFrom, parse } from './common';
import { EXIT, UsageError, type CliIo } from './io';

export const EXPLAIN_HELP = `Usage: bizdata explain CODE [--json] [--codes FILE]

Prints what a result code means: its text, meaning and what to do, where the text comes from (the
specification, the service's own documentation, or your codes file) and what the client does on
its own when it meets the code.

  --json               the entry as JSON
  --codes FILE         your own descriptions of codes (schemas/codes.schema.json) [BIZDATA_CODES_FILE]

Exit status: 0 the code is in the catalog, 1 it is not, 2 bad usage.
`;

const SOURCE: Readonly<Record<CodeInfo['source'], string>> = {
  spec: 'the service specification',
  service: "the service's own documentation (not in the specification)",
  user: 'your codes file',
};

const CLIENT_DOES: Readonly<Record<Recovery, string>> = {
  none: 'nothing: the call succeeded',
  'reauthenticate-once': 'gets one new token and repeats the call once; if it recurs, stops',
  'wait-and-retry': 'holds every call for a while (the Retry-After time when given), then retries with the same token, a bounded number of times',
  stop: 'stops and reports it',
};

export async function runExplainCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' }, codes: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help) {
    io.stdout.write(EXPLAIN_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('Give exactly one code: bizdata explain CODE, such as bizdata explain SC001.');
  const code = positionals[0].trim();
  const codes = codesFrom(values.codes, io.env);
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
  const lines = [
    `${info.code}: Interface ${info.interfaceName} code, from ${SOURCE[info.source]}${info.status !== undefined ? `; HTTP ${info.status}` : ''}`,
    `  Text: ${info.unpublishedText ? "none published; the service's own text in the answer is shown" : info.text}`,
    `  Meaning: ${info.meaning}`,
    `  What to do: ${info.action}`,
    `  What the client does: ${CLIENT_DOES[info.recovery]}`,
  ];
  io.stdout.write(`${lines.map(safeLine).join('\n')}\n`);
  return EXIT.ok;
}
