// Which interface a command acts on: the one in the argument, the only one signed in, or a pick.
import * as vscode from 'vscode';
import type { InterfaceId } from '../core/model';
import { INTERFACE_LABELS } from '../features/connection/connection';
import type { Services } from '../features/services';

export async function pickSignedIn(services: Services, arg: unknown, title: string): Promise<InterfaceId | undefined> {
  if (typeof arg === 'object' && arg !== null) {
    const id = (arg as { interfaceId?: unknown }).interfaceId;
    if (id === 'a' || id === 'b') return id;
  }
  const signedIn = await services.connection.signedInInterfaces();
  if (signedIn.length === 0) {
    const choice = await vscode.window.showInformationMessage('Business Data: you are not signed in to any interface.', 'Sign In', 'Start Local Sandbox');
    if (choice === 'Sign In') void vscode.commands.executeCommand('bizdata.signIn');
    if (choice === 'Start Local Sandbox') void vscode.commands.executeCommand('bizdata.startSandbox');
    return undefined;
  }
  if (signedIn.length === 1) return signedIn[0];
  const picked = await vscode.window.showQuickPick(
    signedIn.map((id) => ({ id, label: INTERFACE_LABELS[id] })),
    { title, placeHolder: 'Which interface?' },
  );
  return picked?.id;
}
