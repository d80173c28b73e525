// `--report FILE.html` of `bizdata test`, `batch` and `send`: what the run's report needs, gathered
// beside the run without changing it (the client's calls and waits, each request's outcome), and the
// one HTML file written at the end (core/report, loaded only when a report is asked for); and the
// JUnit XML of `bizdata test --junit FILE`.
import { stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { CallFailure, CallResult, WireEvent } from '../core/model';
import { fileProblem } from '../core/readText';
import type { DataRow } from '../core/data/rows';
import type { RunHost } from '../core/run/engine';
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
  await checkRunOutput('--report', path, inputs, { ext: /\.html?$/i, kind: 'an .html file', example: 'report.html' });
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

/** Writes the report; `redact` is the run's client's, with every secret it has seen. */
export async function writeRunReport(path: string, run: ReportRun, redact: (text: string) => string): Promise<void> {
  const html = await runReportHtml(run, redact, { linkResults: true });
  try {
    await writeFile(path, html);
  } catch (err) {
    throw new UsageError(`Cannot write the report to ${path}: ${fileProblem(err, path)}.`);
  }
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

/** Writes `bizdata test --junit FILE`. */
export async function writeJunit(path: string, xml: string): Promise<void> {
  try {
    await writeFile(path, xml);
  } catch (err) {
    throw new UsageError(`Cannot write the JUnit report to ${path}: ${fileProblem(err, path)}.`);
  }
}

/** A data run's judged requests, each named with its row (`NAME [ROWS:LINE]`), kept as rows answer at once. */
export class RowRequests {
  private readonly judged: Array<{ readonly row: DataRow; readonly r: ReportedRequest }> = [];

  constructor(private readonly dataName: string) {}

  /** `host` for one row, keeping each judged request of it (then handed to `then`). */
  host(host: RunHost, row: DataRow, then?: (r: ReportedRequest) => void): RunHost {
    return {
      ...host,
      on: async (e) => {
        await host.on?.(e);
        if (e.kind !== 'judged') return;
        const outcome = { ...e.outcome, name: `${e.outcome.name} [${this.dataName}:${row.line}]` };
        const r: ReportedRequest = { outcome, connection: e.step?.route.name ?? 'default', url: outcome.url };
        this.judged.push({ row, r });
        then?.(r);
      },
    };
  }

  /** In the data file's order, each row's requests in file order. */
  inOrder(): ReportedRequest[] {
    return [...this.judged].sort((a, b) => a.row.line - b.row.line || a.r.outcome.request.index - b.r.outcome.request.index).map((x) => x.r);
  }
}

/** A run of judged requests of one file (a data run) as its report and summary read it. */
export function requestsRun(
  title: string,
  kind: ReportRun['kind'],
  file: string,
  requests: readonly ReportedRequest[],
  startedAt: number,
  stopped: CallFailure | undefined,
): ReportRun {
  const connections = [...new Set(requests.map((r) => r.connection))];
  const tests = requests.map((r) => reportTest(file, r, undefined));
  return { title, kind, startedAt, durationMs: Date.now() - startedAt, connections, wire: [], tests, ...(stopped ? { stopped: failureLine(stopped) } : {}) };
}
