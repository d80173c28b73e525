// "Business Data: Send Request" (and the Send CodeLens): one request of a request file, sent with the
// token of its connection (`# @connection`, else the active one) through the guarded path (readiness
// offer, lockout prompt), nothing in Restricted Mode; its answer opened and kept in the history; a
// named request's answer is remembered for the requests of the same document that chain on it.
import * as vscode from 'vscode';
import type { Connection } from '../features/connection/connection';
import { confirmProductionRun } from '../features/connection/consent';
import { offerToGetReady } from '../features/connection/readinessOffer';
import type { NotReady } from '../features/connection/readiness';
import { prepareToSend, type RequestInputs } from '../features/requestFiles/prepareToSend';
import { requestInputs } from '../features/requestFiles/requestInputs';
import { confirmNote } from '../features/requestFiles/requestSettingsUi';
import { callAndShow } from '../features/results/lookUpAndShow';
import type { Services } from '../features/services';
import { INTERFACE_IDS } from '../features/shared/interfaces';
import { connectionOfRequest } from '../core/requests/requestConnections';
import { chainedFrom } from '../features/state/chainedResponses';
import { UserError } from '../features/shared/userError';
import { resolveRequestTarget, type RequestTarget } from './requestTarget';

/** Returns the URI (string) of the opened result document, or undefined when nothing was opened. */
export async function sendRequest(services: Services, arg?: unknown): Promise<string | undefined> {
  const target = await resolveRequestTarget(services.documents, arg);
  // A request file may come from anyone's repository: in Restricted Mode nothing goes out with a token.
  if (!vscode.workspace.isTrusted) {
    void offerTrust();
    return undefined;
  }
  const key = target.document.uri.toString();
  const chosen = requestConnection(services, target);
  const inputs = await askBeforeSending(target);
  if (!inputs) return undefined;
  // One Send is one run: a production connection, however it was reached (# @connection, the active one), asks first.
  if (!(await confirmProductionRun([chosen], `Send the request at ${placeOf(target, target.request.requestLine)}`))) return undefined;
  // A secret-looking prompt's answer is hidden from the log and the history like a credential.
  for (const p of target.request.settings.prompts) if (p.secret) chosen.getClient().addSecret(inputs.prompts?.get(p.name) ?? '');
  const prepared = await prepareToSend(target.file, target.request, chosen.settings().endpoints, services.responses.of(key), inputs);
  if (!prepared.ok) {
    // No service address to recognise the host by: the user has not connected anywhere yet.
    const notReady = prepared.reason === 'interface' ? await notReadyAnywhere(chosen) : undefined;
    if (notReady) {
      void offerToGetReady(notReady);
      return undefined;
    }
    throw new UserError(`${placeOf(target, prepared.line)}: ${prepared.message}`);
  }
  const name = target.request.name;
  // Beside the file, as a preview: the next Send replaces it, and the file stays in view.
  const shown = await callAndShow(services, { kind: 'request', request: prepared.request, name }, { show: { viewColumn: vscode.ViewColumn.Beside, preview: true }, connection: chosen });
  const result = shown.result;
  if (result?.ok && name !== undefined) services.responses.remember(key, name, chainedFrom(result, shown.entry?.answer?.form === 'json'));
  return shown.uri;
}

/** The request's settings in the editor: `# @disabled` refuses, `# @note` asks, `# @prompt` asks for values; undefined when the user said no. */
async function askBeforeSending(target: RequestTarget): Promise<RequestInputs | undefined> {
  const r = target.request;
  if (r.settings.disabled) throw new UserError(`${placeOf(target, r.requestLine)}: this request is marked "# @disabled", so it is never sent. Delete that line to send it.`);
  const label = r.name ?? `the request at line ${r.requestLine + 1}`;
  if (r.settings.note !== undefined && !(await confirmNote(r.settings.note, label))) return undefined;
  return requestInputs(target.document.uri, r, label);
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
