// "Business Data: Stop Local Sandbox": stops it and returns this window to the user's own connection.
import * as vscode from 'vscode';
import type { Services } from '../features/services';

export async function stopLocalSandbox(services: Services): Promise<boolean> {
  services.connections.useSandbox(undefined);
  const stopped = await services.sandbox.stop();
  void vscode.window.showInformationMessage(stopped ? 'Business Data: local sandbox stopped.' : 'Business Data: the local sandbox was not running.');
  return stopped;
}
