// `bizdata send FILE --data ROWS` and `bizdata test FILE --data ROWS`: a request file run once per row
// of a data file (core/run/dataRows.ts on the rows runner), each column a variable, the data file
// streamed (never held whole). What could refuse the run is decided by the run's preflight
// (core/run/preflight.ts) before anything is sent, not even a sign-in: the data file (read only inside
// the request file's folder when it was picked up beside it), every row's variables (ROWS:LINE), the
// --column paths and the results file (never written through a link). A row whose own values cannot be
// sent is that row's failure; the others run. This file only asks, shows and writes: send appends one
// result per row to --out and prints a summary; test reports one test per row and request.
import { realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { hostname } from 'node:os';
import { parseColumnFlags } from '../core/data/resultColumns';
import { openResults } from '../core/data/results';
import type { ResultsFile } from '../core/data/resultTypes';
import type { DataRow } from '../core/data/rows';
import { openDataFile, type DataSource } from '../core/data/dataSource';
import { resultsFileOf } from '../core/data/dataFiles';
import type { RunSecrets } from '../core/redact';
import { allDisabledLine } from '../core/requests/requestSettings';
import { runDataRows, unsentText, type DataRunPlan } from '../core/run/dataRows';
import type { RunHost } from '../core/run/engine';
import type { DataShape } from '../core/run/preflight';
import type { RowsProgress, RowsSummary } from '../core/run/rows';
import { safeLine } from '../core/sanitize';
import { exitCodeFor, printFailure, printJson } from './output';
import { batchWorkers } from './coordination';
import { chooseConnection, withConnectionFields } from './connections';
import type { DataOfRun } from './dataFileBeside';
import { EXIT, UsageError, type CliIo } from './io';
import { refuseRunProblems, requestClients, type RequestClients } from './requestClients';
import { checkJunit, writeJunit } from './runReportFile';
import { cliRunHost } from './runHost';
import { cliConnections, cliEdges, loadRequestFile, refuse, type EdgeValues, type LoadedFile } from './runEdges';
import { endBySignal, requestFileStop, type StopRequests } from './signals';
import { countsOf, jsonReport, junitReport, requestLines, summaryLine, type ReportedRequest } from './testReport';

export const DATA_OPTIONS = { data: { type: 'string' }, out: { type: 'string', short: 'o' }, column: { type: 'string', multiple: true } } as const;

const DATA_COMMON_HELP = `Each column of ROWS is a variable: {{country}} is the row's "country" (a row's value wins over the
file's own "@country = …"). ROWS is a CSV with a header row (RFC 4180: quoted commas and quotes, line
breaks in quotes, CRLF, a UTF-8 BOM) or JSON Lines (.jsonl, one object a line). Each row runs the
file's requests in order with its own chained answers; --concurrency N rows run at once ("auto" by
default), all through one client per connection: one token, limiter and lockout guard. Before
anything is sent (not even a sign-in), a data file that cannot be read is refused at its line
(ROWS:LINE), and so are a row without a value for a variable the file uses, a value over 65,536
characters and a header over 1,000 columns (exit status 2); the file is read as a stream, whatever
its size. A row whose own values cannot be sent (a line break in a header, a URL moved off the
service or too long) fails that row at ROWS:LINE, and the other rows run. A request marked
"# @note" is asked once, for every row, at a terminal, or sent for every row with --confirm-notes.
Without --data, a file NAME.bizdata.http with NAME.data.csv or NAME.data.jsonl beside it runs once
per row of that file, as the Test Explorer runs it (that file is read only when it is really inside
the request file's folder); a folder run leaves such files to a run of their own and says so.`;

export const DATA_SEND_HELP = `Data-driven runs:
  --data ROWS          run the file once per row of ROWS (.csv or .jsonl)
  --out RESULTS        where one result per row is appended as it is answered: .jsonl (the row's
                       line and values, ok, status, code, the answer or the error, final, at) or .csv
                       (the input columns, line, status, code, and --column cells; one line per row);
                       without --out, beside the data file, named after it: rows.csv gives
                       rows.results.jsonl (as the editor's Run with Data)
  --column NAME=JSONPATH  (CSV results, repeatable) a column of what the path selects in the answer
${DATA_COMMON_HELP}
A row's result is that of its last request, or of the first one that did not pass. Running the same
command again skips the rows already written as done, so a stopped or killed run (kill -9 too)
resumes: only a row on its way at the kill may run twice. The results file is never written through
a link, and --out naming a file that is not a results file is refused and left as it is. A failure
that would be every row's (credentials, the lockout guard, a contract limit, a Retry-After longer
than 60 s) stops the run cleanly: no new row starts, the rows on their way finish and are written.
Ctrl-C or SIGTERM ends it within a second: the rows on their way get 0.75 s and are then cut (and
run again next time), and the summary is printed on stdout. The summary (JSON on stdout): total, skipped, done, ok,
failed, outFile, rowsPerSecond, and stoppedBy when a failure stopped it. Exit status: 0 every row
passed, 1 some failed, the stop's status, or 130/143 after a signal.`;

export const DATA_TEST_HELP = `Data-driven tests:
  --data ROWS          run the one FILE once per row of ROWS (.csv or .jsonl): one test per row and
                       request, named "NAME [ROWS:LINE]"; in the lines, --json and --junit alike
${DATA_COMMON_HELP}`;

/** The flags a data-driven run reads (send's and test's). */
type ParsedArgs = EdgeValues & { readonly data: DataOfRun; readonly out?: string; readonly column?: string[]; readonly junit?: string; readonly json?: boolean };

interface DataRun {
  readonly loaded: LoadedFile;
  readonly source: DataSource;
  readonly total: number;
  readonly clients: RequestClients;
  readonly host: RunHost;
  readonly stop: StopRequests;
  readonly concurrency: number;
  readonly secrets: RunSecrets;
  readonly results?: ResultsFile;
}

/** Checks everything (the run's preflight), makes the clients (nothing is sent), and opens the results (send). */
async function prepareDataRun(file: string, values: ParsedArgs, io: CliIo, command: 'send' | 'test'): Promise<DataRun | number> {
  const loaded = await loadRequestFile(file, values, io, command);
  if (loaded.requests.length === 0) {
    io.stderr.write(`${safeLine(allDisabledLine(file, loaded.disabled.length))}\n`);
    return EXIT.ok;
  }
  await checkJunit(values.junit);
  const columns = parseColumnFlags(values.column ?? []);
  if (!columns.ok) throw new UsageError(`nothing was sent: ${columns.message}`);
  const { path: dataFile, pickedUp } = values.data;
  const opened = await openDataFile(dataFile, { named: dataFile, ...(pickedUp ? { root: dirname(await realpath(file)) } : {}) });
  if (!opened.ok) refuse([{ file, message: opened.message }]);
  const { source } = opened;
  try {
    const chosen = await chooseConnection(values, io.env);
    const { preflight, answers } = await cliEdges([{ ...loaded, data: source }], cliConnections(chosen, values, io), values, io);
    const { secrets } = preflight;
    const data = preflight.data.get(file) as DataShape;
    let results: ResultsFile | undefined;
    if (command === 'send') {
      const outFile = values.out ?? resultsFileOf(dataFile);
      const out = await openResults({ outFile, dataColumns: data.columns, columns: columns.columns, redact: (t) => secrets.redact(t) });
      if (!out.ok) throw new UsageError(`nothing was sent: ${out.message}`);
      results = out.results;
    }
    const clients = await requestClients([{ file: loaded.parsed, path: file, requests: loaded.requests }], chosen, values, io, refuseRunProblems, secrets).catch(async (err: unknown) => {
      await results?.close();
      throw err;
    });
    const stop = requestFileStop(clients.main.requestTimeoutMs, io, 'rows');
    const host = cliRunHost({ clients, file: loaded, answers, secrets, values, stop });
    const concurrency = batchWorkers(withConnectionFields(values, clients.main.connection), io.env);
    return { loaded, source, total: data.rows, clients, host, stop, concurrency, secrets, ...(results ? { results } : {}) };
  } catch (err) {
    await source.close();
    throw err;
  }
}

/** Rows done (of all, earlier runs included), ok, failed and this run's rate, on one terminal line. */
function progressLine(io: CliIo): ((p: RowsProgress) => void) | undefined {
  if (!io.stderr.isTTY) return undefined;
  return (p) => {
    const rate = p.elapsedMs > 0 ? (p.done / (p.elapsedMs / 1000)).toFixed(1) : '0';
    io.stderr.write(`\r${p.done + p.skipped}/${p.total} rows (ok ${p.ok}, failed ${p.failed}, done earlier ${p.skipped}) ${rate}/s`);
  };
}

/** `bizdata send FILE --data ROWS [--out RESULTS]`: one result per row appended, the summary on stdout. */
export async function sendWithData(file: string, values: ParsedArgs, io: CliIo): Promise<number> {
  const run = await prepareDataRun(file, values, io, 'send');
  if (typeof run === 'number') return run;
  const { stop, clients, source } = run;
  const results = run.results as ResultsFile;
  const redact = (t: string): string => run.secrets.redact(t);
  let summary: RowsSummary;
  try {
    summary = await runDataRows(
      { ...planOf(run, file, values), until: 'first-failure', results, onProgress: progressLine(io) },
      () => run.host,
    );
  } finally {
    await results.close();
    await clients.close();
    await source.close();
    stop.dispose();
  }
  if (io.stderr.isTTY) io.stderr.write('\n');
  const { stoppedBy } = summary;
  const rate = summary.durationMs > 0 ? Math.round((summary.done / (summary.durationMs / 1000)) * 10) / 10 : 0;
  const shown = stoppedBy && { kind: stoppedBy.kind, code: stoppedBy.code, status: stoppedBy.status, text: redact(stoppedBy.text), advice: stoppedBy.advice, ...(stoppedBy.comeBackAt !== undefined ? { comeBackAt: new Date(stoppedBy.comeBackAt).toISOString() } : {}) };
  printJson({ total: summary.total, skipped: summary.skipped, done: summary.done, ok: summary.ok, failed: summary.failed, outFile: results.outFile, cancelled: summary.cancelled, ...(shown ? { stoppedBy: shown } : {}), durationMs: Math.round(summary.durationMs), rowsPerSecond: rate }, io);
  if (stoppedBy) {
    io.stderr.write(`bizdata: the run stopped: no new row was started; running the same command again does the rest.\n`);
    printFailure(stoppedBy, io, redact, clients.main.codes);
    return exitCodeFor(stoppedBy.kind);
  }
  if (stop.received) {
    io.stderr.write(`bizdata: stopped by ${stop.received}: ${summary.done} rows written to ${safeLine(results.outFile)} this run; run the same command again to do the rest.\n`);
    return endBySignal(stop.received, io);
  }
  return summary.failed > 0 ? EXIT.other : EXIT.ok;
}

/** `bizdata test FILE --data ROWS`: one test per row and request, named with the row's line. */
export async function testWithData(file: string, values: ParsedArgs, io: CliIo): Promise<number> {
  const run = await prepareDataRun(file, values, io, 'test');
  if (typeof run === 'number') return run;
  const { stop, clients, source } = run;
  const redact = (t: string): string => run.secrets.redact(t);
  const dataName = basename(values.data.path);
  const reported: Array<{ readonly row: DataRow; readonly r: ReportedRequest }> = [];
  const say = (line: string): void => {
    if (!values.json) io.stdout.write(`${safeLine(redact(line))}\n`);
  };
  const hostFor = (row: DataRow): RunHost => ({
    ...run.host,
    on: (e) => {
      if (e.kind !== 'judged') return;
      // Not sent with this row's values: that row's failure, at ROWS:LINE as every host says it.
      const message = e.step ? e.outcome.message : unsentText(planOf(run, file, values).names, row, e.outcome);
      const outcome = { ...e.outcome, name: `${e.outcome.name} [${dataName}:${row.line}]`, ...(message !== undefined ? { message } : {}) };
      const r: ReportedRequest = { outcome, connection: e.step?.route.name ?? 'default', url: outcome.url };
      reported.push({ row, r });
      for (const line of requestLines(file, r)) say(line);
    },
  });
  let summary: RowsSummary;
  const t0 = performance.now();
  try {
    summary = await runDataRows({ ...planOf(run, file, values), until: 'end' }, hostFor);
  } finally {
    await clients.close();
    await source.close();
    stop.dispose();
  }
  // Rows ran at once: reported in the data file's order, each row's requests in file order.
  const requests = reported.sort((a, b) => a.row.line - b.row.line || a.r.outcome.request.index - b.r.outcome.request.index).map((x) => x.r);
  const report = { files: [{ file, startedAt: new Date(Date.now() - (performance.now() - t0)).toISOString(), requests }], stopped: summary.stoppedBy, signal: stop.received };
  const counts = countsOf(report.files);
  say(summaryLine(counts, (performance.now() - t0) / 1000));
  if (values.junit !== undefined) await writeJunit(values.junit, junitReport(report, hostname(), redact));
  if (values.json) printJson(jsonReport(report, redact), io);
  if (stop.received) return endBySignal(stop.received, io);
  if (summary.stoppedBy) {
    io.stderr.write('bizdata test: the run stopped: no new row was started.\n');
    return printFailure(summary.stoppedBy, io, redact, clients.main.codes);
  }
  return counts.failed > 0 || counts.errors > 0 ? EXIT.other : EXIT.ok;
}

/** What both commands run: the rows as the data file streams them, through the run's routes; Ctrl-C stops, then cuts. */
function planOf(run: DataRun, file: string, values: ParsedArgs): Omit<DataRunPlan, 'until'> {
  const { loaded, stop } = run;
  return {
    file: loaded.parsed,
    requests: loaded.requests,
    names: { requestFile: file, dataFile: values.data.path },
    rows: run.source.rows(),
    total: run.total,
    concurrency: run.concurrency,
    stop: stop.stop,
    signal: stop.cut,
    secrets: run.secrets,
  };
}
