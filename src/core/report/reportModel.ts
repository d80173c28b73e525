// What a run's report shows, from plain records of the run (pure): the counts (of a job's rows: the
// whole job, this run's marked apart), calls per second against the limit (limits.ts: only one
// configured or learned), result codes once each, the slowest data calls named by the test or row
// they were for, and every failure. The hosts gather the records without changing what they decide;
// reportHtml.ts writes the model out.
import type { RequestRecord, WireEvent } from '../model';
import { codesTable, type CodeCount } from './codesTable';
import { countRows, rowCell, type JobCounts, type ReportRow, type RunCounts } from './jobRows';
import { limitText, type RunLimit } from './limits';
import { durationText, wholeMs } from './numbers';
import { timeline, type SentEvent, type Timeline } from './timeline';

export type ReportVerdict = 'passed' | 'failed' | 'error' | 'skipped';

/** One request of a test run or of `bizdata send`, judged; or a failed row of a job. */
export interface ReportTest {
  readonly name: string;
  /** The request file as named on the command line, and the request's line (1-based); '' and the row's place for a batch's row. */
  readonly file: string;
  readonly line: number;
  readonly verdict: ReportVerdict;
  readonly method: string;
  /** The URL as sent (the call's record), by which the report knows the calls that were this request's. */
  readonly url?: string;
  readonly connection?: string;
  readonly status?: number;
  readonly code?: string;
  readonly durationMs?: number;
  /** The assertions that did not hold, at their lines (1-based). */
  readonly failedAssertions: readonly { readonly line: number; readonly text: string; readonly expected: string; readonly actual: string }[];
  /** Why it failed or is an error without an assertion saying so (a failure line of the catalog's words), and where. */
  readonly message?: string;
  readonly messageLine?: number;
  /** What was sent (credentials already placeholders) and the answer's text, for a failure. */
  readonly request?: RequestRecord;
  readonly answer?: string;
  /** A job's row: where it is (ROWS:LINE), and whether an earlier run wrote this failure. */
  readonly row?: string;
  readonly earlier?: boolean;
}

/** A batch's or a data run's rows: the whole job, as its results file holds it after this run. */
export interface ReportJob {
  /** Where the rows come from, as the run names it (ROWS, a batch's input file). */
  readonly source: string;
  /** The results file: a relative link beside a report file, the name in a webview; none when each run runs every row. */
  readonly resultsFile?: string;
  readonly rows: readonly ReportRow[];
  /** Failed rows with what is known of them (a data run's: the request, its line, the answer); by default from `rows`. */
  readonly failures?: readonly ReportTest[];
  /** Failures beyond those given (a long job keeps the first ones; the results file holds all). */
  readonly moreFailures?: number;
  /** Which row each call was for, by the URL it was sent to. */
  readonly callers?: ReadonlyMap<string, string>;
}

export interface ReportRun {
  /** The command as the user ran it (`bizdata test examples/`). */
  readonly title: string;
  readonly kind: 'test' | 'send' | 'batch' | 'data';
  readonly startedAt: number;
  /** This run's duration: the one every output of the run gives. */
  readonly durationMs: number;
  readonly connections: readonly string[];
  /** Every request on the wire and every wait of this run, as the client told them (core/model.ts `WireEvent`). */
  readonly wire: readonly WireEvent[];
  /** The limit as limits.ts names it. */
  readonly limit: RunLimit;
  readonly tests?: readonly ReportTest[];
  readonly job?: ReportJob;
  /** Why the run ended early, in the catalog's words. */
  readonly stopped?: string;
}

export interface SlowCall {
  readonly ms: number;
  readonly status?: number;
  readonly code?: string;
  /** The method and the URL's path and query. */
  readonly request: string;
  /** The test or row it was for, when known. */
  readonly caller?: string;
}

export interface ReportModel {
  readonly title: string;
  readonly kind: ReportRun['kind'];
  readonly startedAt: string;
  readonly durationMs: number;
  readonly duration: string;
  readonly connections: readonly string[];
  /** A test run's requests by verdict. */
  readonly tests: { readonly total: number; readonly passed: number; readonly failed: number; readonly errors: number; readonly skipped: number };
  /** A job's rows: the whole job, and this run's own. */
  readonly job?: { readonly source: string; readonly counts: JobCounts; readonly thisRun: RunCounts; readonly cells: string; readonly resultsFile?: string };
  /** Requests on the wire (retries included), of them sign-ins, and waits before a retry. */
  readonly calls: number;
  readonly signIns: number;
  readonly waits: number;
  readonly limit: RunLimit;
  readonly limitText: string;
  readonly timeline: Timeline;
  readonly codes: readonly CodeCount[];
  readonly slowest: readonly SlowCall[];
  readonly failures: readonly ReportTest[];
  /** Failures beyond those shown (the results file holds all). */
  readonly moreFailures: number;
  readonly stopped?: string;
}

const SLOWEST = 10;
/** Failures written out in full: a job of thousands keeps the report small; the results file has every one. */
export const FAILURES_SHOWN = 200;

/** The model of a run's report; `redact` is the run's (core/redact.ts), applied to every text that came from the run. */
export function reportModel(run: ReportRun, redact: (text: string) => string): ReportModel {
  const sent = run.wire.filter((e): e is SentEvent => e.kind === 'sent');
  const tests = run.tests ?? [];
  const count = (v: ReportVerdict): number => tests.filter((t) => t.verdict === v).length;
  const rows = run.job?.rows;
  const failed = run.job ? (run.job.failures ?? rowFailures(run.job.rows)) : tests.filter((t) => t.verdict === 'failed' || t.verdict === 'error');
  const more = (run.job?.moreFailures ?? 0) + Math.max(0, failed.length - FAILURES_SHOWN);
  const job = run.job && jobOf(run.job);
  return {
    title: run.title,
    kind: run.kind,
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: wholeMs(run.durationMs),
    duration: durationText(run.durationMs),
    connections: run.connections,
    tests: { total: tests.length, passed: count('passed'), failed: count('failed'), errors: count('error'), skipped: count('skipped') },
    ...(job ? { job } : {}),
    calls: sent.length,
    signIns: sent.filter((e) => e.signIn).length,
    waits: run.wire.length - sent.length,
    limit: run.limit,
    limitText: limitText(run.limit),
    timeline: timeline(run.wire, run.limit),
    codes: codesTable(sent, rows, redact),
    slowest: slowest(sent, callersOf(run), redact),
    failures: failed.slice(0, FAILURES_SHOWN).map((f) => redactTest(f, redact)),
    moreFailures: more,
    ...(run.stopped !== undefined ? { stopped: redact(run.stopped) } : {}),
  };
}

/** A job's rows counted (the whole job, this run's apart) and drawn one cell each. */
function jobOf(job: ReportJob): NonNullable<ReportModel['job']> {
  const { job: counts, thisRun } = countRows(job.rows);
  const cells = job.rows.map(rowCell).join('');
  return { source: job.source, counts, thisRun, cells, ...(job.resultsFile !== undefined ? { resultsFile: job.resultsFile } : {}) };
}

/** Which test or row each URL was sent for: a job's own map, else the tests' URLs. */
function callersOf(run: ReportRun): ReadonlyMap<string, string> {
  if (run.job?.callers) return run.job.callers;
  const callers = new Map<string, string>();
  for (const t of run.tests ?? []) if (t.url !== undefined && !callers.has(t.url)) callers.set(t.url, `${t.file}:${t.line} ${t.name}`);
  return callers;
}

/** The slowest data calls on the wire (sign-ins aside, as the response-time chart counts them). */
function slowest(sent: readonly SentEvent[], callers: ReadonlyMap<string, string>, redact: (text: string) => string): SlowCall[] {
  return [...sent]
    .filter((e) => !e.signIn)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, SLOWEST)
    .map((e) => {
      const caller = e.url !== undefined ? callers.get(e.url) : undefined;
      const request = redact(`${e.method ?? ''} ${pathOf(e.url)}`.trim());
      return { ms: Math.round(e.ms), status: e.status, code: e.code?.code, request, ...(caller !== undefined ? { caller: redact(caller) } : {}) };
    });
}

/** A URL's path and query: the service's address is the connection's, said once above. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** A job's failed rows as failures of the report, by what the results file says of them. */
function rowFailures(rows: readonly ReportRow[]): ReportTest[] {
  return rows.flatMap((r, i) => {
    if (r.outcome !== 'failed') return [];
    const message = r.text ?? ([r.code, r.status].filter((x) => x !== undefined).join(' ') || 'no answer');
    const where = { ...(r.where !== undefined ? { row: r.where } : {}), ...(r.earlier ? { earlier: true } : {}) };
    const answer = { status: r.status, code: r.code };
    return [{ name: `row ${i + 1}: ${r.label}`, file: '', line: i + 1, verdict: 'failed', method: '', ...answer, failedAssertions: [], message, ...where }];
  });
}

function redactTest(t: ReportTest, redact: (text: string) => string): ReportTest {
  // A header is redacted with its name, as a secret may be known by the header it goes in.
  const header = ([k, v]: [string, string]): [string, string] => [k, redact(`${k}: ${v}`).slice(k.length + 2)];
  const body = (b: string | undefined): { body?: string } => (b !== undefined ? { body: redact(b) } : {});
  const r = t.request;
  const request = r ? { method: r.method, url: redact(r.url), headers: Object.fromEntries(Object.entries(r.headers).map(header)), ...body(r.body) } : undefined;
  return {
    ...t,
    name: redact(t.name),
    ...(t.url !== undefined ? { url: redact(t.url) } : {}),
    failedAssertions: t.failedAssertions.map((a) => ({ line: a.line, text: redact(a.text), expected: redact(a.expected), actual: redact(a.actual) })),
    ...(t.message !== undefined ? { message: redact(t.message) } : {}),
    ...(request ? { request } : {}),
    ...(t.answer !== undefined ? { answer: redact(t.answer) } : {}),
  };
}
