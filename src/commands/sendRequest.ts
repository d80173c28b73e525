// "Business Data: Send Request" (and the Send CodeLens): one request of a request file, run by the run
// engine (core/run/engine.ts) through the editor's host (editorRunHost.ts) as `bizdata send` runs it:
// its edges checked and its questions asked first (editorEdges.ts: production, `# @note`, `# @prompt`,
// nothing in Restricted Mode), its connection (`# @connection`, else the active one), prepared and
// judged by the engine. It is sent through the guarded path (readiness
// offer, lockout prompt) with a progress notification, its answer opened and kept in the history, and
// the answers the engine keeps for chaining remembered for the requests of the same document.
import * as vscode from 'vscode';
import type { Connection } from '../features/connection/connection';
import { offerToGetReady } from '../features/connection/readinessOffer';
import type { NotReady } from '../features/connection/readiness';
import type { CallResult } from '../core/model';
import { runRequests } from '../core/run/engine';
import { editorEdges, type EditorRefusal } from '../features/requestFiles/editorEdges';
import { editorRunHost } from '../features/requestFiles/editorRunHost';
import { RESTRICTED_MODE, refusalText } from '../core/run/preflight';
import { showCall } from '../features/results/lookUpAndShow';
import type { Services } from '../features/services';
import { INTERFACE_IDS } from '../features/shared/interfaces';
import { connectionOfRequest } from '../core/requests/requestConnections';
import { UserError } from '../features/shared/userError';
import { resolveRequestTarget, type RequestTarget } from './requestTarget';

/** What a Send that showed nothing returns to the engine: the call ended without an answer (cancelled). */
const NOTHING_SHOWN: CallResult = { ok: false, kind: 'cancelled', text: 'Nothing was sent, or the call was cancelled.', advice: '', durationMs: 0 };

/** Returns the URI (string) of the opened result document, or undefined when nothing was opened. */
export async function sendRequest(services: Services, arg?: unknown): Promise<string | undefined> {
  const target = await resolveRequestTarget(services.documents, arg);
  const key = target.document.uri.toString();
  const r = target.request;
  if (r.settings.disabled) throw new UserError(`${placeOf(target, r.requestLine)}: this request is marked "# @disabled", so it is never sent. Delete that line to send it.`);
  // One Send is one run: its edges (core/run/preflight.ts) are checked and its questions asked before anything is sent.
  const file = { uri: target.document.uri, text: target.document.getText(), parsed: target.file, requests: [r] };
  const edges = await editorEdges(services.connections, [file], `Send the request at ${placeOf(target, r.requestLine)}`);
  if (!edges.ok) return refused(services, target, edges);
  let uri: string | undefined;
  const host = editorRunHost({
    connections: services.connections,
    edges,
    uri: target.document.uri,
    // Beside the file, as a preview: the next Send replaces it, and the file stays in view.
    send: async (connection, request, _r, call) => {
      const shown = await showCall(services, { kind: 'request', request, name: r.name }, { show: { viewColumn: vscode.ViewColumn.Beside, preview: true }, connection, call });
      uri = shown.uri;
      return shown.result ?? NOTHING_SHOWN;
    },
    on: (e) => {
      // Not sent at its turn (a chained value its predecessor did not give): the line at fault.
      if (e.kind === 'judged' && !e.step) throw new UserError(`${placeOf(target, e.outcome.line)}: ${e.outcome.message ?? 'this request cannot be sent.'}`);
    },
  });
  const run = await runRequests({ file: target.file, requests: [r], responses: services.responses.of(key), until: 'end' }, host);
  // The engine's rule (chain.ts): a named request's answer is kept whenever the service answered, a refusal too.
  const chained = r.name === undefined ? undefined : run.responses.get(r.name);
  if (r.name !== undefined && chained) services.responses.remember(key, r.name, chained);
  return uri;
}

/** Shows why nothing was sent: Restricted Mode with its way out, an unready connection's offer, else the refusal at its line. */
async function refused(services: Services, target: RequestTarget, edges: EditorRefusal): Promise<undefined> {
  if (!('refusals' in edges)) return undefined;
  const [first] = edges.refusals;
  // A request file may come from anyone's repository: in Restricted Mode nothing goes out with a token.
  if (first.message === RESTRICTED_MODE) {
    void offerTrust();
    return undefined;
  }
  // No service address to recognise the host by: the user has not connected anywhere yet.
  const notReady = first.line === target.request.requestLine + 1 ? await notReadyAnywhere(requestConnection(services, target)) : undefined;
  if (notReady?.kind === 'missingSetting') {
    void offerToGetReady(notReady);
    return undefined;
  }
  throw new UserError(edges.refusals.map(refusalText).join('\n'));
}

/** "file.bizdata.http:12", as the problems view writes places. */
export function placeOf(target: RequestTarget, line: number): string {
  return `${vscode.workspace.asRelativePath(target.document.uri)}:${line + 1}`;
}

/**
 * The connection the request goes to: its `# @connection` (or the file's), else the active one. A
 * name that is none refuses the request at that line, before anything is sent.
 */
export function requestConnection(services: Services, target: RequestTarget): Connection {
  const chosen = connectionOfRequest(target.file, target.request, services.connections.choice());
  if (!chosen.ok) throw new UserError(`${placeOf(target, chosen.line)}: ${chosen.message}`);
  return services.connections.require(chosen.name, placeOf(target, target.request.requestLine));
}

const MANAGE_TRUST = 'Manage Workspace Trust';

/** Says why nothing was sent in Restricted Mode, and offers to trust the folder. */
async function offerTrust(): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    'Business Data: this folder is in Restricted Mode, so request files send nothing with your token. Trust the folder if you trust its request files, then Send again.',
    MANAGE_TRUST,
  );
  if (choice === MANAGE_TRUST) await vscode.commands.executeCommand('workbench.trust.manage');
}

/** Why neither interface can be called, or undefined when one can. */
async function notReadyAnywhere(connection: Connection): Promise<NotReady | undefined> {
  const reasons: Array<NotReady | undefined> = [];
  for (const id of INTERFACE_IDS) reasons.push(await connection.readiness(id));
  if (reasons.some((r) => r === undefined)) return undefined;
  return reasons.find((r) => r?.kind === 'missingSetting') ?? { kind: 'signedOut' };
}
