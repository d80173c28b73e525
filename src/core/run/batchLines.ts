// A batch's results file: one JSON line per input, {"input", "ok", "code", "status", "body" | "error",
// "final", "at"} and "connection" with a named connection, appended as each input is answered
// (writeSync: a line is in the file when its input counts as done, and kill -9 loses nothing written).
// Read back, it says which inputs are done, so a second run with the same file resumes. What an answer
// echoes of the run's secrets is withheld, as in every output of a run.
import { jsonLines, openJournal } from '../data/journal';
import type { CallResult, FailureKind, LookupQuery } from '../model';
import { safeJson } from '../sanitize';
import { lookupKey } from '../requests/queries';
import { redactedBody } from '../redact';

/** One line of the output file. */
export interface BatchLine {
  readonly input: LookupQuery;
  readonly ok: boolean;
  readonly code?: string;
  readonly status?: number;
  readonly body?: unknown;
  readonly error?: { readonly kind: FailureKind; readonly text: string; readonly meaning?: string; readonly advice: string };
  /** Done with: a re-run skips it. False for failures worth trying again (network, limits, credentials). */
  readonly final: boolean;
  readonly at: string;
  /** The named connection that answered (issue 17); absent for a run without one. */
  readonly connection?: string;
}

/** A line of another named connection is another account's answer (a line without one, written before connections existed, counts for any). */
export function countsFor(line: Partial<BatchLine>, connection: string | undefined): boolean {
  return line.connection === undefined || line.connection === connection;
}

/** Whether a line finishes its input (lines written before `final` existed: a success does). */
export function isFinalLine(line: Partial<BatchLine>): boolean {
  return line.final ?? line.ok === true;
}

/** A line of the results, with every secret of the run withheld (`redact`: the run's one redaction). */
export function toLine(input: LookupQuery, r: CallResult, final: boolean, redact: (text: string) => string = (t) => t): BatchLine {
  const at = new Date().toISOString();
  if (r.ok) return { input, ok: true, code: r.code, status: r.status, body: redactedBody(r.body, redact), final, at };
  const error = { kind: r.kind, text: redact(r.text), ...(r.meaning !== undefined ? { meaning: r.meaning } : {}), advice: r.advice };
  return { input, ok: false, code: r.code, status: r.status, error, final, at };
}

export interface BatchResultsFile {
  /** Done by an earlier run (by this connection), or a duplicate of an input met before: skipped. */
  isDone(q: LookupQuery): boolean;
  write(input: LookupQuery, result: CallResult, final: boolean): void;
  close(): Promise<void>;
}

/** Opens a batch's results file for appending (never through a link: core/files/door.ts), knowing which inputs it holds as done. */
export async function openBatchResults(outFile: string, connection: string | undefined, redact?: (text: string) => string): Promise<BatchResultsFile> {
  const file = await openJournal(outFile, "a batch's results file");
  const seen = new Set<string>();
  let done: Set<string>;
  try {
    const read = await readDone(file.chunks(), connection);
    done = read.done;
    // A run killed mid-write leaves a line cut short; start on a fresh line so ours stay readable.
    if (read.endsMidLine) file.append('\n');
  } catch (err) {
    await file.close();
    throw err;
  }
  return {
    isDone(q) {
      const key = lookupKey(q);
      // A duplicate within the file: looked up once.
      const skip = done.has(key) || seen.has(key);
      seen.add(key);
      return skip;
    },
    write(input, result, final) {
      const line = toLine(input, result, final, redact);
      // safeJson: the same JSON, with characters that could drive a terminal escaped (the file gets `cat`).
      file.append(`${safeJson(connection !== undefined ? { ...line, connection } : line)}\n`);
    },
    close: () => file.close(),
  };
}

/** Keys of inputs whose latest line in the output file (of this connection) is a success or a final failure. */
async function readDone(chunks: AsyncIterable<Buffer>, connection: string | undefined): Promise<{ done: Set<string>; endsMidLine: boolean }> {
  const latest = new Map<string, boolean>();
  let endsMidLine = false;
  for await (const { text, cut } of jsonLines(chunks)) {
    endsMidLine = cut;
    if (text.trim() === '') continue;
    let line: Partial<BatchLine>;
    try {
      line = JSON.parse(text) as Partial<BatchLine>;
    } catch {
      continue; // a line cut short by a crash: that input runs again
    }
    if (!line.input || !countsFor(line, connection)) continue;
    latest.set(lookupKey(line.input), isFinalLine(line));
  }
  const done = new Set([...latest].filter(([, final]) => final).map(([key]) => key));
  return { done, endsMidLine };
}
