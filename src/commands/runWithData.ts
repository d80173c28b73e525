// "Business Data: Run with Data…" (and the CodeLens at the top of a request file): the file's requests
// run once per row of a data file (CSV with a header row, or JSON Lines), each column a variable
// (`{{country}}`), by the rows runner the CLI's `--data` uses (core/run/dataRows.ts) through the editor's host. The data file is
// read and checked before anything is sent (a row that lacks a variable the file uses is refused at its
// line); a cancellable progress notification says rows done of total, the rate and the time left; the
// results go beside the data file as NAME.results.jsonl (one line per row, as written), and running it
// again resumes where it stopped; the run is kept for "Open Report". With { uri, data } it skips the
// open dialog. Returns the URI (string) of the results file, or undefined when nothing ran.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkRows } from '../core/data/rowCheck';
import { problemText, readRows, type DataRow, type DataTable } from '../core/data/rows';
import { openResults } from '../core/data/results';
import { connectionOfRequest } from '../core/requests/requestConnections';
import { parseRequestFile, type ParsedRequestFile } from '../core/requests/requestFile';
import { connectionVariables, dataVariables } from '../core/requests/requestVariables';
import { runLimit } from '../core/report/runRecords';
import { runDataRows } from '../core/run/dataRows';
import type { RowsSummary } from '../core/run/rows';
import { safeLine } from '../core/sanitize';
import type { Connection } from '../features/connection/connection';
import { confirmProductionRun } from '../features/connection/consent';
import { dataPercentDone, dataProgressMessage, dataResultsPath, dataSummaryMessage } from '../features/requestFiles/dataRunText';
import { askedOnce, editorRunHost } from '../features/requestFiles/editorRunHost';
import { sendForAnswer } from '../features/results/lookUpAndShow';
import type { Services } from '../features/services';
import { Commands, executeCommand } from '../features/shared/commandIds';
import { UserError } from '../features/shared/userError';
import { RunRecording } from '../features/testing/testRunReport';
import { stringField } from './args';

const OPEN_REPORT = 'Open Report';

export async function runWithData(services: Services, arg?: unknown): Promise<string | undefined> {
  const requestUri = requestFileOf(arg);
  if (!vscode.workspace.isTrusted) throw new UserError('This folder is in Restricted Mode, so request files send nothing with your token. Trust the folder ("Workspaces: Manage Workspace Trust") if you trust its request files, then run again.');
  const document = await vscode.workspace.openTextDocument(requestUri);
  const text = document.getText();
  const file = parseRequestFile(text);
  const where = vscode.workspace.asRelativePath(requestUri);
  const error = file.problems.find((p) => p.severity === 'error');
  if (error) throw new UserError(`Nothing was sent: ${where}:${error.span.line + 1}: ${error.message}`);
  const requests = file.requests.filter((r) => !r.settings.disabled);
  if (requests.length === 0) throw new UserError(`${where} holds no request to run${file.requests.length > 0 ? ' (every one is marked "# @disabled")' : ''}. Write one that uses a column of the data file, as "GET {{baseUrl}}/v1/duns-search/ip/{{ip}}".`);
  const data = await dataFileOf(arg, requestUri);
  if (!data) return undefined;
  const table = await checkedRows(services, data, text, file, where);
  const choice = services.connections.choice();
  const reached = requests.flatMap((r) => {
    const c = connectionOfRequest(file, r, choice);
    const connection = c.ok ? services.connections.named(c.name) : undefined;
    return connection ? [connection] : [];
  });
  if (!(await confirmProductionRun(reached, `Run ${where} for ${table.rows.length} rows of ${path.basename(data.fsPath)}`))) return undefined;
  const outFile = dataResultsPath(data.fsPath);
  const opened = await openResults({ outFile, table });
  if (!opened.ok) throw new UserError(opened.message);
  const { results } = opened;
  const recording = new RunRecording(`Run with Data: ${where} × ${vscode.workspace.asRelativePath(data)}`);
  let summary: RowsSummary;
  try {
    summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Run with Data: ${path.basename(requestUri.fsPath)} × ${path.basename(data.fsPath)}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const subscription = token.onCancellationRequested(() => abort.abort());
        const asked = askedOnce();
        const rowPlace = (row: DataRow): string => `${path.basename(data.fsPath)}:${row.line}`;
        let shown = 0;
        try {
          return await runDataRows(
            {
              file,
              requests,
              until: 'end',
              rows: table.rows,
              results,
              // Rows at a time, as a batch runs its lookups; the client's limiter keeps the rate.
              concurrency: vscode.workspace.getConfiguration('bizdata.batch').get<number>('concurrency', 2),
              signal: abort.signal,
              redact: (t) => services.connections.redact(t),
              onProgress: (p) => {
                const percent = dataPercentDone(p);
                progress.report({ increment: percent - shown, message: dataProgressMessage(p, p.elapsedMs, limitOf(reached[0])) });
                shown = percent;
              },
            },
            (row) =>
              editorRunHost({
                connections: services.connections,
                uri: requestUri,
                file,
                row: new Map(Object.entries(row.values)),
                asked,
                signal: abort.signal,
                send: async (connection, request, _r, _call, rows) => (recording.watch(connection), (await sendForAnswer(connection, services, request, { signal: rows?.signal ?? abort.signal, stop: rows?.stop })).result),
                // Each request of each row in the run's report, named after its row.
                on: (e) => {
                  if (e.kind === 'judged') recording.add(where, e.outcome.request, { verdict: e.outcome.verdict, name: `${e.outcome.name} (row ${rowPlace(row)})`, connection: e.step?.route.name, sent: e.step?.sent, result: e.step?.result, assertions: e.outcome.assertions, message: e.outcome.message });
                },
              }),
          );
        } finally {
          subscription.dispose();
        }
      },
    );
  } finally {
    await results.close();
    services.reports.keep(recording.report());
    recording.dispose();
  }
  services.log.info(`run with data: ${where} × ${data.fsPath}: ${summary.done} rows run, ${summary.skipped} done before, ${summary.ok} passed, ${summary.failed} did not${summary.cancelled ? ', cancelled' : ''}`);
  const outUri = vscode.Uri.file(outFile);
  await vscode.window.showTextDocument(outUri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  const show = summary.stoppedBy ? vscode.window.showErrorMessage : summary.cancelled || summary.failed > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(safeLine(`Business Data: ${dataSummaryMessage(summary, path.basename(outFile))}`), OPEN_REPORT).then((choice) => (choice === OPEN_REPORT ? executeCommand(Commands.openReport) : undefined));
  return outUri.toString();
}

/** The calls a second the connection's client holds to now (learned, capped or the contract's), when known. */
function limitOf(connection: Connection | undefined): number | undefined {
  return connection && runLimit(connection.getClient().limiterState())?.qps;
}

/** The request file: `{ uri }` (the CodeLens), else the active editor's. */
function requestFileOf(arg: unknown): vscode.Uri {
  const given = stringField(arg, 'uri');
  const uri = given !== undefined ? vscode.Uri.parse(given) : vscode.window.activeTextEditor?.document.uri;
  if (!uri) throw new UserError('Open a request file (*.bizdata.http) first: Run with Data runs its requests once per row of a data file.');
  if (uri.scheme !== 'file') throw new UserError('Save the request file in a folder first: Run with Data reads its body files and writes its results on disk.');
  return uri;
}

/** The data file: `{ data }` (a path, absolute or relative to the request file), else picked in the open dialog. */
async function dataFileOf(arg: unknown, requestUri: vscode.Uri): Promise<vscode.Uri | undefined> {
  const given = stringField(arg, 'data');
  if (given !== undefined) return vscode.Uri.file(path.resolve(path.dirname(requestUri.fsPath), given));
  const picked = await vscode.window.showOpenDialog({
    title: 'Business Data: Run with Data',
    openLabel: 'Run with These Rows',
    canSelectMany: false,
    defaultUri: vscode.Uri.file(path.dirname(requestUri.fsPath)),
    filters: { 'Data files (CSV with a header row, JSON Lines)': ['csv', 'jsonl', 'ndjson'] },
  });
  return picked?.[0];
}

/** The rows, read and checked against the variables the request file takes from them, before anything is sent. */
async function checkedRows(services: Services, data: vscode.Uri, text: string, file: ParsedRequestFile, where: string): Promise<DataTable> {
  let bytes: Buffer;
  try {
    bytes = await readFile(data.fsPath);
  } catch (err) {
    throw new UserError(`Cannot read the data file ${data.fsPath}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
  const dataName = vscode.workspace.asRelativePath(data);
  const read = readRows(bytes.toString('utf8'), dataName);
  if (!read.ok) throw new UserError(`Nothing was sent: ${problemText(read.problem)}`);
  const choice = services.connections.choice();
  const endpoints = choice.endpoints(file.connection?.name ?? choice.active) ?? choice.endpoints(choice.active);
  const variables = dataVariables(text, file, endpoints ? connectionVariables(endpoints) : {});
  const problems = checkRows(read.table, variables, where);
  if (problems.length > 0) throw new UserError(`Nothing was sent: ${problems.slice(0, 3).map(problemText).join(' ')}${problems.length > 3 ? ` (and ${problems.length - 3} more rows)` : ''}`);
  return read.table;
}
