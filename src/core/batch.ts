// Batch lookups: a list of IP addresses or a CSV of organization queries, run through one client
// (so under its shared limiter), one JSON line appended per input as it completes. Re-running with
// the same output file skips what is already done, so a cancelled or interrupted run resumes.
import { writeSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { CallFailure, CallResult, FailureKind, LookupQuery } from './model';
import { DEFAULT_MATCH_TYPE, DEFAULT_VIEW } from './constants';
import { checkLookup } from './requests/queries';
import { safeJson } from './sanitize';

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

/** The identity of an input for resuming: the same query written differently is the same input. */
export function inputKey(q: LookupQuery): string {
  return q.kind === 'ip'
    ? JSON.stringify(['ip', q.ip.trim().toLowerCase(), q.view ?? DEFAULT_VIEW])
    : JSON.stringify(['org', q.country.trim().toUpperCase(), q.name.trim(), q.territory?.trim() ?? '', q.matchType ?? DEFAULT_MATCH_TYPE]);
}

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

export interface BatchProgress {
  readonly total: number;
  /** Inputs found done in the output file and not run again. */
  readonly skipped: number;
  readonly done: number;
  readonly ok: number;
  readonly failed: number;
}

export interface BatchSummary extends BatchProgress {
  readonly outFile: string;
  readonly cancelled: boolean;
  /**
   * The failure that stopped the run: credentials, the lockout guard, a contract limit, or an answer
   * whose Retry-After is longer than the client waits (`comeBackAt` says when to run it again).
   */
  readonly stoppedBy?: Omit<CallFailure, 'request' | 'body'>;
  readonly durationMs: number;
}

export interface BatchOptions {
  readonly client: { lookup(q: LookupQuery, o?: { signal?: AbortSignal; stop?: AbortSignal }): Promise<CallResult> };
  readonly inputs: readonly LookupQuery[];
  readonly outFile: string;
  /** Lookups in flight at once from this batch (the client's limiter still applies). */
  readonly concurrency?: number;
  /** Cancels the run now: lookups in flight are cut, and run again next time. */
  readonly signal?: AbortSignal;
  /** Stops the run cleanly: no new input starts, lookups still waiting to be sent are dropped, those sent are answered and written. */
  readonly stop?: AbortSignal;
  readonly onProgress?: (p: BatchProgress) => void;
  /** The named connection the client talks to: written on every line; lines of another connection are not taken as done. */
  readonly connection?: string;
}

/** Failures that end the run: every further call would fail the same way or risk the account. */
const STOPPING_KINDS: ReadonlySet<FailureKind> = new Set(['auth', 'guard', 'limit']);

/**
 * Whether an input is finished with: a success, a value the checks reject, or a 4xx answer the
 * service would give again (other than credentials and limits). Network trouble, 5xx, a 2xx that
 * was not the expected JSON, limits, credentials and cancellation run again with the same output file.
 */
function isFinal(r: CallResult, ownProblem: boolean): boolean {
  if (r.ok) return true;
  if (r.kind === 'input') return ownProblem;
  if (r.comeBackAt !== undefined) return false;
  return r.kind === 'api' && r.status !== undefined && r.status >= 400 && r.status < 500;
}

export async function runBatch(options: BatchOptions): Promise<BatchSummary> {
  const started = performance.now();
  const { done, endsMidLine } = await readDone(options.outFile, options.connection);
  const seen = new Set<string>();
  const queue: LookupQuery[] = [];
  let skipped = 0;
  for (const q of options.inputs) {
    const key = inputKey(q);
    if (done.has(key)) skipped++;
    else if (!seen.has(key)) queue.push(q);
    else skipped++; // a duplicate within the file: looked up once
    seen.add(key);
  }
  const progress = { total: options.inputs.length, skipped, done: 0, ok: 0, failed: 0 };
  let stoppedBy: CallFailure | undefined;
  /** The coordinator is gone: no new input starts, but calls in flight finish (and are written). */
  let halted = false;
  // Stopping aborts the calls still waiting in the limiter, so a stop is immediate.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const file = await open(options.outFile, 'a');
  // Written at once, as Node writes stdout to a file: a line is in the file when its lookup counts
  // as done, and a few microseconds a line cost less than a trip to the thread pool per write,
  // which at full speed (thousands of lookups a second) used more CPU than the lookups.
  const append = (text: string): void => {
    const data = Buffer.from(text);
    for (let at = 0; at < data.length; ) at += writeSync(file.fd, data, at);
  };
  options.onProgress?.({ ...progress });
  try {
    // A run killed mid-write leaves a line cut short; start on a fresh line so ours stay readable.
    if (endsMidLine) append('\n');
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < queue.length && !signal.aborted && !halted && options.stop?.aborted !== true) {
        const input = queue[next++];
        // Checked here too, so a bad value is told apart from an 'input' failure of the setup
        // (endpoints, credentials) that the client reports for every input alike.
        const problem = checkLookup(input);
        const result: CallResult = problem
          ? { ok: false, kind: 'input', text: problem, advice: 'Correct this input in the file; the next run retries it.', durationMs: 0 }
          : await options.client.lookup(input, { signal, stop: options.stop });
        if (!result.ok && result.kind === 'cancelled') return;
        if (!result.ok && result.kind === 'coordinator') {
          // Nothing was sent for this input: no line, so the next run does it.
          stoppedBy ??= result;
          halted = true;
          return;
        }
        const setupProblem = !result.ok && result.kind === 'input' && !problem;
        // The service asked to be left alone for longer than the client waits: every other input
        // would get the same answer, so the run stops and a re-run after that time resumes.
        const comeBackLater = !result.ok && result.comeBackAt !== undefined;
        if (!result.ok && ((STOPPING_KINDS.has(result.kind) && result.code !== 'SC006') || setupProblem || comeBackLater)) {
          // Written so the output shows why the run ended; not final, so a later run retries it.
          stoppedBy ??= result;
          stop.abort();
        }
        const line = toLine(input, result, isFinal(result, problem !== undefined));
        // safeJson: the same JSON, with characters that could drive a terminal escaped (the file gets `cat`).
        append(`${safeJson(options.connection !== undefined ? { ...line, connection: options.connection } : line)}\n`);
        progress.done++;
        if (result.ok) progress.ok++;
        else progress.failed++;
        options.onProgress?.({ ...progress });
      }
    };
    const workers = Math.max(1, Math.min(options.concurrency ?? 4, queue.length || 1));
    await Promise.all(Array.from({ length: workers }, () => worker()));
  } finally {
    // A failed write already rejected the worker that made it; here only the file is closed.
    await file.close();
  }
  const stopped = stoppedBy as CallFailure | undefined;
  return {
    ...progress,
    outFile: options.outFile,
    cancelled: options.signal?.aborted === true || (options.stop?.aborted === true && progress.done < queue.length),
    stoppedBy: stopped ? withoutRequest(stopped) : undefined,
    durationMs: performance.now() - started,
  };
}

/** The failure as the summary keeps it: no request, no body. */
function withoutRequest(f: CallFailure): Omit<CallFailure, 'request' | 'body'> {
  const { kind, code, status, text, meaning, advice, comeBackAt, durationMs } = f;
  return { ok: false, kind, code, status, text, ...(meaning !== undefined ? { meaning } : {}), advice, ...(comeBackAt !== undefined ? { comeBackAt } : {}), durationMs };
}

function toLine(input: LookupQuery, r: CallResult, final: boolean): BatchLine {
  const at = new Date().toISOString();
  if (r.ok) return { input, ok: true, code: r.code, status: r.status, body: r.body, final, at };
  const error = { kind: r.kind, text: r.text, ...(r.meaning !== undefined ? { meaning: r.meaning } : {}), advice: r.advice };
  return { input, ok: false, code: r.code, status: r.status, error, final, at };
}

/** A line of another named connection is another account's answer (a line without one, written before connections existed, counts for any). */
export function countsFor(line: Partial<BatchLine>, connection: string | undefined): boolean {
  return line.connection === undefined || line.connection === connection;
}

/** Whether a line finishes its input (lines written before `final` existed: a success does). */
export function isFinalLine(line: Partial<BatchLine>): boolean {
  return line.final ?? line.ok === true;
}

/** Keys of inputs whose latest line in the output file (of this connection) is a success or a final failure. */
async function readDone(outFile: string, connection: string | undefined): Promise<{ done: Set<string>; endsMidLine: boolean }> {
  let text: string;
  try {
    text = await readFile(outFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { done: new Set(), endsMidLine: false };
    throw err;
  }
  const latest = new Map<string, boolean>();
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: Partial<BatchLine>;
    try {
      line = JSON.parse(raw) as Partial<BatchLine>;
    } catch {
      continue; // a line cut short by a crash: that input runs again
    }
    if (!line.input || !countsFor(line, connection)) continue;
    latest.set(inputKey(line.input), isFinalLine(line));
  }
  const done = new Set([...latest].filter(([, final]) => final).map(([key]) => key));
  return { done, endsMidLine: text !== '' && !text.endsWith('\n') };
}
