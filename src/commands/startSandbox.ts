// "Business Data: Start Local Sandbox": starts the bundled sandbox and points THIS window's
// connection at it with the demo credentials; the user's settings and stored credentials stay as they are.
import * as vscode from 'vscode';
// Constants only: importing the sandbox server here would bloat the extension bundle.
import { DEMO_CREDENTIALS } from '../sandbox/defaults';
import type { Services } from '../features/services';
import { Commands, executeCommand } from '../features/shared/commandIds';

/** Returns the sandbox's address. */
export async function startLocalSandbox(services: Services): Promise<string> {
  const running = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Starting the local sandbox' },
    () => services.sandbox.start(),
  );
  services.connections.useSandbox({ url: running.url, credentials: DEMO_CREDENTIALS });
  const token = await services.connections.active.refreshToken('a');
  const note = token.ok ? 'signed in with the demo credentials' : `signing in failed: ${token.text}`;
  void vscode.window.showInformationMessage(`Business Data: local sandbox running at ${running.url}; this window uses it, ${note}.`, 'Look Up IP Address').then(
    (choice) => (choice ? executeCommand(Commands.lookUpIp) : undefined),
  );
  return running.url;
}
