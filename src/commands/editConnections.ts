// "Business Data: Edit Connections": the user settings file at bizdata.connections (the only place
// connections are defined; a workspace's settings cannot define one).
import * as vscode from 'vscode';
import { CONNECTIONS_SETTING } from '../features/connection/connections';

export async function editConnections(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: CONNECTIONS_SETTING, edit: true } });
}
