// "Business Data: Copy as curl": the request behind a result, with placeholders for every credential,
// and only while its address is still one the interface's token may go to.
import * as vscode from 'vscode';
import { toCurl } from '../core/http/curl';
import type { RequestRecord } from '../core/model';
import { credentialRefusal } from '../core/protocol/credentialOrigins';
import type { Services } from '../features/services';
import { interfaceOf } from '../features/shared/interfaces';
import { UserError } from '../features/shared/userError';
import { resolveLookupTarget } from './lookupArgs';

/** Copies the command to the clipboard and returns it. */
export async function copyAsCurl(services: Services, arg?: unknown): Promise<string> {
  const target = resolveLookupTarget(services, arg);
  const request = target.entry?.request;
  if (!request) throw new UserError('This lookup has no recorded request to copy: it failed before anything was sent. Re-run it first.');
  // The connection's addresses may have changed since: a token pasted into the command must not go elsewhere.
  const connection = target.connection === undefined ? services.connections.active : services.connections.require(target.connection, 'No curl command for this lookup');
  const foreign = credentialRefusal(request.url, connection.settings().endpoints, interfaceOf(target.query));
  if (foreign) throw new UserError(`No curl command for this lookup: ${foreign}`);
  return copyCurl(services, request, connection.name);
}

/**
 * Copies a recorded request (placeholders, never a credential) as a curl command naming its
 * connection, and returns it. A value chained from an answer that echoed a secret is redacted too.
 */
export async function copyCurl(services: Pick<Services, 'connections'>, request: RequestRecord, connection: string): Promise<string> {
  // A shell comment: the command still runs as pasted, and says whose account the token must be of.
  const command = `# Business Data connection: ${connection}\n${services.connections.redact(toCurl(request))}`;
  await vscode.env.clipboard.writeText(command);
  void vscode.window.showInformationMessage('Business Data: curl command copied. Replace <TOKEN> (or the other <…> placeholders) with your own values before running it.');
  return command;
}
