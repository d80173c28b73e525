// The one "Business Data" log channel. The client hands it one line per request, already redacted.
import * as vscode from 'vscode';

export function createLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  const log = vscode.window.createOutputChannel('Business Data', { log: true });
  context.subscriptions.push(log);
  return log;
}
