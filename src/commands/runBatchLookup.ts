// "Business Data: Run Batch Lookup": a file of IP addresses or a CSV of organization queries, run with a
// cancellable progress notification; results go beside it as `<file>.results.jsonl`, and running it
// again on the same file resumes where it stopped. With { file } it skips the open dialog.
// The run is kept for "Open Report" (a button of the closing message). Returns the URI (string) of the
// results file, or undefined when nothing ran.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { askProduction } from '../features/connection/consent';
import { confirmRunCost, editorCeiling } from '../features/connection/runCost';
import { inputsDone } from '../core/run/batchLines';
import { safeLine } from '../core/sanitize';
import { parseBatchInput } from '../core/run/batchInput';
import { runBatch, type BatchSummary } from '../core/run/batch';
import { batchJobLines, batchReportRun, batchRows, resultsSizeBefore } from '../core/run/batchRows';
import { runLimit } from '../core/report/limits';
import type { WireEvent } from '../core/model';
import { Commands, executeCommand } from '../features/shared/commandIds';
import { percentDone, progressMessage, resultsPathFor, summaryMessage } from '../features/batch/batchProgress';
import { offerToGetReady } from '../features/connection/readinessOffer';
import type { Services } from '../features/services';
import { interfaceOf } from '../features/shared/interfaces';
import { UserError } from '../features/shared/userError';
import { field } from './args';

export async function runBatchLookup(services: Services, arg?: unknown): Promise<string | undefined> {
  const input = await resolveInputFile(arg);
  if (!input) return undefined;
  const document = await vscode.workspace.openTextDocument(input);
  const parsed = await parseBatchInput(document.getText(), input.fsPath);
  const first = parsed.inputs[0];
  if (first === undefined) {
    const problem = parsed.problems[0];
    throw new UserError(
      problem
        ? `${path.basename(input.fsPath)} line ${problem.line}: ${problem.message}`
        : `${path.basename(input.fsPath)} holds no lookups. Put one IP address per line, or a CSV with the header country,name,territory.`,
    );
  }
  if (parsed.problems.length > 0) {
    const lines = parsed.problems.map((p) => p.line).join(', ');
    void vscode.window.showWarningMessage(safeLine(`Business Data: skipped unreadable line(s) ${lines} of ${path.basename(input.fsPath)}: ${parsed.problems[0].message}`));
  }
  // The active connection, fixed for the whole run (a switch meanwhile does not move it).
  const connection = services.connections.active;
  // Checked once before the run: otherwise every line would fail the same way and be recorded as
  // done, and a later run would not retry them.
  const notReady = await connection.readiness(interfaceOf(first));
  if (notReady) {
    void offerToGetReady(notReady);
    return undefined;
  }
  if (connection.production && !(await confirmProduction(connection.name, parsed.inputs.length, path.basename(input.fsPath)))) return undefined;

  const outFile = resultsPathFor(input.fsPath);
  // What the run costs: one question when the contract has less left than the lookups need; the ceiling (maxCalls, bizdata.batch.maxCalls).
  const size = { rows: parsed.inputs.length, done: await inputsDone(outFile, connection.name, parsed.inputs), requestsPerRow: 1 };
  const cost = await confirmRunCost([{ connection, size }], editorCeiling(field(arg, 'maxCalls')), `Run the batch of ${path.basename(input.fsPath)}`);
  if (!cost.go) return undefined;
  const concurrency = vscode.workspace.getConfiguration('bizdata.batch').get<number>('concurrency', 2);
  // For the run's report: what the results file held before, and the connection's calls meanwhile.
  const beforeSize = await resultsSizeBefore(outFile);
  const startedAt = Date.now();
  const wire: WireEvent[] = [];
  const tap = connection.tapWire((e) => wire.push(e));
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Batch lookup of ${path.basename(input.fsPath)} (connection ${connection.name})`, cancellable: true },
    async (progress, token): Promise<BatchSummary> => {
      const abort = new AbortController();
      const subscription = token.onCancellationRequested(() => abort.abort());
      const started = performance.now();
      let shown = 0;
      try {
        return await runBatch({
          // Through the connection, so every call passes the lockout guard and its prompt.
          client: { lookup: (q, o) => connection.lookup(q, { signal: o?.signal, ceiling: o?.ceiling }) },
          inputs: parsed.inputs,
          outFile,
          // Every line names it; lines another connection wrote are not taken as done here.
          connection: connection.name,
          redact: (text) => connection.secrets.redact(text),
          concurrency,
          ceiling: cost.ceiling,
          signal: abort.signal,
          onProgress: (p) => {
            const percent = percentDone(p);
            progress.report({ increment: percent - shown, message: progressMessage(p, performance.now() - started) });
            shown = percent;
          },
        });
      } finally {
        subscription.dispose();
        tap.dispose();
      }
    },
  );
  const title = `Batch: ${path.basename(input.fsPath)}`;
  const rows = batchRows(parsed.inputs, await batchJobLines(outFile, beforeSize, connection.name));
  const limit = runLimit(connection.getClient().limiterState());
  const source = path.basename(input.fsPath);
  const run = batchReportRun({ title, source, rows, resultsFile: outFile, connection: connection.name, startedAt, summary, wire, limit });
  services.reports.keep({ run, redact: (text) => connection.secrets.redact(text) });
  services.log.info(`batch: ${input.fsPath} on ${connection.name}: ${summary.done} run, ${summary.skipped} resumed, ${summary.ok} ok, ${summary.failed} failed${summary.cancelled ? ', cancelled' : ''}`);
  const outUri = vscode.Uri.file(outFile);
  const message = safeLine(`Business Data (${connection.name}): ${summaryMessage(summary, path.basename(outFile))}`);
  const show = summary.stoppedBy ? vscode.window.showErrorMessage : summary.cancelled ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(message, 'Open Results', 'Open Report').then((choice) => {
    if (choice === 'Open Results') return vscode.window.showTextDocument(outUri);
    return choice === 'Open Report' ? executeCommand(Commands.openReport) : undefined;
  });
  return outUri.toString();
}

/** A batch spends a production account's contract: asked once, before anything is sent. */
async function confirmProduction(name: string, count: number, file: string): Promise<boolean> {
  return askProduction(
    `Run ${count} lookup${count === 1 ? '' : 's'} of ${file} on "${name}", a production account?`,
    'Every lookup is a real call that counts against the account\'s contract. Switch to a test connection to try the batch first.',
  );
}

async function resolveInputFile(arg: unknown): Promise<vscode.Uri | undefined> {
  const given = arg instanceof vscode.Uri ? arg : field(arg, 'file');
  let uri: vscode.Uri | undefined;
  if (given instanceof vscode.Uri) uri = given;
  else if (typeof given === 'string' && given.trim() !== '') uri = toUri(given.trim());
  else {
    const picked = await vscode.window.showOpenDialog({
      title: 'Business Data: Run Batch Lookup',
      openLabel: 'Run Batch',
      canSelectMany: false,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      filters: { 'IP lists and CSV files': ['txt', 'csv', 'lst'], 'All files': ['*'] },
    });
    uri = picked?.[0];
  }
  if (uri && uri.scheme !== 'file') {
    throw new UserError('A batch reads and writes files on disk: choose a saved file (its results are written beside it).');
  }
  return uri;
}

function toUri(file: string): vscode.Uri {
  if (/^file:/i.test(file)) return vscode.Uri.parse(file);
  if (path.isAbsolute(file)) return vscode.Uri.file(file);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new UserError(`"${file}" is a relative path and no folder is open; give an absolute path.`);
  return vscode.Uri.joinPath(folder.uri, file);
}
