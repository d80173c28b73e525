// What a run's report shows, from plain records of the run (pure): the counts, calls per second
// against the limit with the waits marked, result codes by count in the words the diagnostics use
// (codes/recognise.ts `explainLine`), the slowest calls, every failure, and a batch's rows. The
// hosts gather the records without changing what they decide; reportHtml.ts writes the model out.
import { explainLine } from '../codes/recognise';
import type { CodeWords, RequestRecord, WireEvent } from '../model';

export type ReportVerdict = 'passed' | 'failed' | 'error' | 'skipped';

/**
 * What a run's limit is: `learned` the service refused just above it; `reached` the highest rate so
 * far, with no refusal above it; `cap` the cap given; `held` the rate the limiter held calls to.
 */
export type LimitSource = 'learned' | 'reached' | 'cap' | 'held';
/** One request of a test run or of `bizdata send`, judged. */
export interface ReportTest {
  readonly name: string;
  /** The request file as named on the command line, and the request's line (1-based). */
  readonly file: string;
  readonly line: number;
  readonly verdict: ReportVerdict;
  readonly method: string;
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
}

/** One input of a batch, by its latest line in the results file. */
export interface ReportRow {
  readonly input: string;
  /** `unsent`: the run stopped before it; `skipped`: an earlier run finished it, or it is a duplicate. */
  readonly outcome: 'ok' | 'failed' | 'skipped' | 'unsent';
  readonly status?: number;
  readonly code?: string;
  /** The failure's words, as the results file holds them (the catalog's failure line). */
  readonly text?: string;
}

export interface ReportRun {
  /** The command as the user ran it (`bizdata test examples/`). */
  readonly title: string;
  readonly kind: 'test' | 'batch' | 'send';
  readonly startedAt: number;
  readonly durationMs: number;
  readonly connections: readonly string[];
  /** Every request on the wire and every wait, as the client told them (core/model.ts `WireEvent`). */
  readonly wire: readonly WireEvent[];
  /** The rate the run ended with, and what it is (runRecords.ts `runLimit`). */
  readonly limit?: { readonly qps: number; readonly source: LimitSource };
  readonly tests?: readonly ReportTest[];
  readonly batch?: { readonly resultsFile: string; readonly rows: readonly ReportRow[] };
  /** Why the run ended early, in the catalog's words. */
  readonly stopped?: string;
}

export interface CodeCount {
  readonly code: string;
  readonly count: number;
  /** The catalog's or the service's words, as `explainLine` writes them; undefined for a status without a code. */
  readonly words?: string;
}

export interface ReportModel {
  readonly title: string;
  readonly kind: ReportRun['kind'];
  readonly startedAt: string;
  readonly durationMs: number;
  readonly connections: readonly string[];
  readonly counts: { readonly total: number; readonly passed: number; readonly failed: number; readonly errors: number; readonly skipped: number; readonly unsent: number };
  /** Requests on the wire (retries included), of them sign-ins, and waits before a retry. */
  readonly calls: number;
  readonly signIns: number;
  readonly waits: number;
  readonly limit?: ReportRun['limit'];
  readonly timeline: Timeline;
  readonly codes: readonly CodeCount[];
  readonly slowest: readonly { readonly label: string; readonly ms: number; readonly status?: number; readonly code?: string }[];
  readonly failures: readonly ReportTest[];
  /** Failures beyond those shown (a batch shows the first ones; the results file holds all). */
  readonly moreFailures: number;
  readonly batch?: { readonly resultsFile: string; readonly cells: string; readonly perCode: readonly CodeCount[] };
  readonly stopped?: string;
}

/** Per second since the first call: calls sent, the limit then (null: none), median and slowest duration; and the waits. */
export interface Timeline {
  readonly calls: readonly number[];
  readonly limit: readonly (number | null)[];
  readonly medianMs: readonly (number | null)[];
  readonly slowestMs: readonly (number | null)[];
  readonly waits: readonly { readonly second: number; readonly ms: number; readonly what: string }[];
}

const SLOWEST = 10;
/** Failures written out in full: a batch of thousands keeps the report small; the results file has every one. */
const FAILURES_SHOWN = 200;

/** The model of a run's report; `redact` is the client's (core/redact.ts), applied to every text that came from the run. */
export function reportModel(run: ReportRun, redact: (text: string) => string): ReportModel {
  const sent = run.wire.filter((e): e is Extract<WireEvent, { kind: 'sent' }> => e.kind === 'sent');
  const tests = run.tests ?? [];
  const rows = run.batch?.rows ?? [];
  const count = (v: ReportVerdict): number => tests.filter((t) => t.verdict === v).length;
  const counts = run.batch
    ? { total: rows.length, passed: rows.filter((r) => r.outcome === 'ok').length, failed: rows.filter((r) => r.outcome === 'failed').length, errors: 0, skipped: rows.filter((r) => r.outcome === 'skipped').length, unsent: rows.filter((r) => r.outcome === 'unsent').length }
    : { total: tests.length, passed: count('passed'), failed: count('failed'), errors: count('error'), skipped: count('skipped'), unsent: 0 };
  const failed = run.batch ? rows.flatMap((r, i) => (r.outcome === 'failed' ? [rowFailure(r, i)] : [])) : tests.filter((t) => t.verdict === 'failed' || t.verdict === 'error');
  return {
    title: run.title,
    kind: run.kind,
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: Math.round(run.durationMs),
    connections: run.connections,
    counts,
    calls: sent.length,
    signIns: sent.filter((e) => e.signIn).length,
    waits: run.wire.length - sent.length,
    ...limitOf(run, sent),
    timeline: timeline(run.wire, sent),
    codes: codeCounts(sent.filter((e) => !e.signIn), redact),
    slowest: slowest(run, sent, redact),
    failures: failed.slice(0, FAILURES_SHOWN).map((f) => redactTest(f, redact)),
    moreFailures: Math.max(0, failed.length - FAILURES_SHOWN),
    ...(run.batch ? { batch: { resultsFile: run.batch.resultsFile, cells: rows.map((r) => r.outcome[0]).join(''), perCode: rowCodes(rows, redact) } } : {}),
    ...(run.stopped !== undefined ? { stopped: redact(run.stopped) } : {}),
  };
}

/** The limit the run ended with; else the last one the limiter held calls to while they were sent. */
function limitOf(run: ReportRun, sent: readonly Extract<WireEvent, { kind: 'sent' }>[]): { limit?: ReportRun['limit'] } {
  if (run.limit) return { limit: run.limit };
  const held = [...sent].reverse().find((e) => e.limitQps > 0 && Number.isFinite(e.limitQps))?.limitQps;
  return held !== undefined ? { limit: { qps: held, source: 'held' } } : {};
}

function timeline(wire: readonly WireEvent[], sent: readonly Extract<WireEvent, { kind: 'sent' }>[]): Timeline {
  if (wire.length === 0) return { calls: [], limit: [], medianMs: [], slowestMs: [], waits: [] };
  const t0 = wire.reduce((m, e) => Math.min(m, e.at), Infinity);
  const seconds = Math.floor((wire.reduce((m, e) => Math.max(m, e.at), -Infinity) - t0) / 1000) + 1;
  const calls = new Array<number>(seconds).fill(0);
  const limit = new Array<number | null>(seconds).fill(null);
  const took: number[][] = Array.from({ length: seconds }, () => []);
  for (const e of sent) {
    const s = Math.floor((e.at - t0) / 1000);
    calls[s]++;
    took[s].push(e.ms);
    // A limit of 0 or Infinity is no limit: nothing to draw.
    if (e.limitQps > 0 && Number.isFinite(e.limitQps)) limit[s] = Math.max(limit[s] ?? 0, e.limitQps);
  }
  // The limit holds until it changes: carried over seconds without a call.
  for (let s = 1; s < seconds; s++) if (limit[s] === null) limit[s] = limit[s - 1];
  const waits = wire.flatMap((e) => (e.kind === 'wait' ? [{ second: Math.floor((e.at - t0) / 1000), ms: Math.round(e.ms), what: e.what }] : []));
  const round = (n: number | undefined): number | null => (n === undefined ? null : Math.round(n));
  return {
    calls,
    limit,
    medianMs: took.map((t) => round(t.sort((a, b) => a - b)[Math.floor((t.length - 1) / 2)])),
    slowestMs: took.map((t) => round(t.length > 0 ? t[t.length - 1] : undefined)),
    waits,
  };
}

/** Codes by count, most first; an answer without a code counts as its HTTP status, a call without an answer as its failure. */
function codeCounts(sent: readonly Extract<WireEvent, { kind: 'sent' }>[], redact: (text: string) => string): CodeCount[] {
  const byCode = new Map<string, { count: number; words?: string; code?: CodeWords }>();
  for (const e of sent) {
    const key = e.code?.code ?? (e.status !== undefined ? `HTTP ${e.status}` : 'no answer');
    const entry = byCode.get(key) ?? { count: 0, code: e.code, words: e.code ? undefined : e.failed };
    entry.count++;
    byCode.set(key, entry);
  }
  return [...byCode].map(([code, e]) => ({ code, count: e.count, words: wordsOf(e.code, e.words, redact) })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
}

function rowCodes(rows: readonly ReportRow[], redact: (text: string) => string): CodeCount[] {
  const byCode = new Map<string, { count: number; words?: string }>();
  for (const r of rows) {
    if (r.outcome === 'skipped') continue;
    const key = r.code ?? (r.status !== undefined ? `HTTP ${r.status}` : r.outcome === 'ok' ? 'no code' : 'no answer');
    const entry = byCode.get(key) ?? { count: 0, words: r.text };
    entry.count++;
    byCode.set(key, entry);
  }
  return [...byCode].map(([code, e]) => ({ code, count: e.count, words: e.words === undefined ? undefined : redact(e.words) })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
}

function wordsOf(code: CodeWords | undefined, fallback: string | undefined, redact: (text: string) => string): string | undefined {
  const words = code ? explainLine(code) : fallback;
  return words === undefined ? undefined : redact(words);
}

function slowest(run: ReportRun, sent: readonly Extract<WireEvent, { kind: 'sent' }>[], redact: (text: string) => string): ReportModel['slowest'] {
  if (run.tests) {
    return [...run.tests]
      .filter((t) => t.durationMs !== undefined)
      .sort((a, b) => (b.durationMs ?? 0) - (a.durationMs ?? 0))
      .slice(0, SLOWEST)
      .map((t) => ({ label: redact(`${t.file}:${t.line} ${t.name}: ${t.method} ${t.url ?? ''}`), ms: Math.round(t.durationMs ?? 0), status: t.status, code: t.code }));
  }
  const t0 = sent.reduce((m, e) => Math.min(m, e.at), Infinity);
  return [...sent]
    .filter((e) => !e.signIn)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, SLOWEST)
    .map((e) => ({ label: `sent at +${((e.at - t0) / 1000).toFixed(3)} s`, ms: Math.round(e.ms), status: e.status, code: e.code?.code }));
}

/** A failed row as a failure of the report: its place among the inputs (1-based) and its input. */
function rowFailure(r: ReportRow, index: number): ReportTest {
  return { name: `row ${index + 1}: ${r.input}`, file: '', line: index + 1, verdict: 'failed', method: '', status: r.status, failedAssertions: [], message: r.text ?? [r.code, r.status].filter((x) => x !== undefined).join(' ') };
}

function redactTest(t: ReportTest, redact: (text: string) => string): ReportTest {
  const request = t.request ? { method: t.request.method, url: redact(t.request.url), headers: Object.fromEntries(Object.entries(t.request.headers).map(([k, v]) => [k, redact(`${k}: ${v}`).slice(k.length + 2)])), ...(t.request.body !== undefined ? { body: redact(t.request.body) } : {}) } : undefined;
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
