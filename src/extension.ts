// Composition root: build the services, hand them to each register… function, nothing else.
import * as vscode from 'vscode';

export interface ExtensionApi {
  /** Milliseconds activate() took; read by the integration tests. */
  readonly activationMs: number;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Business Data', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(vscode.commands.registerCommand('bizdata.showLog', () => log.show(true)));
  return { activationMs: performance.now() - started };
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
