// "Business Data: Refresh Token": gets a new token now (through the lockout guard).
import * as vscode from 'vscode';
import type { TokenState } from '../core/model';
import { INTERFACE_LABELS } from '../features/connection/connection';
import type { Services } from '../features/services';
import { stateLabel } from '../features/statusBar/statusText';
import { pickSignedIn } from './pickSignedIn';

export async function refreshToken(services: Services, arg?: unknown): Promise<TokenState | undefined> {
  const id = await pickSignedIn(services, arg, 'Business Data: Refresh Token');
  if (!id) return undefined;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Getting a new token for ${INTERFACE_LABELS[id]}` },
    () => services.connection.refreshToken(id),
  );
  const status = await services.connection.status(id);
  if (result.ok) {
    void vscode.window.showInformationMessage(`Business Data: new token for ${INTERFACE_LABELS[id]}, ${stateLabel(status, Date.now())}.`);
  } else {
    const code = result.code ? `${result.code}: ` : '';
    void vscode.window.showErrorMessage(`Business Data: could not get a new token for ${INTERFACE_LABELS[id]}. ${code}${result.text} ${result.advice}`);
  }
  return status.state;
}
