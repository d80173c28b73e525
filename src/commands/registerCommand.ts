// The one way commands are registered: the disposable is pushed, and a thrown error becomes one
// message (commandFailure.ts) instead of VS Code's generic "command failed" popup.
import * as vscode from 'vscode';
import { safeLine } from '../core/sanitize';
import type { CommandId } from '../features/shared/commandIds';
import { describeCommandFailure } from './commandFailure';

/** Takes the command's argument as given: anyone can run a command, so it is read with args.ts. */
export type CommandHandler = (arg?: unknown) => unknown;

const SHOW_LOG = 'Show Log';

export function registerCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, id: CommandId, handler: CommandHandler): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(id, async (arg?: unknown) => {
      try {
        return await handler(arg);
      } catch (err) {
        const failure = describeCommandFailure(id, err);
        if (failure.unexpected) {
          log.error(failure.logLine);
          void vscode.window.showErrorMessage(safeLine(failure.message), SHOW_LOG).then((choice) => (choice === SHOW_LOG ? log.show(true) : undefined));
        } else {
          log.warn(failure.logLine);
          void vscode.window.showErrorMessage(safeLine(failure.message));
        }
        return undefined;
      }
    }),
  );
}
