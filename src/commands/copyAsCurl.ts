// "Business Data: Copy as curl": the request behind a result, with placeholders for every credential.
import * as vscode from 'vscode';
import { toCurl } from '../core/http/curl';
import type { RequestRecord } from '../core/model';
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';
import { resolveLookupTarget } from './lookupArgs';

/** Copies the command to the clipboard and returns it. */
export async function copyAsCurl(services: Services, arg?: unknown): Promise<string> {
  const target = resolveLookupTarget(services, arg);
  const request = target.entry?.request;
  if (!request) throw new UserError('This lookup has no recorded request to copy: it failed before anything was sent. Re-run it first.');
  return copyCurl(request);
}

/** Copies a recorded request (placeholders, never a credential) as a curl command, and returns it. */
export async function copyCurl(request: RequestRecord): Promise<string> {
  const command = toCurl(request);
  await vscode.env.clipboard.writeText(command);
  void vscode.window.showInformationMessage('Business Data: curl command copied. Replace <TOKEN> (or the other <…> placeholders) with your own values before running it.');
  return command;
}
