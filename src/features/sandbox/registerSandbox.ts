// The sandbox process belongs to this window: stopped on dispose, and when it exits on its own the
// connection goes back to the user's own settings and credentials.
import * as vscode from 'vscode';
import { DEMO_CREDENTIALS } from '../../sandbox/defaults';
import type { Connections } from '../connection/connections';
import type { ContextKeys } from '../state/contextKeys';
import { SandboxService } from './sandboxService';

export function createSandbox(
  context: vscode.ExtensionContext,
  deps: { readonly log: vscode.LogOutputChannel; readonly contextKeys: ContextKeys; readonly connections: Connections },
): SandboxService {
  const sandbox = new SandboxService(context.extensionPath, deps.log);
  context.subscriptions.push(
    sandbox,
    sandbox.onDidChange(() => {
      const running = sandbox.running;
      deps.contextKeys.set('bizdata:sandboxRunning', running !== undefined);
      if (!running && deps.connections.sandbox) deps.connections.useSandbox(undefined);
    }),
  );
  // `npm start` runs a sandbox itself and passes its address: attach this window to it with the demo
  // credentials (never the user's), leaving settings and stored credentials untouched.
  const external = process.env.BIZDATA_SANDBOX_URL;
  if (external && /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/?$/.test(external)) {
    deps.connections.useSandbox({ url: external.replace(/\/+$/, ''), credentials: DEMO_CREDENTIALS });
  }
  return sandbox;
}
