// "Business Data: Send Request" (and the Send CodeLens): one request of a request file, run by the run
// engine (core/run/engine.ts) through the editor's host (editorRunHost.ts) as `bizdata send` runs it:
// its connection (`# @connection`, else the active one), `# @note` and `# @prompt` asked, prepared and
// judged by the engine, nothing in Restricted Mode. It is sent through the guarded path (readiness
// offer, lockout prompt) with a progress notification, its answer opened and kept in the history, and
// the answers the engine keeps for chaining remembered for the requests of the same document.
import * as vscode from 'vscode';
import type { Connection } from '../features/connection/connection';
import { confirmProductionRun } from '../features/connection/consent';
import { offerToGetReady } from '../features/connection/readinessOffer';
import type { NotReady } from '../features/connection/readiness';
import type { CallResult } from '../core/model';
import { runRequests } from '../core/run/engine';
import { editorRunHost } from '../features/requestFiles/editorRunHost';
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
  // A request file may come from anyone's repository: in Restricted Mode nothing goes out with a token.
  if (!vscode.workspace.isTrusted) {
    void offerTrust();
    return undefined;
  }
  const key = target.document.uri.toString();
  const r = target.request;
  const chosen = requestConnection(services, target);
  if (r.settings.disabled) throw new UserError(`${placeOf(target, r.requestLine)}: this request is marked "# @disabled", so it is never sent. Delete that line to send it.`);
  // One Send is one run: a production connection, however it was reached (# @connection, the active one), asks first.
  if (!(await confirmProductionRun([chosen], `Send the request at ${placeOf(target, r.requestLine)}`))) return undefined;
  let uri: string | undefined;
  const host = editorRunHost({
    connections: services.connections,
    uri: target.document.uri,
    file: target.file,
    // Beside the file, as a preview: the next Send replaces it, and the file stays in view.
    send: async (connection, request, _r, call) => {
      const shown = await showCall(services, { kind: 'request', request, name: r.name }, { show: { viewColumn: vscode.ViewColumn.Beside, preview: true }, connection, call });
      uri = shown.uri;
      return shown.result ?? NOTHING_SHOWN;
    },
    on: async (e) => {
      if (e.kind !== 'judged' || e.step) return;
      const atRequest = e.outcome.line === r.requestLine;
      // Not sent: no service address to recognise the host by (the user has not connected anywhere yet), or the line at fault.
      const notReady = await notReadyAnywhere(chosen);
      if (atRequest && notReady?.kind === 'missingSetting') {
        void offerToGetReady(notReady);
        return;
      }
      throw new UserError(`${placeOf(target, e.outcome.line)}: ${e.outcome.message ?? 'this request cannot be sent.'}`);
    },
  });
  const run = await runRequests({ file: target.file, requests: [r], responses: services.responses.of(key), until: 'end' }, host);
  // The engine's rule (chain.ts): a named request's answer is kept whenever the service answered, a refusal too.
  const chained = r.name === undefined ? undefined : run.responses.get(r.name);
  if (r.name !== undefined && chained) services.responses.remember(key, r.name, chained);
  return uri;
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
