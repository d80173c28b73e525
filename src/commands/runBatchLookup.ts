// "Business Data: Run Batch Lookup": a file of IP addresses or a CSV of organization queries, run with a
// cancellable progress notification; results go beside it as `<file>.results.jsonl`, and running it
// again on the same file resumes where it stopped. With { file } it skips the open dialog.
// Returns the URI (string) of the results file, or undefined when nothing ran.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseBatchInput, runBatch, type BatchSummary } from '../core/batch';
import type { LookupQuery } from '../core/model';
import { percentDone, progressMessage, resultsPathFor, summaryMessage } from '../features/batch/batchProgress';
import { INTERFACE_LABELS, interfaceOf } from '../features/connection/connection';
import { missingEndpointSetting } from '../features/connection/settings';
import type { Services } from '../features/services';
import { UserError } from './registerCommand';

export interface RunBatchLookupArgs {
  /** Absolute path, path relative to the first workspace folder, `file:` URI string, or a Uri. */
  readonly file: string | vscode.Uri;
  /** For programmatic callers (tests, other extensions): cancels like the notification's Cancel button. */
  readonly token?: vscode.CancellationToken;
}

export async function runBatchLookup(services: Services, arg?: unknown): Promise<string | undefined> {
  const input = await resolveInputFile(arg);
  if (!input) return undefined;
  const document = await vscode.workspace.openTextDocument(input);
  const parsed = parseBatchInput(document.getText(), input.fsPath);
  if (parsed.inputs.length === 0) {
    const first = parsed.problems[0];
    throw new UserError(
      first
        ? `${path.basename(input.fsPath)} line ${first.line}: ${first.message}`
        : `${path.basename(input.fsPath)} holds no lookups. Put one IP address per line, or a CSV with the header country,name,territory.`,
    );
  }
  if (parsed.problems.length > 0) {
    const lines = parsed.problems.map((p) => p.line).join(', ');
    void vscode.window.showWarningMessage(`Business Data: skipped unreadable line(s) ${lines} of ${path.basename(input.fsPath)}: ${parsed.problems[0].message}`);
  }
  if (!(await readyFor(services, parsed.inputs[0]))) return undefined;

  const outFile = resultsPathFor(input.fsPath);
  const outName = path.basename(outFile);
  const concurrency = vscode.workspace.getConfiguration('bizdata.batch').get<number>('concurrency', 2);
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Batch lookup of ${path.basename(input.fsPath)}`, cancellable: true },
    async (progress, token): Promise<BatchSummary> => {
      const abort = new AbortController();
      const tokens = [token, callerToken(arg)];
      const subscriptions = tokens.map((t) => t?.onCancellationRequested(() => abort.abort()));
      if (tokens.some((t) => t?.isCancellationRequested)) abort.abort();
      const started = performance.now();
      let shown = 0;
      try {
        return await runBatch({
          // Through the connection, so every call passes the lockout guard and its prompt.
          client: { lookup: (q, o) => services.connection.lookup(q, { signal: o?.signal }) },
          inputs: parsed.inputs,
          outFile,
          concurrency,
          signal: abort.signal,
          onProgress: (p) => {
            const percent = percentDone(p);
            progress.report({ increment: percent - shown, message: progressMessage(p, performance.now() - started) });
            shown = percent;
          },
        });
      } finally {
        subscriptions.forEach((d) => d?.dispose());
      }
    },
  );
  services.log.info(`batch: ${input.fsPath}: ${summary.done} run, ${summary.skipped} resumed, ${summary.ok} ok, ${summary.failed} failed${summary.cancelled ? ', cancelled' : ''}`);
  const outUri = vscode.Uri.file(outFile);
  const message = `Business Data: ${summaryMessage(summary, outName)}`;
  const show = summary.stoppedBy ? vscode.window.showErrorMessage : summary.cancelled ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(message, 'Open Results').then((choice) => (choice ? vscode.window.showTextDocument(outUri) : undefined));
  return outUri.toString();
}

async function resolveInputFile(arg: unknown): Promise<vscode.Uri | undefined> {
  const given = arg instanceof vscode.Uri ? arg : typeof arg === 'object' && arg !== null ? (arg as Partial<RunBatchLookupArgs>).file : undefined;
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

function callerToken(arg: unknown): vscode.CancellationToken | undefined {
  const token = typeof arg === 'object' && arg !== null ? (arg as Partial<RunBatchLookupArgs>).token : undefined;
  return token && typeof token.onCancellationRequested === 'function' ? token : undefined;
}

function toUri(file: string): vscode.Uri {
  if (/^file:/i.test(file)) return vscode.Uri.parse(file);
  if (path.isAbsolute(file)) return vscode.Uri.file(file);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new UserError(`"${file}" is a relative path and no folder is open; give an absolute path.`);
  return vscode.Uri.joinPath(folder.uri, file);
}

/**
 * Checked once before the run: otherwise every line would fail the same way and be recorded as done,
 * and a later run would not retry them.
 */
async function readyFor(services: Services, first: LookupQuery): Promise<boolean> {
  const id = interfaceOf(first);
  if (!(await services.connection.isSignedIn(id))) {
    const choice = await vscode.window.showErrorMessage(
      `Business Data: you are not signed in to ${INTERFACE_LABELS[id]}, which this batch uses. Sign in or start the local sandbox, then run the batch again.`,
      'Sign In',
      'Start Local Sandbox',
    );
    if (choice === 'Sign In') void vscode.commands.executeCommand('bizdata.signIn');
    if (choice === 'Start Local Sandbox') void vscode.commands.executeCommand('bizdata.startSandbox');
    return false;
  }
  const missing = missingEndpointSetting(services.connection.settings().endpoints, id);
  if (missing) throw new UserError(`The setting ${missing} is empty, so the batch has no address to call. Set it, or start the local sandbox.`);
  return true;
}
