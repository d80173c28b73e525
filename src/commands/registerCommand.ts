// The one way commands are registered: every id at activation, its disposable pushed, the handler
// loaded with the workbench on the first call (extension.ts); and the one way a handler runs, where a
// thrown error becomes one message (commandFailure.ts) instead of VS Code's generic "command failed" popup.
import * as vscode from 'vscode';
import { safeLine } from '../core/sanitize';
import { Commands, type CommandId } from '../features/shared/commandIds';
import { describeCommandFailure } from './commandFailure';

/** Takes the command's argument as given: anyone can run a command, so it is read with args.ts. */
export type CommandHandler = (arg?: unknown) => unknown;

/** Runs the command `id` with its argument (the workbench's registerCommands.ts). */
export type CommandRunner = (id: CommandId, arg?: unknown) => Promise<unknown>;

const SHOW_LOG = 'Show Log';

/** Registers every command of commandIds.ts; `run` is called at each call, and may load what it needs first. */
export function registerCommands(context: vscode.ExtensionContext, run: CommandRunner): void {
  for (const id of Object.values(Commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, (arg?: unknown) => run(id, arg)));
  }
}

/** The handler as it runs: its error, if any, shown as one message and logged; never thrown on. */
export function guardedHandler(log: vscode.LogOutputChannel, id: CommandId, handler: CommandHandler): (arg?: unknown) => Promise<unknown> {
  return async (arg?: unknown) => {
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
  };
}
