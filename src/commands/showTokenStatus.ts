// "Business Data: Show Token Status" (also the status bar click): each interface's state and the
// next useful actions in one quick pick.
import * as vscode from 'vscode';
import type { Services } from '../features/services';
import { interfaceName, stateLabel } from '../features/statusBar/statusText';

interface Action extends vscode.QuickPickItem {
  readonly command?: string;
  readonly args?: unknown;
}

export async function showTokenStatus(services: Services): Promise<void> {
  const now = Date.now();
  const items: Action[] = [];
  const sandbox = services.sandbox.running;
  items.push({ label: 'Tokens', kind: vscode.QuickPickItemKind.Separator });
  for (const id of ['a', 'b'] as const) {
    const s = await services.connection.status(id);
    items.push({
      label: `${interfaceName(id)}: ${stateLabel(s, now)}`,
      description: s.account,
      detail: s.expiresAt ? `expires ${new Date(s.expiresAt).toLocaleString()} · ${s.callsMade} calls made` : undefined,
      command: s.state === 'signed-out' ? 'bizdata.signIn' : 'bizdata.refreshToken',
      args: { interfaceId: id },
    });
  }
  items.push({ label: 'Actions', kind: vscode.QuickPickItemKind.Separator });
  const signedIn = await services.connection.signedInInterfaces();
  if (signedIn.length > 0) items.push({ label: '$(refresh) Refresh Token', command: 'bizdata.refreshToken' });
  items.push({ label: '$(sign-in) Sign In', command: 'bizdata.signIn' });
  if (signedIn.length > 0) items.push({ label: '$(sign-out) Sign Out', command: 'bizdata.signOut' });
  if (sandbox) items.push({ label: '$(debug-stop) Stop Local Sandbox', description: sandbox.url, command: 'bizdata.stopSandbox' });
  else items.push({ label: '$(vm) Start Local Sandbox', description: 'try the service with demo credentials', command: 'bizdata.startSandbox' });
  items.push({ label: '$(output) Show Log', command: 'bizdata.showLog' });
  const picked = await vscode.window.showQuickPick(items, { title: 'Business Data: Token Status', placeHolder: 'Choose an action' });
  if (picked?.command) await vscode.commands.executeCommand(picked.command, ...(picked.args === undefined ? [] : [picked.args]));
}
