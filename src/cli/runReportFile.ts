// `--report FILE.html` of `bizdata test`, `batch` and `send`: what the run's report needs, gathered
// beside the run without changing it (the client's calls and waits, each request's outcome), and the
// one HTML file written at the end (core/report, loaded only when a report is asked for); and the
// JUnit XML of `bizdata test --junit FILE`.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { refuseLink, writeWhole } from '../core/files/door';
import type { CallResult, WireEvent } from '../core/model';
import { answerText } from '../core/report/runRecords';
import { runLimit, type RunLimit } from '../core/report/limits';
import { runReportHtml } from '../core/report/loadReport';
import type { ReportRun, ReportTest } from '../core/report/reportModel';
import { failureLine } from '../core/exchange/failures';
import type { ParsedRequest } from '../core/requests/requestFile';
import { requestName } from '../core/run/judge';
import { outcomeTest } from '../core/run/reportTest';
import { EXIT, UsageError, type CliIo } from './io';
import { printJson } from './output';
import { allDisabledLine } from '../core/requests/requestSettings';
import { safeLine } from '../core/sanitize';
import { hostname } from 'node:os';
import type { Setup } from './makeClient';
import { jsonReport, junitReport, type ReportedRequest } from './testReport';

export const REPORT_OPTIONS = { report: { type: 'string' } } as const;

export const REPORT_HELP = `  --report FILE.html   also write the run's report: one HTML file that fetches nothing (a CI
                       artifact): the counts, calls per second against the limit with the waits,
                       result codes by count, the slowest calls and every failure, redacted`;

export const JOB_SUMMARY_HELP = `The summary (JSON on stdout) names two scopes: "thisRun", the rows this invocation wrote (rows,
ok, failed, again, durationMs, rowsPerSecond; the flat total, skipped, done, ok, failed, durationMs
and rowsPerSecond say the same, as before), and "job", every row by the results file after this run,
earlier runs' included (rows, ok, failed, notDone, earlier, complete): after the last rerun, the
whole job's. "limit" is what the run was held against: {"qps": N, "source": "configured"} (the
connection's qps, --qps or BIZDATA_QPS), "learned" (the service refused calls just above it), or
{"qps": null, "source": "unknown"}; learnedQps and learnedConcurrency are null until learned (then
remembered for the next run).`;

/** What a run's report gathers while it runs: every call and wait the clients tell, from the run's start. */
export class RunRecorder {
  readonly wire: WireEvent[] = [];
  readonly startedAt = Date.now();
  readonly observe = (event: WireEvent): void => void this.wire.push(event);
}

/** A recorder when a report is asked for (its folder checked before anything is sent), else undefined. */
export async function recorderFor(path: string | undefined, inputs: readonly string[] = []): Promise<RunRecorder | undefined> {
  if (path === undefined) return undefined;
  await checkRunOutput('--report', path, inputs, { ext: /\.html?$/i, kind: 'an .html file', example: 'report.html' });
  await refuseLink(path, 'a report');
  return new RunRecorder();
}

/** What a file a run writes is: its name's ending, the words for it, an example name. */
export interface OutputKind {
  readonly ext: RegExp;
  readonly kind: string;
  readonly example: string;
}

/** A file a run writes at its end (--report, --summary), checked before anything is sent: its kind, not an input, an existing folder. */
export async function checkRunOutput(flag: string, path: string, inputs: readonly string[], o: OutputKind): Promise<void> {
  if (!o.ext.test(path)) throw new UsageError(`${flag} ${path}: name ${o.kind}, such as ${o.example}.`);
  const own = inputs.some((i) => resolve(i) === resolve(path));
  if (own) throw new UsageError(`${flag} ${path} is one of the run's own files; name another, such as ${o.example}.`);
  const folder = dirname(resolve(path));
  const isFolder = await stat(folder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isFolder) throw new UsageError(`${flag} ${path}: the folder ${folder} does not exist. Create it, or name a file in an existing folder.`);
}

/**
 * The limit a run ended with (core/report/limits.ts), read before its clients (and a coordinator)
 * close: what the limiter holds, else what an earlier run learned, for a run that sent nothing.
 */
export async function endLimit(setup: Pick<Setup, 'client' | 'learned'>): Promise<RunLimit> {
  return runLimit(setup.client.limiterState(), await setup.learned().catch(() => undefined));
}

/** Writes the report; `redact` is the run's client's, with every secret it has seen. */
export async function writeRunReport(path: string, run: ReportRun, redact: (text: string) => string): Promise<void> {
  const html = await runReportHtml(run, redact, { linkResults: true });
  await writeWhole(path, html, 'a report');
}

/** A reported request as the report shows it: with what was sent and the answer when it failed. */
export function reportTest(file: string, r: ReportedRequest, result: CallResult | undefined): ReportTest {
  return outcomeTest(file, r.outcome, result, r.connection);
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

/** A run of files whose requests are all disabled: the one line, and empty reports where asked for. */
export async function nothingEnabled(files: readonly string[], count: number, values: { junit?: string; json?: boolean }, io: CliIo): Promise<number> {
  const run = { files: [] };
  if (values.json) printJson(jsonReport(run), io);
  else io.stdout.write(`${safeLine(allDisabledLine(files.join(', '), count))}\n`);
  if (values.junit !== undefined) await writeJunit(values.junit, junitReport(run, hostname()));
  return EXIT.ok;
}
