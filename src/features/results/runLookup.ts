// Runs one lookup with a cancellable progress notification, records it in the history, opens its
// result document and, on failure, says what went wrong with the catalog's words and next actions.
import * as vscode from 'vscode';
import { describeCode } from '../../core/codes';
import type { CallFailure, LookupQuery } from '../../core/model';
import type { Services } from '../services';
import { queryLabel, type LookupEntry } from '../explorer/lookupModel';
import { RERUN_PAUSE_MS } from '../quickFixes/rerunFixes';
import { toResultUri } from './resultUri';

export interface RunLookupOptions {
  readonly forceNewToken?: boolean;
  /** Wait this long first (quick fix "Re-run after a pause"); cancellable. */
  readonly pauseMs?: number;
}

/** Returns the URI (string) of the opened result document, or undefined when nothing was opened. */
export async function runLookup(services: Services, query: LookupQuery, options: RunLookupOptions = {}): Promise<string | undefined> {
  const title = query.kind === 'ip' ? `Looking up IP address ${query.ip}` : `Looking up organization ${queryLabel(query)}`;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const subscription = token.onCancellationRequested(() => abort.abort());
      try {
        if (options.pauseMs !== undefined && options.pauseMs > 0) {
          progress.report({ message: `waiting ${Math.round(options.pauseMs / 100) / 10} s before retrying` });
          await pause(options.pauseMs, abort.signal);
          if (abort.signal.aborted) return undefined;
          progress.report({ message: 'retrying' });
        }
        return await services.connection.lookup(query, { signal: abort.signal, forceNewToken: options.forceNewToken });
      } finally {
        subscription.dispose();
      }
    },
  );
  if (!outcome) return undefined;
  if (!outcome.ok && outcome.kind === 'cancelled') return undefined;
  if (!outcome.ok && outcome.body === undefined) {
    // Nothing came back to show (not signed in, bad input, network): a message is the whole answer.
    void showFailure(outcome, undefined);
    return undefined;
  }
  const entry = services.lookups.add(query, outcome);
  const uri = await services.results.open(entry);
  if (!outcome.ok) void showFailure(outcome, entry);
  return uri.toString();
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** One message with the code's text and advised action, plus the buttons that act on it. */
export async function showFailure(failure: CallFailure, entry: LookupEntry | undefined): Promise<void> {
  const info = failure.code ? describeCode(failure.code) : undefined;
  const prefix = failure.code ? `${failure.code}: ` : '';
  const text = info ? `${prefix}${info.text} ${info.action}` : `${prefix}${failure.text} ${failure.advice}`;
  const actions: string[] = [];
  if (entry && info?.recovery === 'reauthenticate-once') actions.push('Get a new token and re-run');
  if (entry && info?.recovery === 'wait-and-retry') actions.push('Re-run after a pause');
  if (/not signed in/.test(failure.text)) actions.push('Sign In', 'Start Local Sandbox');
  const setting = /bizdata\.[\w.]+/.exec(failure.text)?.[0];
  if (setting) actions.push('Open Settings');
  if (failure.kind === 'network' || failure.kind === 'api') actions.push('Show Log');
  const choice = await vscode.window.showErrorMessage(`Business Data: ${text}`, ...actions);
  const resultUri = entry ? toResultUri(entry.id, entry.query).toString() : undefined;
  switch (choice) {
    case 'Get a new token and re-run':
      await vscode.commands.executeCommand('bizdata.rerunLookup', { resultUri, forceNewToken: true });
      break;
    case 'Re-run after a pause':
      await vscode.commands.executeCommand('bizdata.rerunLookup', { resultUri, pauseMs: RERUN_PAUSE_MS });
      break;
    case 'Sign In':
      await vscode.commands.executeCommand('bizdata.signIn');
      break;
    case 'Start Local Sandbox':
      await vscode.commands.executeCommand('bizdata.startSandbox');
      break;
    case 'Open Settings':
      await vscode.commands.executeCommand('workbench.action.openSettings', setting);
      break;
    case 'Show Log':
      await vscode.commands.executeCommand('bizdata.showLog');
      break;
  }
}
