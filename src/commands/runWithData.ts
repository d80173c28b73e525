// "Business Data: Run with Data…" (and the CodeLens at the top of a request file): the file's requests
// run once per row of a data file (CSV with a header row, or JSON Lines), each column a variable
// (`{{country}}`), by the rows runner the CLI's `--data` uses (core/run/dataRows.ts) through the editor's
// host. The run's edges are checked before anything is sent, as for every run (editorEdges.ts: the data
// file streamed through once, a row that lacks a variable refused at ROWS:LINE, production and notes
// asked); a cancellable progress notification says rows done of total, the rate and the time left; the
// results go beside the data file as NAME.results.jsonl (one line per row, as written), and running it
// again resumes where it stopped; the run is kept for "Open Report". With { uri, data } it skips the
// open dialog. Returns the URI (string) of the results file, or undefined when nothing ran.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { openDataFile, type DataSource } from '../core/data/dataSource';
import { openResults } from '../core/data/results';
import type { DataRow } from '../core/data/rows';
import { parseRequestFile, type ParsedRequest, type ParsedRequestFile } from '../core/requests/requestFile';
import { runLimit } from '../core/report/runRecords';
import { runDataRows } from '../core/run/dataRows';
import { refusalText, type DataShape } from '../core/run/preflight';
import type { RowsSummary } from '../core/run/rows';
import { safeLine } from '../core/sanitize';
import type { Connection } from '../features/connection/connection';
import { dataPercentDone, dataProgressMessage, dataResultsPath, dataSummaryMessage } from '../features/requestFiles/dataRunText';
import { editorEdges } from '../features/requestFiles/editorEdges';
import { editorRunHost } from '../features/requestFiles/editorRunHost';
import { sendForAnswer } from '../features/results/lookUpAndShow';
import type { Services } from '../features/services';
import { Commands, executeCommand } from '../features/shared/commandIds';
import { UserError } from '../features/shared/userError';
import { RunRecording } from '../features/testing/testRunReport';
import { stringField } from './args';

const OPEN_REPORT = 'Open Report';

export async function runWithData(services: Services, arg?: unknown): Promise<string | undefined> {
  const requestUri = requestFileOf(arg);
  const document = await vscode.workspace.openTextDocument(requestUri);
  const text = document.getText();
  const file = parseRequestFile(text);
  const where = vscode.workspace.asRelativePath(requestUri);
  const requests = file.requests.filter((r) => !r.settings.disabled);
  if (requests.length === 0) throw new UserError(`${where} holds no request to run${file.requests.length > 0 ? ' (every one is marked "# @disabled")' : ''}. Write one that uses a column of the data file, as "GET {{baseUrl}}/v1/duns-search/ip/{{ip}}".`);
  const data = await dataFileOf(arg, requestUri);
  if (!data) return undefined;
  // A data file the user chose: it may be anywhere, and is read as a stream.
  const opened = await openDataFile(data.fsPath, { named: vscode.workspace.asRelativePath(data) });
  if (!opened.ok) throw new UserError(`Nothing was sent: ${opened.message}`);
  const { source } = opened;
  try {
    return await runRows(services, { requestUri, where, text, file, requests, data, source });
  } finally {
    await source.close();
  }
}

interface RowsOfFile {
  readonly requestUri: vscode.Uri;
  readonly where: string;
  readonly text: string;
  readonly file: ParsedRequestFile;
  readonly requests: readonly ParsedRequest[];
  readonly data: vscode.Uri;
  readonly source: DataSource;
}

async function runRows(services: Services, o: RowsOfFile): Promise<string | undefined> {
  const { requestUri, where, data, source, file, requests } = o;
  // The run's edges (core/run/preflight.ts): the data file read through once and every row checked, the questions asked; nothing is sent before.
  const edges = await editorEdges(services.connections, [{ uri: requestUri, text: o.text, parsed: file, requests, data: source }], `Run ${where} for the rows of ${path.basename(data.fsPath)}`);
  if (!edges.ok) {
    if (!('refusals' in edges)) return undefined;
    const shown = edges.refusals.slice(0, 3).map(refusalText).join(' ');
    const more = edges.refusals.length - 3 + edges.more;
    throw new UserError(`Nothing was sent: ${shown}${more > 0 ? ` (and ${more} more)` : ''}`);
  }
  const shape = edges.preflight.data.get(where) as DataShape;
  const outFile = dataResultsPath(data.fsPath);
  const opened = await openResults({ outFile, dataColumns: shape.columns, redact: (t) => edges.secrets.redact(t) });
  if (!opened.ok) throw new UserError(opened.message);
  const { results } = opened;
  const recording = new RunRecording(`Run with Data: ${where} × ${vscode.workspace.asRelativePath(data)}`);
  const reached = edges.preflight.reached.flatMap((n) => services.connections.named(n) ?? []);
  let summary: RowsSummary;
  try {
    summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Run with Data: ${path.basename(requestUri.fsPath)} × ${path.basename(data.fsPath)}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const subscription = token.onCancellationRequested(() => abort.abort());
        const rowPlace = (row: DataRow): string => `${path.basename(data.fsPath)}:${row.line}`;
        let shown = 0;
        try {
          return await runDataRows(
            {
              file,
              requests,
              names: { requestFile: where, dataFile: vscode.workspace.asRelativePath(data) },
              until: 'end',
              rows: source.rows(),
              total: shape.rows,
              results,
              // Rows at a time, as a batch runs its lookups; the client's limiter keeps the rate.
              concurrency: vscode.workspace.getConfiguration('bizdata.batch').get<number>('concurrency', 2),
              signal: abort.signal,
              secrets: edges.secrets,
              onProgress: (p) => {
                const percent = dataPercentDone(p);
                progress.report({ increment: percent - shown, message: dataProgressMessage(p, p.elapsedMs, limitOf(reached[0])) });
                shown = percent;
              },
            },
            (row) =>
              editorRunHost({
                connections: services.connections,
                edges,
                uri: requestUri,
                signal: abort.signal,
                send: async (connection, request) => (recording.watch(connection), (await sendForAnswer(connection, services, request, { signal: abort.signal })).result),
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
