// Runs one lookup with a cancellable progress notification, records it in the history, opens its
// result document and, on failure, says what went wrong with the catalog's words and next actions.
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';
import type { CallFailure, LookupQuery } from '../../core/model';
import { offerToGetReady } from '../connection/readinessOffer';
import type { Services } from '../services';
import { Commands, executeCommand } from '../shared/commandIds';
import { interfaceOf } from '../shared/interfaces';
import { rerunArgs, rerunFixFor } from '../shared/rerunFixes';
import { queryLabel, type LookupEntry } from '../state/lookupModel';
import { toResultUri } from '../state/resultUri';

export interface LookUpOptions {
  readonly forceNewToken?: boolean;
  /** Wait this long first (quick fix "Re-run after a pause"); cancellable. */
  readonly pauseMs?: number;
}

const SHOW_LOG = 'Show Log';

/** Returns the URI (string) of the opened result document, or undefined when nothing was opened. */
export async function lookUpAndShow(services: Services, query: LookupQuery, options: LookUpOptions = {}): Promise<string | undefined> {
  const notReady = await services.connection.readiness(interfaceOf(query));
  if (notReady) {
    void offerToGetReady(notReady);
    return undefined;
  }
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
    // Nothing came back to show (bad input, network): a message is the whole answer.
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
async function showFailure(failure: CallFailure, entry: LookupEntry | undefined): Promise<void> {
  // The failure already carries the catalog's text and action for a known code, or the service's own.
  const text = `${failure.code ? `${failure.code}: ` : ''}${failure.text} ${failure.advice}`;
  // The same re-run the quick fix on the result document offers.
  const fix = entry && failure.code ? rerunFixFor(failure.code) : undefined;
  const actions: string[] = fix ? [fix.title] : [];
  if (failure.kind === 'network' || failure.kind === 'api') actions.push(SHOW_LOG);
  const choice = await vscode.window.showErrorMessage(safeLine(`Business Data: ${text}`), ...actions);
  if (fix && entry && choice === fix.title) await executeCommand(Commands.rerunLookup, rerunArgs(toResultUri(entry.id, entry.query).toString(), fix));
  else if (choice === SHOW_LOG) await executeCommand(Commands.showLog);
}
