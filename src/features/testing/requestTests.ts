// Request files as tests, in plain data: which tests a file holds (file → request → assertion, with
// their lines), which requests a run must send and in what order (a chosen request brings the named
// requests it chains on), and how an answer reads in a test's output. What an answer means is the run
// engine's judge (core/run/judge.ts). Plain TypeScript, so it is unit-tested in plain Node;
// testTree.ts and testRun.ts turn it into the testing API's items and results.
import type { CallResult } from '../../core/model';
import type { Assertion, AssertionOutcome } from '../../core/requests/assertions';
import type { ParsedRequest, ParsedRequestFile } from '../../core/requests/requestFile';
import { references, splitLines } from '../../core/requests/requestText';

export interface RequestTest {
  /** Stable within an unchanged file: the request's place among the file's requests. */
  readonly key: string;
  readonly label: string;
  readonly request: ParsedRequest;
  /** 0-based lines: the request line (where the gutter's run icon goes) to the block's last line. */
  readonly firstLine: number;
  readonly lastLine: number;
  readonly assertions: readonly AssertionTest[];
}

export interface AssertionTest {
  /** Its place among the request's assertions. */
  readonly key: string;
  readonly label: string;
  readonly assertion: Assertion;
}

/** The file's requests as tests, in file order, each with its `??` assertions. */
export function requestTests(file: ParsedRequestFile): RequestTest[] {
  return file.requests.map((r) => ({
    key: `r${r.index}`,
    label: r.name ?? `${r.method} ${r.url}`,
    request: r,
    firstLine: r.requestLine,
    lastLine: Math.max(r.requestLine, r.endLine),
    assertions: r.assertions.map((a, i) => ({ key: `a${i}`, label: `?? ${a.text}`, assertion: a })),
  }));
}

const CHAIN = /^([A-Za-z_][\w-]*)\.response\./;

/** Names of the requests whose answers `r` uses, directly or through the file's variables. */
export function chainedOn(text: string, file: ParsedRequestFile, r: ParsedRequest): Set<string> {
  const lines = splitLines(text);
  const variables = new Map(file.variables.map((v) => [v.name, v.value]));
  const names = new Set<string>();
  const seenVariables = new Set<string>();
  const visit = (line: string): void => {
    for (const ref of references(line, 0)) {
      const chain = CHAIN.exec(ref.name);
      if (chain) names.add(chain[1]);
      else if (variables.has(ref.name) && !seenVariables.has(ref.name)) {
        seenVariables.add(ref.name);
        visit(variables.get(ref.name) ?? '');
      }
    }
  };
  for (let i = r.requestLine; i <= r.endLine && i < lines.length; i++) visit(lines[i]);
  return names;
}

/**
 * The requests to send, in file order: the chosen ones and, before them, every earlier named request
 * they chain on (transitively), so a test of a chained request runs alone as it runs in the whole file.
 */
export function runOrder(text: string, file: ParsedRequestFile, chosen: ReadonlySet<number>): ParsedRequest[] {
  const wanted = new Set(chosen);
  const pending = [...chosen];
  while (pending.length > 0) {
    const r = file.requests[pending.pop() ?? -1];
    if (!r) continue;
    for (const name of chainedOn(text, file, r)) {
      // The last request of that name before this one: the answer it would chain on in a whole-file run.
      const source = file.requests.filter((o) => o.index < r.index && o.name === name).at(-1);
      if (source && !wanted.has(source.index)) {
        wanted.add(source.index);
        pending.push(source.index);
      }
    }
  }
  return file.requests.filter((r) => wanted.has(r.index));
}

/**
 * Expected and actual values for a diff, where one says more than the message: an equality, with
 * text values unquoted on both sides (`== Amber Works` against `"Amber Works"` is no difference), or
 * a snapshot that differs.
 */
export function diffOf(outcome: AssertionOutcome): { readonly expected: string; readonly actual: string } | undefined {
  // A snapshot's: the snapshot and the answer as JSON text.
  if (outcome.diff) return outcome.diff;
  const a = outcome.assertion;
  if (a.operator !== '==' || a.length || a.expected === undefined) return undefined;
  return { expected: unquoted(a.expected), actual: unquoted(outcome.actual) };
}

function unquoted(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : text;
  } catch {
    return text.slice(1, -1);
  }
}

/** One line for the Test Results output and a test message: what came back, and how long it took. */
export function answerLine(result: CallResult): string {
  const status = result.status === undefined ? undefined : `HTTP ${result.status}`;
  const parts = [status, result.code, result.ok ? undefined : result.text].filter((p): p is string => p !== undefined && p !== '');
  const line = `${parts.join(' · ') || 'no answer'} (${Math.round(result.durationMs)} ms)`;
  return !result.ok && result.signIn ? `The sign-in failed, so the request was not sent: ${line}` : line;
}
