// "Business Data: Set Coordinator Password": the Redis password of bizdata.coordination.redisUrl,
// asked without echo and kept only in SecretStorage (never in settings, where it would sync).
import * as vscode from 'vscode';
import type { Services } from '../features/services';

export async function setCoordinatorPassword(services: Services): Promise<boolean> {
  const password = await vscode.window.showInputBox({
    title: 'Business Data: Set Coordinator Password',
    prompt: 'The password of the Redis server in bizdata.coordination.redisUrl. Leave empty to remove it.',
    password: true,
    ignoreFocusOut: true,
  });
  if (password === undefined) return false;
  await services.connections.setCoordinatorPassword(password);
  void vscode.window.showInformationMessage(password === '' ? 'Business Data: coordinator password removed.' : 'Business Data: coordinator password kept in SecretStorage.');
  return true;
}
