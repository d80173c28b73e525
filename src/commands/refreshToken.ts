// "Business Data: Refresh Token": gets a new token now (through the lockout guard).
import * as vscode from 'vscode';
import { failureLine } from '../core/exchange/failures';
import { safeLine } from '../core/sanitize';
import type { TokenState } from '../core/model';
import type { Services } from '../features/services';
import { INTERFACES } from '../features/shared/interfaces';
import { stateLabel } from '../features/shared/tokenLabels';
import { pickSignedIn } from './pickSignedIn';
import { targetConnection } from './targetConnection';

export async function refreshToken(services: Services, arg?: unknown): Promise<TokenState | undefined> {
  const connection = targetConnection(services, arg, 'Cannot refresh the token');
  const id = await pickSignedIn(connection, arg, 'Business Data: Refresh Token');
  if (!id) return undefined;
  const name = INTERFACES[id].label;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Getting a new token for ${name}` },
    () => connection.refreshToken(id),
  );
  const status = await connection.status(id);
  if (result.ok) {
    void vscode.window.showInformationMessage(`Business Data: new token for ${name}, ${stateLabel(status, Date.now())}.`);
  } else {
    void vscode.window.showErrorMessage(safeLine(`Business Data: could not get a new token for ${name}. ${failureLine(result)}`));
  }
  return status.state;
}
