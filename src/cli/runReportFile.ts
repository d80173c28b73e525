// `--report FILE.html` of `bizdata test`, `batch` and `send`: what the run's report needs, gathered
// beside the run without changing it (the client's calls and waits, each request's outcome), and the
// one HTML file written at the end (core/report, loaded only when a report is asked for); and the
// JUnit XML of `bizdata test --junit FILE`.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { refuseLink, writeWhole } from '../core/files/door';
import type { CallResult, WireEvent } from '../core/model';
import { answerText } from '../core/report/runRecords';
import { runReportHtml } from '../core/report/loadReport';
import type { ReportRun, ReportTest } from '../core/report/reportModel';
import { failureLine } from '../core/exchange/failures';
import type { ParsedRequest } from '../core/requests/requestFile';
import { requestName } from '../core/run/judge';
import { UsageError } from './io';
import type { ReportedRequest } from './testReport';

export const REPORT_OPTIONS = { report: { type: 'string' } } as const;

export const REPORT_HELP = `  --report FILE.html   also write the run's report: one HTML file that fetches nothing (a CI
                       artifact): the counts, calls per second against the limit with the waits,
                       result codes by count, the slowest requests and every failure, redacted`;

/** What a run's report gathers while it runs: every call and wait the clients tell, from the run's start. */
export class RunRecorder {
  readonly wire: WireEvent[] = [];
  readonly startedAt = Date.now();
  readonly observe = (event: WireEvent): void => void this.wire.push(event);
}

/** A recorder when a report is asked for (its folder checked before anything is sent), else undefined. */
export async function recorderFor(path: string | undefined, inputs: readonly string[] = []): Promise<RunRecorder | undefined> {
  if (path === undefined) return undefined;
  if (!/\.html?$/i.test(path)) throw new UsageError(`--report ${path}: name an .html file, such as report.html.`);
  if (inputs.some((i) => resolve(i) === resolve(path))) throw new UsageError(`--report ${path} is one of the run's own files; name another, such as report.html.`);
  const folder = dirname(resolve(path));
  const isFolder = await stat(folder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isFolder) throw new UsageError(`--report ${path}: the folder ${folder} does not exist. Create it, or name a report in an existing folder.`);
  await refuseLink(path, 'a report');
  return new RunRecorder();
}

/** Writes the report; `redact` is the run's client's, with every secret it has seen. */
export async function writeRunReport(path: string, run: ReportRun, redact: (text: string) => string): Promise<void> {
  const html = await runReportHtml(run, redact, { linkResults: true });
  await writeWhole(path, html, 'a report');
}

/** A reported request as the report shows it: with what was sent and the answer when it failed. */
export function reportTest(file: string, r: ReportedRequest, result: CallResult | undefined): ReportTest {
  const o = r.outcome;
  const failing = o.verdict !== 'passed';
  const answer = result && failing ? answerText(result) : undefined;
  return {
    name: o.name,
    file,
    line: o.request.requestLine + 1,
    verdict: o.verdict,
    method: o.method,
    url: r.url ?? o.request.url,
    connection: r.connection,
    status: o.status,
    code: o.code,
    durationMs: o.durationMs,
    failedAssertions: o.assertions.filter((a) => !a.passed).map((a) => ({ line: a.line + 1, text: a.assertion.text, expected: a.expected, actual: a.actual })),
    ...(o.message !== undefined ? { message: o.message, messageLine: o.line + 1 } : {}),
    ...(failing && result?.request ? { request: result.request } : {}),
    ...(answer !== undefined ? { answer } : {}),
  };
}

/** A request `bizdata send` sent, as the report shows it: passed when its answer is a success. */
export function sentRequest(file: string, r: ParsedRequest, sent: { readonly method: string; readonly url: string }, result: CallResult, connection: string | undefined): ReportTest {
  const answer = result.ok ? undefined : answerText(result);
  return {
    name: requestName(r),
    file,
    line: r.requestLine + 1,
    verdict: result.ok ? 'passed' : 'failed',
    method: sent.method,
    url: result.request?.url ?? sent.url,
    ...(connection !== undefined ? { connection } : {}),
    status: result.status,
    code: result.code,
    durationMs: result.durationMs,
    failedAssertions: [],
    ...(result.ok ? {} : { message: failureLine(result), messageLine: r.requestLine + 1, ...(result.request ? { request: result.request } : {}) }),
    ...(answer !== undefined ? { answer } : {}),
  };
}

/** Refuses a --junit file that is a link before anything is sent: it is written at the run's end, never through a link. */
export async function checkJunit(path: string | undefined): Promise<void> {
  if (path !== undefined) await refuseLink(path, 'a JUnit report');
}

/** Writes `bizdata test --junit FILE` (never through a link: core/files/door.ts). */
export async function writeJunit(path: string, xml: string): Promise<void> {
  await writeWhole(path, xml, 'a JUnit report');
}
