// Runs one lookup, or one request of a request file, with a cancellable progress notification,
// records it in the history, opens its result document and, on failure, says what went wrong with the
// catalog's words and next actions.
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';
import { failureLine } from '../../core/exchange/failures';
import type { CallFailure, CallResult } from '../../core/model';
import type { Connection } from '../connection/connection';
import { offerToGetReady } from '../connection/readinessOffer';
import type { Services } from '../services';
import { Commands, executeCommand } from '../shared/commandIds';
import { interfaceOf } from '../shared/interfaces';
import { rerunArgs, rerunFixFor } from '../shared/rerunFixes';
import { queryLabel, type HistoryQuery, type LookupEntry } from '../state/lookupModel';
import { toResultUri } from '../state/resultUri';
import { readyAnswer } from './largeAnswers';

export interface LookUpOptions {
  readonly forceNewToken?: boolean;
  /** Wait this long first (quick fix "Re-run after a pause"); cancellable. */
  readonly pauseMs?: number;
  /** Where the result opens (default: the active group, not as a preview). */
  readonly show?: vscode.TextDocumentShowOptions;
  /** The connection to send it with (a re-run: the entry's; a request file: its `# @connection`); default the active one. */
  readonly connection?: Connection;
}

const SHOW_LOG = 'Show Log';

/** Returns the URI (string) of the opened result document, or undefined when nothing was opened. */
export async function lookUpAndShow(services: Services, query: HistoryQuery, options: LookUpOptions = {}): Promise<string | undefined> {
  return (await callAndShow(services, query, options)).uri;
}

export interface Shown {
  /** The opened result document, when there was something to show. */
  readonly uri?: string;
  /** What the call returned (after removing any secret the answer echoed); undefined when nothing was sent. */
  readonly result?: CallResult;
  /** The history entry it became, when there was something to show. */
  readonly entry?: LookupEntry;
}

function titleOf(query: HistoryQuery): string {
  if (query.kind === 'request') return `Sending ${queryLabel(query)}`;
  return query.kind === 'ip' ? `Looking up IP address ${query.ip}` : `Looking up organization ${queryLabel(query)}`;
}

/** lookUpAndShow, also returning the call's result (request files chain on it). */
export async function callAndShow(services: Services, query: HistoryQuery, options: LookUpOptions = {}): Promise<Shown> {
  const connection = options.connection ?? services.connections.active;
  const notReady = await connection.readiness(interfaceOf(query));
  if (notReady) {
    void offerToGetReady(notReady);
    return {};
  }
  const title = `${titleOf(query)} (connection ${connection.name})`;
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
        const o = { signal: abort.signal, forceNewToken: options.forceNewToken };
        if (query.kind !== 'request') return { result: await connection.lookup(query, o), json: false };
        const result = await connection.send(query.request, o);
        // Another operation's answer could echo what was sent (the history never keeps a secret), and
        // may be large: pretty-printed on the worker.
        progress.report({ message: 'reading the answer' });
        return await readyAnswer(result, { scanner: services.scanner, redact: (t) => connection.getClient().redact(t) });
      } finally {
        subscription.dispose();
      }
    },
  );
  if (!outcome) return {};
  const { result, json } = outcome;
  if (!result.ok && result.kind === 'cancelled') return {};
  if (!result.ok && result.body === undefined) {
    // Nothing came back to show (bad input, another host, network): a message is the whole answer.
    void showFailure(result, undefined, connection.name);
    return { result };
  }
  const entry = await services.lookups.add(query, result, { textIsJson: json, connection: connection.name });
  const uri = await services.results.open(entry, options.show);
  if (!result.ok) void showFailure(result, entry, connection.name);
  return { uri: uri.toString(), result, entry };
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
async function showFailure(failure: CallFailure, entry: LookupEntry | undefined, connection: string): Promise<void> {
  // The service's own words first, then the catalog's meaning of a known code, then what to do.
  const text = failureLine(failure);
  // The same re-run the quick fix on the result document offers.
  const fix = entry && failure.code ? rerunFixFor(failure.code) : undefined;
  const actions: string[] = fix ? [fix.title] : [];
  if (failure.kind === 'network' || failure.kind === 'api') actions.push(SHOW_LOG);
  const choice = await vscode.window.showErrorMessage(safeLine(`Business Data (${connection}): ${text}`), ...actions);
  if (fix && entry && choice === fix.title) await executeCommand(Commands.rerunLookup, rerunArgs(toResultUri(entry).toString(), fix));
  else if (choice === SHOW_LOG) await executeCommand(Commands.showLog);
}
