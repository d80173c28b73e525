// "Business Data: Switch Connection" (also the status bar's click): the connections with their hosts
// and token states in one pick; { connection } switches without asking. Returns the active name.
import * as vscode from 'vscode';
import type { Services } from '../features/services';
import { Commands, executeCommand } from '../features/shared/commandIds';
import { hostsLabel, tokensLabel } from '../features/shared/connectionLabels';
import { INTERFACE_IDS } from '../features/shared/interfaces';
import { connectionField } from './args';

interface Pick extends vscode.QuickPickItem {
  readonly connection?: string;
  readonly run?: () => Thenable<unknown>;
}

export async function switchConnection(services: Services, arg?: unknown): Promise<string | undefined> {
  const given = connectionField(arg);
  if (given !== undefined) return (await services.connections.switchTo(given)).name;
  const now = Date.now();
  const activeName = services.connections.activeName;
  const items: Pick[] = [{ label: 'Connections', kind: vscode.QuickPickItemKind.Separator }];
  for (const info of services.connections.list()) {
    const connection = services.connections.named(info.name);
    const statuses = connection ? await Promise.all(INTERFACE_IDS.map((id) => connection.status(id))) : [];
    const marks = [info.name === activeName ? 'active' : '', info.production ? '$(warning) production' : '', info.sandbox ? 'local sandbox' : ''].filter((m) => m !== '');
    items.push({
      connection: info.name,
      label: `${info.name === activeName ? '$(check)' : '$(plug)'} ${info.name}`,
      description: [...marks, hostsLabel(info.endpoints)].join(' · '),
      detail: tokensLabel(statuses, now),
    });
  }
  items.push(
    { label: 'More', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(add) Add Connection…', run: () => executeCommand(Commands.addConnection) },
    { label: '$(edit) Edit Connections', run: () => executeCommand(Commands.editConnections) },
    { label: '$(key) Token Status and Actions…', run: () => executeCommand(Commands.showTokenStatus) },
  );
  const picked = await vscode.window.showQuickPick(items, { title: 'Business Data: Switch Connection', placeHolder: `Active: ${activeName}. Choose the connection to use` });
  if (!picked) return undefined;
  if (picked.run) {
    await picked.run();
    return services.connections.activeName;
  }
  if (picked.connection === undefined) return undefined;
  return (await services.connections.switchTo(picked.connection)).name;
}
