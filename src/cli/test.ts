// `bizdata test FILE|DIR...`: request files run as tests by the run engine (core/run/engine.ts), as
// `bizdata send` and the Test Explorer run them: in order, with chaining, each judged by its `??`
// assertions; this command only reports the run for people, as JSON, as JUnit XML or as HTML.
import { readdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runRequests, type RunEvent } from '../core/run/engine';
import { cliRunHost } from './runHost';
import { DATA_OPTIONS, DATA_TEST_HELP, testWithData } from './dataRun';
import { dataOfRun, withoutDataDriven } from './dataFileBeside';
import { allDisabledLine } from '../core/requests/requestSettings';
import { requestName } from '../core/run/judge';
import { chooseConnection } from './connections';
import { runLimit } from '../core/report/runRecords';
import { errorMessage } from '../core/errors';
import type { CallFailure, CallResult } from '../core/model';
import { failureLine } from '../core/exchange/failures';
import type { ReportTest } from '../core/report/reportModel';
import { checkJunit, recorderFor, REPORT_HELP, REPORT_OPTIONS, reportTest, writeJunit, writeRunReport } from './runReportFile';
import { safeLine } from '../core/sanitize';
import { parse } from './args';
import { CONNECTION_HELP, CONNECTION_OPTIONS } from './connectionOptions';
import type { Setup } from './makeClient';
import { printFailure, printJson } from './output';
import { EXIT, UsageError, type CliIo } from './io';
import { PRODUCTION_HELP, PRODUCTION_OPTIONS, refuseRunProblems, requestClients } from './requestClients';
import { REQUEST_INPUT_HELP, REQUEST_INPUT_OPTIONS } from './requestInputs';
import { cliConnections, cliEdges, loadRequestFile, type LoadedFile } from './runEdges';
import { endBySignal, requestFileStop } from './signals';
import { countsOf, jsonReport, junitReport, requestLines, summaryLine, type FileReport, type ReportedRequest } from './testReport';

export const TEST_HELP = `Usage: bizdata test FILE|DIR... [--junit FILE] [--json] [--report FILE.html] [connection options]
       bizdata test FILE --data ROWS.csv|ROWS.jsonl [--junit FILE] [--json] [--concurrency N]

Runs request files as tests: every request of each file, in order, with chaining ({{login.response.body.$.id}}),
through the same client as "bizdata send" (the managed token, the limiter, the lockout guard). A folder
means every *.bizdata.http file under it.

Assertions are lines after a request (httpYac's syntax); they are data, and no JavaScript ever runs:
  ?? status == 200                         ?? header content-type includes json
  ?? body $.matchCandidates[0].organization.duns exists
  ?? body $.candidatesMatchedQuantity >= 1 ?? body $.items length == 3
  ?? code == CM000                         ?? duration < 2000
Operators: ==, !=, <, <=, >, >=, exists, !exists, includes, matches /re/, isArray, and length before
a comparison. Paths are JSONPath (RFC 9535). "code" is the result code the client recognised in the
answer, in any of the service's shapes.

A request passes when every assertion holds; one without assertions passes when its answer is a
success (2xx and no failing result code). An SC006 or 429 the client waits out and retries is not a
failure. A malformed assertion refuses the whole run before anything is sent (FILE:LINE, exit 2).

Connections: each request goes through its file's "# @connection NAME" (on the request, or at the top
of the file), else the run's connection (--connection, BIZDATA_CONNECTION, the file's "active", or
--sandbox). Reports name the connection of every request.
Each connection's requests carry only that connection's credentials (see "Credentials" below).

${PRODUCTION_HELP}

Requests marked "# @disabled" are skipped (when every request is, one line says so, exit 0);
"# @prompt" and "# @note" are answered as below.

${REQUEST_INPUT_HELP}

Output: one line per request and one per failed assertion (FILE:LINE: expected, actual), then a
summary.
  --junit FILE   also write JUnit XML: a testsuite per file, a testcase per request
  --json         print one JSON document with every file, request and assertion instead of lines
${REPORT_HELP}

${DATA_TEST_HELP}

Exit status: 0 all passed, 1 a test failed or could not be judged, 2 bad usage or a bad file (nothing
sent), 3 authentication failure or the lockout guard refused (the run stops), 4 a limit or contract
stop (the run stops). Ctrl-C (SIGINT) or SIGTERM gives the request on its way 0.75 s to be
answered (then cuts it), sends no other, writes the reports of what ran, and ends the process by that
signal.

${CONNECTION_HELP}`;

const TEST_OPTIONS = { ...CONNECTION_OPTIONS, ...REQUEST_INPUT_OPTIONS, ...PRODUCTION_OPTIONS, ...REPORT_OPTIONS, junit: { type: 'string' }, json: { type: 'boolean' }, data: DATA_OPTIONS.data } as const;
const REQUEST_FILE = '.bizdata.http';


export async function runTestCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, TEST_OPTIONS, true);
  if (values.help) {
    io.stdout.write(TEST_HELP);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError('Give one or more request files or folders: bizdata test FILE|DIR... See "bizdata test --help".');
  const data = await dataOfRun(values.data, positionals, io);
  if (data !== undefined) {
    if (positionals.length !== 1 || values.report !== undefined) throw new UsageError('--data runs one request file once per row: bizdata test FILE --data ROWS.csv (without --report). See "bizdata test --help".');
    return testWithData(positionals[0], { ...values, data }, io);
  }
  const named = await requestFiles(positionals);
  // A folder's data-driven files run alone, once per row; the files named run as named.
  const files = positionals.every((p) => named.includes(p)) ? named : await withoutDataDriven(named, io, 'test');
  if (files.length === 0) throw new UsageError(`Every request file of ${positionals.join(', ')} is data-driven: run each alone, as said above.`);
  const recorder = await recorderFor(values.report, files);
  await checkJunit(values.junit);
  const skipped: ReportTest[] = [];
  const loaded: LoadedFile[] = [];
  for (const file of files) loaded.push(await loadRequestFile(file, values, io, 'test'));
  // Requests that are all "# @disabled": nothing to send, and no failure; one line says so.
  const disabled = loaded.flatMap((l) => l.disabled.map((r) => ({ file: l.path, r })));
  if (loaded.every((l) => l.requests.length === 0) && disabled.length > 0) return nothingEnabled(files, disabled.length, values, io);
  const chosen = await chooseConnection(values, io.env);
  // What the run refuses and asks, decided once (core/run/preflight.ts): a file with an error, a
  // malformed assertion among them, refuses the run before anything is sent.
  const { preflight, answers } = await cliEdges(loaded, cliConnections(chosen, values, io), values, io);
  if (loaded.every((l) => l.requests.length === 0)) throw new UsageError(`${files.join(', ')} ${files.length === 1 ? 'holds' : 'hold'} no request. Write one as "GET {{baseUrl}}/v1/…", with "?? status == 200" below it.`);
  const { secrets } = preflight;
  const redact = (text: string): string => secrets.redact(text);
  for (const { file, r } of disabled) {
    io.stderr.write(`${safeLine(`${file}: ${requestName(r)}: skipped (# @disabled)`)}\n`);
    skipped.push({ name: requestName(r), file, line: r.requestLine + 1, verdict: 'skipped', method: r.method, url: r.url, failedAssertions: [] });
  }
  // A client per connection used, shared by every file: one token, one limiter and one guard per account.
  const clients = await requestClients(
    loaded.map((l) => ({ file: l.parsed, path: l.path, requests: l.requests })),
    chosen,
    values,
    io,
    refuseRunProblems,
    secrets,
    recorder?.observe,
  );
  const { main } = clients;
  const { requestTimeoutMs } = main;
  // Without a connections file or a name, the flags and variables alone: reported as "default".
  const nameOf = (setup: Setup): string => setup.connection?.name ?? 'default';
  const stop = requestFileStop(requestTimeoutMs, io);
  const say = (line: string): void => {
    if (!values.json) io.stdout.write(`${safeLine(redact(line))}\n`);
  };
  const reports: FileReport[] = [];
  const answered = new Map<ReportedRequest, CallResult>();
  let stopped: CallFailure | undefined;
  let stoppedBy = main;
  const t0 = performance.now();
  try {
    for (const l of loaded) {
      if (stopped || stop.received) break;
      const { path: file } = l;
      const requests: ReportedRequest[] = [];
      reports.push({ file, startedAt: new Date().toISOString(), requests });
      const on = (e: RunEvent): void => {
        if (e.kind === 'skipped' && e.why === 'declined') io.stderr.write(`${safeLine(`${file}: ${requestName(e.request)}: not sent (declined)`)}\n`);
        if (e.kind !== 'judged') return;
        const reported = { outcome: e.outcome, connection: e.step?.route.name ?? nameOf(clients.setupOf(e.outcome.request)), url: e.outcome.url };
        if (recorder && e.step) answered.set(reported, e.step.result);
        requests.push(reported);
        for (const line of requestLines(file, reported)) say(line);
      };
      const run = await runRequests({ file: l.parsed, requests: l.requests, until: 'end' }, cliRunHost({ clients, file: l, answers, secrets, values, stop, on }));
      if (run.stopped?.failure) {
        stopped = run.stopped.failure;
        stoppedBy = clients.setupNamed(run.stopped.route?.name ?? '') ?? main;
      }
    }
  } finally {
    await clients.close();
    stop.dispose();
  }
  const run = { files: reports, stopped, signal: stop.received };
  const counts = countsOf(reports);
  const durationMs = performance.now() - t0;
  say(summaryLine(counts, durationMs / 1000));
  if (recorder && values.report !== undefined) {
    const tests = [...reports.flatMap((f) => f.requests.map((r) => reportTest(f.file, r, answered.get(r)))), ...skipped];
    const why = stopped ? failureLine(stopped) : stop.received ? `stopped by ${stop.received}` : undefined;
    const connections = [...new Set(reports.flatMap((f) => f.requests.map((r) => r.connection)))];
    const title = `bizdata test ${positionals.join(' ')}`;
    await writeRunReport(values.report, { title, kind: 'test', startedAt: recorder.startedAt, durationMs, connections, wire: recorder.wire, limit: runLimit(main.client.limiterState()), tests, ...(why !== undefined ? { stopped: why } : {}) }, redact);
  }
  if (values.junit !== undefined) await writeJunit(values.junit, junitReport(run, hostname(), redact));
  if (values.json) printJson(jsonReport(run, redact), io);
  if (stop.received) return endBySignal(stop.received, io);
  if (stopped) {
    io.stderr.write('bizdata test: the run stopped: no other request was sent.\n');
    return printFailure(stopped, io, redact, stoppedBy.codes);
  }
  return counts.failed > 0 || counts.errors > 0 ? EXIT.other : EXIT.ok;
}

/** A run of files whose requests are all disabled: the one line, and empty reports where asked for. */
async function nothingEnabled(files: readonly string[], count: number, values: { junit?: string; json?: boolean }, io: CliIo): Promise<number> {
  const run = { files: [] };
  if (values.json) printJson(jsonReport(run), io);
  else io.stdout.write(`${safeLine(allDisabledLine(files.join(', '), count))}\n`);
  if (values.junit !== undefined) await writeJunit(values.junit, junitReport(run, hostname()));
  return EXIT.ok;
}

/** The files named, and every *.bizdata.http under the folders named, in order, each once. */
async function requestFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    let isFolder: boolean;
    try {
      isFolder = (await stat(p)).isDirectory();
    } catch (err) {
      throw new UsageError(`Cannot read ${p}: ${(err as NodeJS.ErrnoException).code ?? errorMessage(err)}.`);
    }
    if (!isFolder) {
      out.push(p);
      continue;
    }
    const entries = await readdir(p, { recursive: true, withFileTypes: true });
    const found = entries
      .filter((e) => e.isFile() && e.name.endsWith(REQUEST_FILE))
      .map((e) => join(e.parentPath, e.name))
      .filter((f) => !f.split(/[\\/]/).includes('node_modules'))
      .sort();
    if (found.length === 0) throw new UsageError(`No *${REQUEST_FILE} file under ${p}. Name request files like lookups${REQUEST_FILE}, or give the files themselves.`);
    out.push(...found);
  }
  return [...new Set(out)];
}
