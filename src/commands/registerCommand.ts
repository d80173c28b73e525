// The one way commands are registered: the disposable is pushed, and a thrown error becomes one
// clear message (and a log line) instead of VS Code's generic "command failed" popup.
import * as vscode from 'vscode';
import { errorMessage } from '../features/log/log';

export type CommandHandler = (...args: unknown[]) => unknown;

export function registerCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  id: string,
  handler: CommandHandler,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (err) {
        const message = errorMessage(err);
        log.error(`${id}: ${message}`);
        void vscode.window.showErrorMessage(`Business Data: ${message}`);
        return undefined;
      }
    }),
  );
}

/** An error whose message is already written for the user. */
export class UserError extends Error {}
