// Runs one lookup, or one request of a request file, with a cancellable progress notification,
// records it in the history, opens its result document and, on failure, says what went wrong with the
// catalog's words and next actions.
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';
import { failureLine } from '../../core/exchange/failures';
import type { CallOptions } from '../../core/clientOptions';
import type { CallFailure, CallResult, OperationRequest } from '../../core/model';
import type { Connection, ReadyCall } from '../connection/connection';
import { offerToGetReady } from '../connection/readinessOffer';
import type { Services } from '../services';
import { Commands, executeCommand } from '../shared/commandIds';
import { interfaceOf } from '../shared/interfaces';
import { rerunArgs, rerunFixFor } from '../shared/rerunFixes';
import { queryLabel, type HistoryQuery } from '../state/historyQueries';
import type { LookupEntry } from '../state/lookupEntries';
import { toResultUri } from '../state/resultUri';
import { readyAnswer, type ReadyAnswer } from './largeAnswers';

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

/** lookUpAndShow, also returning the call's result. */
export async function callAndShow(services: Services, query: HistoryQuery, options: LookUpOptions = {}): Promise<Shown> {
  const connection = options.connection ?? services.connections.active;
  // Asked once, before any progress shows: the call below does not ask again.
  const ready = await connection.whenReady(interfaceOf(query));
  if (!ready.ok) {
    void offerToGetReady(ready.notReady);
    return {};
  }
  return showCall(services, query, { ...options, connection, call: ready.call });
}

/**
 * The call with a cancellable progress notification, kept in the history and its answer opened, once
 * the connection is known to be ready (Send: the editor's run host asked, editorRunHost.ts).
 */
export async function showCall(services: Services, query: HistoryQuery, options: LookUpOptions & { readonly connection: Connection; readonly call: ReadyCall }): Promise<Shown> {
  const { connection } = options;
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
        // After a pause the answer above may be stale (signed out meanwhile): the call asks again.
        const call = options.pauseMs ? connection : options.call;
        if (query.kind !== 'request') return { result: await call.lookup(query, o), json: false };
        return await sendForAnswer(call, services, query.request, o, () => progress.report({ message: 'reading the answer' }));
      } finally {
        subscription.dispose();
      }
    },
  );
  if (!outcome) return {};
  const { result } = outcome;
  if (!result.ok && result.kind === 'cancelled') return {};
  const entry = await keepInHistory(services, query, outcome, connection.name);
  if (!entry) {
    // Nothing came back to show (bad input, another host, network): a message is the whole answer.
    if (!result.ok) void showFailure(result, undefined, connection.name);
    return { result };
  }
  const uri = await services.results.open(entry, options.show);
  if (!result.ok) void showFailure(result, entry, connection.name);
  return { uri: uri.toString(), result, entry };
}

/**
 * A request of a request file sent as Send sends it: under the connection's lockout guard, its answer
 * cleaned of any secret it echoes (the history never keeps one) and, when large, pretty-printed on
 * the worker. `onAnswer` runs when the answer is in and that work starts. The Test Explorer sends so too.
 */
export async function sendForAnswer(connection: Pick<Connection, 'send'>, services: Pick<Services, 'scanner' | 'connections'>, request: OperationRequest, options: CallOptions, onAnswer?: () => void): Promise<ReadyAnswer> {
  const result = await connection.send(request, options);
  onAnswer?.();
  // Every connection's secrets: a request file may send one connection's answer on to another.
  return readyAnswer(result, { scanner: services.scanner, redact: (t) => services.connections.redact(t) });
}

/** Keeps a call in the history when it has an answer to show; undefined when nothing came back (or it was cancelled). */
export async function keepInHistory(services: Pick<Services, 'lookups'>, query: HistoryQuery, answer: ReadyAnswer, connection: string): Promise<LookupEntry | undefined> {
  const { result, json } = answer;
  if (!result.ok && (result.kind === 'cancelled' || result.body === undefined)) return undefined;
  return services.lookups.add(query, result, { textIsJson: json, connection });
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
  // The code's text (a spec code's with the service's words beside it), the catalog's meaning, what to do.
  const text = failureLine(failure);
  // The same re-run the quick fix on the result document offers.
  const fix = entry && failure.code ? rerunFixFor(failure.code) : undefined;
  const actions: string[] = fix ? [fix.title] : [];
  if (failure.kind === 'network' || failure.kind === 'api') actions.push(SHOW_LOG);
  const choice = await vscode.window.showErrorMessage(safeLine(`Business Data (${connection}): ${text}`), ...actions);
  if (fix && entry && choice === fix.title) await executeCommand(Commands.rerunLookup, rerunArgs(toResultUri(entry).toString(), fix));
  else if (choice === SHOW_LOG) await executeCommand(Commands.showLog);
}
