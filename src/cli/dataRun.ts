// `bizdata send FILE --data ROWS` and `bizdata test FILE --data ROWS`: a request file run once per row
// of a data file (core/run/dataRows.ts on the rows runner), each column a variable. Everything that
// could refuse the run is checked before anything is sent, not even a sign-in: the data file, every
// row's variables (FILE:LINE), the --column paths and the results file. This file only asks, shows
// and writes: send appends one result per row to --out and prints a summary; test reports one test
// per row and request.
import { basename } from 'node:path';
import { hostname } from 'node:os';
import { checkRows } from '../core/data/rowCheck';
import { parseColumnFlags } from '../core/data/resultColumns';
import { openResults } from '../core/data/results';
import type { ResultsFile } from '../core/data/resultTypes';
import { problemText, readRows, type DataRow, type DataTable } from '../core/data/rows';
import { connectionNames } from '../core/connections/connection';
import { SecretRegistry } from '../core/redact';
import { connectionProblems } from '../core/requests/requestConnections';
import { bodyFiles } from '../core/requests/fileSafety';
import { parseRequestFile, type ParsedRequest, type ParsedRequestFile } from '../core/requests/requestFile';
import { requestFileText } from '../core/requests/requestText';
import { connectionVariables, dataVariables, unknownReferences } from '../core/requests/requestVariables';
import { runDataRows } from '../core/run/dataRows';
import { resultsFileOf } from '../core/data/dataFiles';
import { unsendableAtStart, type RunHost } from '../core/run/engine';
import type { FileInputs } from '../core/run/prepare';
import type { RowsProgress, RowsSummary } from '../core/run/rows';
import { safeLine } from '../core/sanitize';
import type { ConnectionValues } from './connectionOptions';
import { exitCodeFor, printFailure, printJson } from './output';
import { batchWorkers } from './coordination';
import { chooseConnection, withConnectionFields } from './connections';
import { EXIT, readInputBytes, UsageError, type CliIo } from './io';
import { refuseAll, refuseErrors, refuseRunProblems, requestClients, type RequestClients } from './requestClients';
import { promptAnswers, requestFileContext, type InputValues } from './requestInputs';
import { writeJunit } from './runReportFile';
import { cliRunHost } from './runHost';
import { againToStop, endBySignal, StopRequests } from './signals';
import { countsOf, jsonReport, junitReport, requestLines, summaryLine, type ReportedRequest } from './testReport';
import type { CallCeiling } from '../core/contract/ceiling';
import { ceilingOf, requestParts, weighRun, type CostValues } from './runCost';

export const DATA_OPTIONS = { data: { type: 'string' }, out: { type: 'string', short: 'o' }, column: { type: 'string', multiple: true } } as const;

const DATA_COMMON_HELP = `Each column of ROWS is a variable: {{country}} is the row's "country" (a row's value wins over the
file's own "@country = …"). ROWS is a CSV with a header row (RFC 4180: quoted commas and quotes, line
breaks in quotes, CRLF, a UTF-8 BOM) or JSON Lines (.jsonl, one object a line). Each row runs the
file's requests in order with its own chained answers; --concurrency N rows run at once ("auto" by
default), all through one client per connection: one token, limiter and lockout guard. Before
anything is sent (not even a sign-in), a data file that cannot be read is refused at its line
(ROWS:LINE), and so is a row without a value for a variable the file uses (exit status 2). A
request marked "# @note" is sent for every row only with --confirm-notes. Without --data, a file
NAME.bizdata.http with NAME.data.csv or NAME.data.jsonl beside it runs once per row of that file, as
the Test Explorer runs it; a folder run leaves such files to a run of their own and says so.`;

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
resumes: only a row on its way at the kill may run twice. A failure that would be every row's
(credentials, the lockout guard, a contract limit, a Retry-After longer than 60 s) stops the run
cleanly: no new row starts, the rows on their way finish and are written. Ctrl-C or SIGTERM does
the same and prints the summary on stdout. The summary (JSON on stdout): total, skipped, done, ok,
failed, outFile, rowsPerSecond, and stoppedBy when a failure stopped it. Exit status: 0 every row
passed, 1 some failed, the stop's status, or 130/143 after a signal.`;

export const DATA_TEST_HELP = `Data-driven tests:
  --data ROWS          run the one FILE once per row of ROWS (.csv or .jsonl): one test per row and
                       request, named "NAME [ROWS:LINE]"; in the lines, --json and --junit alike
${DATA_COMMON_HELP}`;

/** The flags a data-driven run reads (send's and test's). */
type ParsedArgs = ConnectionValues & InputValues & CostValues & { readonly data?: string; readonly out?: string; readonly column?: string[]; readonly junit?: string; readonly json?: boolean; readonly yes?: boolean };

/** Where results go without --out: beside the data file, as the editor writes a batch's. */
export function defaultResultsFile(dataFile: string): string {
  return resultsFileOf(dataFile);
}

/** A data run ready to go, with its results open (send). */
type OpenDataRun = DataRun & { readonly results?: ResultsFile };

interface DataRun {
  readonly parsed: ParsedRequestFile;
  readonly requests: readonly ParsedRequest[];
  readonly table: DataTable;
  readonly clients: RequestClients;
  readonly host: RunHost;
  readonly stop: StopRequests;
  readonly concurrency: number;
  readonly redact: (text: string) => string;
  /** The run's ceiling of data calls (--max-calls). */
  readonly ceiling?: CallCeiling;
}

/** Reads and checks everything, makes the clients (nothing is sent), and opens the results (send); undefined after a dry run. */
async function prepareDataRun(file: string, values: ParsedArgs, io: CliIo, command: 'send' | 'test'): Promise<OpenDataRun | undefined> {
  const dataFile = values.data as string;
  const ceiling = ceilingOf(values);
  const text = requestFileText(await readInputBytes(file));
  const parsed = parseRequestFile(text);
  refuseErrors(file, parsed.problems);
  for (const p of parsed.problems) io.stderr.write(`${safeLine(`${file}:${p.span.line + 1}: warning: ${p.message}`)}\n`);
  const requests = parsed.requests.filter((r) => !r.settings.disabled);
  if (requests.length === 0) throw new UsageError(`${file} holds no request to run (every one is "# @disabled", or there is none).`);
  const read = readRows((await readInputBytes(dataFile)).toString('utf8'), dataFile);
  if (!read.ok) throw new UsageError(`nothing was sent: ${problemText(read.problem)}`);
  const { table } = read;
  const columns = parseColumnFlags(values.column ?? []);
  if (!columns.ok) throw new UsageError(`nothing was sent: ${columns.message}`);
  // A note would be asked once per row and request: a data run takes --confirm-notes instead.
  const noted = requests.filter((r) => r.settings.note !== undefined);
  if (noted.length > 0 && values['confirm-notes'] !== true) {
    throw new UsageError(`nothing was sent: ${noted.map((r) => `${file}:${r.requestLine + 1}`).join(', ')} ${noted.length === 1 ? 'is' : 'are'} marked "# @note", which a data-driven run would ask once per row. Pass --confirm-notes to send ${noted.length === 1 ? 'it' : 'them'} for every row without asking.`);
  }
  const { root, system } = await requestFileContext(file, values, io, command);
  const secrets = new SecretRegistry();
  const prompts = await promptAnswers(requests, values, io, file, secrets);
  const inputs: FileInputs = { prompts, system, files: bodyFiles(file, root) };
  const chosen = await chooseConnection(values, io.env);
  refuseErrors(file, connectionProblems(parsed, connectionNames(chosen.connections)));
  const clients = await requestClients([{ file: parsed, path: file, requests }], chosen, values, io, refuseRunProblems, secrets);
  const { main } = clients;
  const stop = new StopRequests(main.requestTimeoutMs, (sig) =>
    io.stderr.write(`${io.stderr.isTTY ? '\n' : ''}bizdata: ${sig}: stopping: no new row starts; the rows on their way are answered (within ${main.requestTimeoutMs / 1000} s) and written. ${againToStop(sig)} to stop at once.\n`),
  );
  try {
    const connection = connectionVariables(main.endpoints);
    const rowProblems = checkRows(table, dataVariables(text, parsed, connection), file);
    if (rowProblems.length > 0) throw new UsageError(`nothing was sent: ${dataFile} cannot run ${file}.\n${rowProblems.map(problemText).join('\n')}`);
    // The data file's columns are variables too: what no column, file variable or connection defines is unknown.
    refuseErrors(file, unknownReferences(text, parsed, { ...connection, ...Object.fromEntries(table.columns.map((c) => [c, ''])) }));
    const host = cliRunHost({ clients, file, inputs, values, io, stop, ceiling });
    // Where each token goes, each body file: checked with the first row's values; a row's own values that cannot be sent fail that row.
    const first = new Map(Object.entries(table.rows[0].values));
    refuseAll(file, await unsendableAtStart({ file: parsed, requests }, host, () => ({ ...inputs, row: first })));
    let results: ResultsFile | undefined;
    if (command === 'send') {
      // A dry run reads the rows done and writes nothing.
      const readOnly = values['dry-run'] === true;
      const opened = await openResults({ outFile: values.out ?? defaultResultsFile(dataFile), table, columns: columns.columns, readOnly });
      if (!opened.ok) throw new UsageError(`nothing was sent: ${opened.message}`);
      results = opened.results;
    }
    const concurrency = batchWorkers(withConnectionFields(values, main.connection), io.env);
    const done = results ? table.rows.filter((row) => results?.isDone(row)).length : 0;
    const what = `bizdata ${command} ${file} --data ${dataFile}`;
    const cost = await weighRun(requestParts(clients.setupOf, requests, table.rows.length, done), values, io, what);
    if (cost.dryRun) {
      await results?.close();
      stop.dispose();
      await clients.close();
      return undefined;
    }
    return { parsed, requests, table, clients, host, stop, concurrency, redact: (t) => secrets.redact(t), results, ceiling };
  } catch (err) {
    stop.dispose();
    await clients.close();
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
  if (!run) return EXIT.ok;
  const { stop, clients } = run;
  const results = run.results as ResultsFile;
  let summary: RowsSummary;
  try {
    summary = await runDataRows(
      { file: run.parsed, requests: run.requests, until: 'first-failure', rows: run.table.rows, results, concurrency: run.concurrency, stop: stop.stop, redact: run.redact, onProgress: progressLine(io), ceiling: run.ceiling },
      () => run.host,
    );
  } finally {
    await results.close();
    await clients.close();
    stop.dispose();
  }
  if (io.stderr.isTTY) io.stderr.write('\n');
  const { stoppedBy } = summary;
  const rate = summary.durationMs > 0 ? Math.round((summary.done / (summary.durationMs / 1000)) * 10) / 10 : 0;
  const shown = stoppedBy && { kind: stoppedBy.kind, code: stoppedBy.code, status: stoppedBy.status, text: run.redact(stoppedBy.text), advice: stoppedBy.advice, ...(stoppedBy.comeBackAt !== undefined ? { comeBackAt: new Date(stoppedBy.comeBackAt).toISOString() } : {}) };
  printJson({ total: summary.total, skipped: summary.skipped, done: summary.done, ok: summary.ok, failed: summary.failed, outFile: results.outFile, cancelled: summary.cancelled, ...(shown ? { stoppedBy: shown } : {}), durationMs: Math.round(summary.durationMs), rowsPerSecond: rate }, io);
  if (stoppedBy) {
    io.stderr.write(`bizdata: the run stopped: no new row was started; running the same command again does the rest.\n`);
    printFailure(stoppedBy, io, run.redact, clients.main.codes);
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
  if (!run) return EXIT.ok;
  const { stop, clients } = run;
  const dataName = basename(values.data as string);
  const reported: Array<{ readonly row: DataRow; readonly r: ReportedRequest }> = [];
  const say = (line: string): void => {
    if (!values.json) io.stdout.write(`${safeLine(run.redact(line))}\n`);
  };
  const hostFor = (row: DataRow): RunHost => ({
    ...run.host,
    on: (e) => {
      if (e.kind !== 'judged') return;
      const outcome = { ...e.outcome, name: `${e.outcome.name} [${dataName}:${row.line}]` };
      const r: ReportedRequest = { outcome, connection: e.step?.route.name ?? 'default', url: outcome.url };
      reported.push({ row, r });
      for (const line of requestLines(file, r)) say(line);
    },
  });
  let summary: RowsSummary;
  const t0 = performance.now();
  try {
    summary = await runDataRows({ file: run.parsed, requests: run.requests, until: 'end', rows: run.table.rows, concurrency: run.concurrency, stop: stop.stop, redact: run.redact, ceiling: run.ceiling }, hostFor);
  } finally {
    await clients.close();
    stop.dispose();
  }
  // Rows ran at once: reported in the data file's order, each row's requests in file order.
  const requests = reported.sort((a, b) => a.row.line - b.row.line || a.r.outcome.request.index - b.r.outcome.request.index).map((x) => x.r);
  const report = { files: [{ file, startedAt: new Date(Date.now() - (performance.now() - t0)).toISOString(), requests }], stopped: summary.stoppedBy, signal: stop.received };
  const counts = countsOf(report.files);
  say(summaryLine(counts, (performance.now() - t0) / 1000));
  if (values.junit !== undefined) await writeJunit(values.junit, junitReport(report, hostname(), run.redact));
  if (values.json) printJson(jsonReport(report, run.redact), io);
  if (stop.received) return endBySignal(stop.received, io);
  if (summary.stoppedBy) {
    io.stderr.write('bizdata test: the run stopped: no new row was started.\n');
    return printFailure(summary.stoppedBy, io, run.redact, clients.main.codes);
  }
  return counts.failed > 0 || counts.errors > 0 ? EXIT.other : EXIT.ok;
}
