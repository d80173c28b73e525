// How a command's results and failures reach the terminal: JSON on stdout, a failure on stderr
// (code, status, text, meaning, what to do; all made safe for a terminal), and the exit status each
// kind of failure ends with.
import { BUILT_IN, type CodeBook } from '../core/codes/codes';
import type { CallFailure, FailureKind } from '../core/model';
import { isLoopbackOrigin } from '../core/http/serviceUrls';
import { safeJson, safeLine } from '../core/sanitize';
import { EXIT, type CliIo } from './io';

export function exitCodeFor(kind: FailureKind): number {
  switch (kind) {
    case 'input':
    case 'coordinator':
      return EXIT.usage;
    case 'auth':
    case 'guard':
      return EXIT.auth;
    case 'limit':
      return EXIT.limit;
    case 'ceiling':
      return EXIT.ceiling;
    default:
      return EXIT.other;
  }
}

/** How a failure's first line names its kind, where "KIND failure" would not read right. */
const HEADS: Partial<Record<FailureKind, string>> = {
  guard: 'refused by the lockout guard',
  ceiling: "stopped at the run's ceiling of data calls (--max-calls)",
};

/**
 * A failure on stderr: code and status, the text (as responseFailure chose it), the catalog's
 * meaning, and what to do; every part made safe for a terminal.
 */
export function printFailure(f: CallFailure, io: CliIo, redactText: (s: string) => string, codes: CodeBook = BUILT_IN): number {
  const head = [f.code, f.status !== undefined ? `HTTP ${f.status}` : undefined].filter(Boolean).join(', ');
  const info = f.code ? codes.describe(f.code) : undefined;
  const lines = [
    `bizdata: ${HEADS[f.kind] ?? `${f.kind} failure`}${head ? ` (${head})` : ''}`,
    `  ${redactText(f.text)}`,
    `  What to do: ${redactText(f.advice)}`,
  ];
  const meaning = f.meaning ?? info?.meaning;
  if (meaning !== undefined && meaning !== f.text) lines.splice(2, 0, `  Meaning: ${meaning}`);
  if (f.code !== undefined && f.known === false) lines.splice(2, 0, `  ${f.code} is not in the catalog: the text above is the service's own (describe it with --codes FILE).`);
  const sandbox = f.unreachable === true ? sandboxToStart(f.request?.url) : undefined;
  if (sandbox !== undefined) lines.push(`  To start the sandbox there: bizdata sandbox --port ${sandbox} &`);
  io.stderr.write(`${lines.map(safeLine).join('\n')}\n`);
  return exitCodeFor(f.kind);
}

/** The port of a loopback address nothing answers at, where `bizdata sandbox` would listen; else undefined. */
function sandboxToStart(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    return isLoopbackOrigin(u.origin) ? u.port || (u.protocol === 'https:' ? '443' : '80') : undefined;
  } catch {
    return undefined;
  }
}

/** JSON on stdout: exactly the value, with characters that could drive a terminal written as \u escapes. */
export function printJson(value: unknown, io: CliIo): void {
  io.stdout.write(`${safeJson(value, 2)}\n`);
}
