// "Business Data: Show Token Status" (also the status bar click): each interface's state and the
// next useful actions in one quick pick.
import * as vscode from 'vscode';
import type { Services } from '../features/services';
import { Commands, executeCommand } from '../features/shared/commandIds';
import { INTERFACE_IDS, INTERFACES } from '../features/shared/interfaces';
import { stateLabel } from '../features/shared/tokenLabels';

interface Action extends vscode.QuickPickItem {
  readonly run?: () => Thenable<unknown>;
}

export async function showTokenStatus(services: Services): Promise<void> {
  const now = Date.now();
  const items: Action[] = [];
  const sandbox = services.sandbox.running;
  const connection = services.connections.active;
  items.push({ label: `Tokens of the connection "${connection.name}"`, kind: vscode.QuickPickItemKind.Separator });
  for (const id of INTERFACE_IDS) {
    const s = await connection.status(id);
    items.push({
      label: `${INTERFACES[id].name}: ${stateLabel(s, now)}`,
      description: s.account,
      detail: s.expiresAt ? `expires ${new Date(s.expiresAt).toLocaleString()} · ${s.callsMade} calls made` : undefined,
      run: () => executeCommand(s.state === 'signed-out' ? Commands.signIn : Commands.refreshToken, { interfaceId: id, connection: connection.name }),
    });
  }
  items.push({ label: 'Actions', kind: vscode.QuickPickItemKind.Separator });
  const signedIn = await connection.signedInInterfaces();
  if (signedIn.length > 0) items.push({ label: '$(refresh) Refresh Token', run: () => executeCommand(Commands.refreshToken) });
  items.push({ label: '$(sign-in) Sign In', run: () => executeCommand(Commands.signIn) });
  if (signedIn.length > 0) items.push({ label: '$(sign-out) Sign Out', run: () => executeCommand(Commands.signOut) });
  if (sandbox) items.push({ label: '$(debug-stop) Stop Local Sandbox', description: sandbox.url, run: () => executeCommand(Commands.stopSandbox) });
  else items.push({ label: '$(vm) Start Local Sandbox', description: 'try the service with demo credentials', run: () => executeCommand(Commands.startSandbox) });
  items.push({ label: '$(arrow-swap) Switch Connection', run: () => executeCommand(Commands.switchConnection) });
  items.push({ label: '$(output) Show Log', run: () => executeCommand(Commands.showLog) });
  const picked = await vscode.window.showQuickPick(items, { title: 'Business Data: Token Status', placeHolder: 'Choose an action' });
  await picked?.run?.();
}
