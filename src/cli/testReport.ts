// What `bizdata test` reports, in three forms: lines for people, one JSON document, and JUnit XML as
// Jenkins' xUnit schema (junit-10.xsd) defines it, which GitLab, Jenkins and the common GitHub
// test-report actions read. Pure: the command gathers the outcomes, these functions only write them.
import type { CallFailure } from '../core/model';
import { durationText, plural, wholeMs } from '../core/report/numbers';
import type { RequestOutcome, Verdict } from '../core/run/judge';

export interface FileReport {
  /** The file as named on the command line (or found under a folder named there). */
  readonly file: string;
  /** When its first request was sent (ISO 8601). */
  readonly startedAt: string;
  readonly requests: readonly ReportedRequest[];
  /** From its first request to its last answer. */
  readonly durationMs?: number;
}

export interface ReportedRequest {
  readonly outcome: RequestOutcome;
  /** The connection the request went to. */
  readonly connection: string;
  /** The URL as sent, credentials redacted. */
  readonly url?: string;
}

export interface RunReport {
  readonly files: readonly FileReport[];
  /** The failure that ended the run early (the lockout guard, credentials, a limit …). */
  readonly stopped?: CallFailure;
  /** The signal that ended the run early. */
  readonly signal?: string;
  /** The run's duration: the one figure its lines, JSON, JUnit and HTML report give. */
  readonly durationMs?: number;
}

export interface Counts {
  readonly files: number;
  readonly requests: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
}

export function countsOf(files: readonly FileReport[]): Counts {
  const all = files.flatMap((f) => f.requests);
  const n = (v: Verdict): number => all.filter((r) => r.outcome.verdict === v).length;
  return { files: files.length, requests: all.length, passed: n('passed'), failed: n('failed'), errors: n('error') };
}

const LABEL: Readonly<Record<Verdict, string>> = { passed: 'PASS', failed: 'FAIL', error: 'ERROR' };

/** One line per request, then one per failed assertion (`FILE:LINE: what: expected …, actual …`) or passed one's note (a snapshot written). */
export function requestLines(file: string, r: ReportedRequest): string[] {
  const o = r.outcome;
  const answer = o.status !== undefined ? ` -> ${[o.status, o.code].filter((x) => x !== undefined).join(' ')} (${Math.round(o.durationMs ?? 0)} ms)` : '';
  const head = `${LABEL[o.verdict]} ${file}:${o.request.requestLine + 1} ${o.name}: ${o.method} ${r.url ?? o.request.url}${answer}`;
  const lines = [head];
  // An error is never judged by its assertions (no answer, or a stop): its one message says why.
  if (o.verdict !== 'error') for (const a of o.assertions) if (!a.passed || a.note !== undefined) lines.push(`  ${file}:${a.line + 1}: ${a.passed ? a.note : a.message}`);
  if (o.message !== undefined) lines.push(`  ${file}:${o.line + 1}: ${o.message}`);
  return lines;
}

export function summaryLine(c: Counts, durationMs: number): string {
  const verdicts = `${c.passed} passed, ${c.failed} failed, ${plural(c.errors, 'error')}`;
  return `${plural(c.files, 'file')}, ${plural(c.requests, 'request')}: ${verdicts} (${durationText(durationMs)})`;
}

/** The whole run as one JSON value; lines are 1-based, as in FILE:LINE. Every string goes through `redact`. */
export function jsonReport(run: RunReport, redact: (text: string) => string = (t) => t): unknown {
  const counts = countsOf(run.files);
  const report = {
    passed: run.stopped === undefined && run.signal === undefined && counts.failed === 0 && counts.errors === 0,
    summary: counts,
    ...(run.durationMs !== undefined ? { durationMs: wholeMs(run.durationMs) } : {}),
    ...(run.stopped ? { stopped: { kind: run.stopped.kind, code: run.stopped.code, status: run.stopped.status, text: run.stopped.text, advice: run.stopped.advice } } : {}),
    ...(run.signal ? { stoppedBy: run.signal } : {}),
    files: run.files.map((f) => ({
      file: f.file,
      startedAt: f.startedAt,
      requests: f.requests.map(({ outcome: o, connection, url }) => ({
        name: o.name,
        line: o.request.requestLine + 1,
        connection,
        method: o.method,
        url: url ?? o.request.url,
        verdict: o.verdict,
        status: o.status,
        code: o.code,
        durationMs: o.durationMs === undefined ? undefined : Math.round(o.durationMs),
        ...(o.message !== undefined ? { message: o.message, messageLine: o.line + 1 } : {}),
        assertions: o.assertions.map((a) => ({ line: a.line + 1, assertion: a.assertion.text, passed: a.passed, expected: a.expected, actual: a.actual, ...(a.note !== undefined ? { note: a.note } : {}) })),
      })),
    })),
  };
  // The marker holds no quote or backslash: the redacted text is JSON still.
  return JSON.parse(redact(JSON.stringify(report))) as unknown;
}

/**
 * JUnit XML: a testsuite per file, a testcase per request. A failed assertion is a <failure> whose
 * message is `FILE:LINE: what: expected …, actual …`; a request that could not be judged is an <error>.
 * The schema allows properties only on a testsuite, so each request's name, connection and result code
 * are properties of its file's suite, named `request.N.name`, `request.N.connection`, `request.N.resultCode`
 * (N its place in the file, 1-based), beside the suite's own `file` and `connection`. Every text and
 * attribute goes through `redact` before it is escaped for XML.
 */
export function junitReport(run: RunReport, hostname: string, redact: (text: string) => string = (t) => t): string {
  const text = (s: string): string => xmlText(redact(s));
  const attrs = (values: Readonly<Record<string, string | number>>): string => xmlAttributes(values, text);
  const counts = countsOf(run.files);
  // Whole milliseconds first, as the JSON gives them: the same figure, in seconds.
  const seconds = (ms: number | undefined): string => (wholeMs(ms ?? 0) / 1000).toFixed(3);
  // The run's and each file's own duration, as the lines and the report say it; else the requests' sum.
  const sum = (f: FileReport): number => f.requests.reduce((s, r) => s + (r.outcome.durationMs ?? 0), 0);
  const total = run.durationMs ?? run.files.reduce((all, f) => all + (f.durationMs ?? sum(f)), 0);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="bizdata test" tests="${counts.requests}" failures="${counts.failed}" errors="${counts.errors}" time="${seconds(total)}">`];
  run.files.forEach((f, index) => {
    const c = countsOf([f]);
    const time = f.durationMs ?? sum(f);
    const connections = [...new Set(f.requests.map((r) => r.connection))];
    out.push(`  <testsuite ${attrs({ name: f.file, tests: c.requests, failures: c.failed, errors: c.errors, skipped: 0, time: seconds(time), timestamp: f.startedAt.replace(/\.\d+Z$/, 'Z'), hostname, id: index, file: f.file })}>`);
    out.push('    <properties>');
    out.push(`      <property ${attrs({ name: 'file', value: f.file })}/>`);
    if (connections.length > 0) out.push(`      <property ${attrs({ name: 'connection', value: connections.join(', ') })}/>`);
    f.requests.forEach(({ outcome: o, connection }, i) => {
      out.push(`      <property ${attrs({ name: `request.${i + 1}.name`, value: o.name })}/>`);
      out.push(`      <property ${attrs({ name: `request.${i + 1}.connection`, value: connection })}/>`);
      if (o.code !== undefined) out.push(`      <property ${attrs({ name: `request.${i + 1}.resultCode`, value: o.code })}/>`);
    });
    out.push('    </properties>');
    for (const r of f.requests) out.push(...testcase(f.file, r, seconds(r.outcome.durationMs), text, attrs));
    out.push('  </testsuite>');
  });
  out.push('</testsuites>', '');
  return out.join('\n');
}

function testcase(file: string, r: ReportedRequest, time: string, text: (s: string) => string, attrs: (values: Readonly<Record<string, string | number>>) => string): string[] {
  const o = r.outcome;
  const lines = [`    <testcase ${attrs({ name: o.name, classname: file, time })}>`];
  const failed = o.assertions.filter((a) => !a.passed);
  const where = (line: number): string => `${file}:${line + 1}`;
  if (o.verdict === 'error') {
    lines.push(`      <error ${attrs({ type: o.code ?? 'error', message: `${where(o.line)}: ${o.message ?? 'no answer'}` })}>${text(failed.map((a) => `${where(a.line)}: ${a.message}`).join('\n'))}</error>`);
  } else if (o.verdict === 'failed') {
    const messages = failed.length > 0 ? failed.map((a) => `${where(a.line)}: ${a.message}`) : [`${where(o.line)}: ${o.message ?? 'the answer is no success'}`];
    lines.push(`      <failure ${attrs({ type: failed.length > 0 ? 'assertion' : 'no-success', message: messages[0] })}>${text(messages.join('\n'))}</failure>`);
  }
  const answer = o.status !== undefined ? ` -> HTTP ${o.status}${o.code ? ` ${o.code}` : ''}` : '';
  const checks = o.assertions.map((a) => `${a.passed ? 'pass' : 'FAIL'} ${where(a.line)}: ${a.message}`);
  lines.push(`      <system-out>${text([`${o.method} ${r.url ?? o.request.url}${answer}`, ...checks].join('\n'))}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

function xmlAttributes(values: Readonly<Record<string, string | number>>, text: (s: string) => string): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}="${text(String(v)).replace(/"/g, '&quot;').replace(/\n/g, '&#10;')}"`)
    .join(' ');
}

// Characters XML 1.0 cannot hold at all (C0 controls but tab and line ends, lone surrogates, U+FFFE/F):
// written as a visible \uXXXX, as the terminal output writes them.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function xmlText(s: string): string {
  return s
    .replace(NOT_XML, (ch) => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
