// Composition root: activation builds what finds result codes in JSON (diagnostics, hovers, quick
// fixes) and registers every command, view and document scheme; the rest, the workbench
// (workbench.ts, dist/workbench.js), loads at its first use.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { registerCommands } from './commands/registerCommand';
import { registerDiagnostics } from './features/diagnostics/registerDiagnostics';
import { registerExplorer } from './features/explorer/registerExplorer';
import { registerHovers } from './features/hovers/registerHovers';
import { createLog } from './features/log/log';
import { registerQuickFixes } from './features/quickFixes/registerQuickFixes';
import { loadWithRequestFiles } from './features/requestFiles/onRequestFiles';
import { registerResults } from './features/results/registerResults';
import { CodeScanner } from './features/shared/codeScanner';
import { CodeCatalog } from './features/state/codeCatalog';
import { ContextKeys } from './features/state/contextKeys';
import { FoundCodes } from './features/state/foundCodes';
import type { TestingApi } from './features/testingApi';
import type { ActivationParts, Workbench } from './workbench';
import { errorMessage } from './core/errors';
import { safeLine } from './core/sanitize';

/** What activate() returns in the integration tests (ExtensionMode.Test) only. */
export interface ExtensionApi {
  /** Milliseconds activate() took, without the workbench. */
  readonly activationMs: number;
  /** Read-only views of UI state that VS Code's API cannot read back (status bar text, tree items). */
  readonly testing: TestingApi;
}

/**
 * Exports nothing to users' other extensions: an API here would let any of them read the lookup
 * history and stored state. The integration tests get one, and only in ExtensionMode.Test.
 */
export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi | undefined> {
  const started = performance.now();
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  const log = createLog(context);
  const contextKeys = new ContextKeys();
  const codes = new CodeCatalog(log);
  context.subscriptions.push(codes);
  // Large answers are scanned and pretty-printed on this worker, started on first use.
  const scanner = new CodeScanner(context.asAbsolutePath(join('dist', 'scanWorker.js')));
  context.subscriptions.push({ dispose: () => void scanner.dispose() });
  const found = new FoundCodes();
  const parts: ActivationParts = { context, testMode, log, contextKeys, codes, scanner };

  let opening: Promise<Workbench> | undefined;
  const workbench = (): Promise<Workbench> => {
    // A separate bundle in the packaged extension (see esbuild.mjs).
    opening ??= import('./workbench.js').then(({ openWorkbench }) => openWorkbench(parts));
    return opening;
  };
  registerCommands(context, async (id, arg) => {
    let opened: Workbench;
    try {
      opened = await workbench();
    } catch (err) {
      log.error(`loading the workbench for ${id}: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(safeLine(`Business Data could not load this command: ${errorMessage(err)}. Reinstall the extension or reload the window.`));
      return undefined;
    }
    return opened.runCommand(id, arg);
  });
  registerResults(context, async () => (await workbench()).results);
  registerExplorer(context, async () => (await workbench()).views);
  registerDiagnostics(context, { log, codes, scanner, found });
  registerHovers(context, { contextKeys, codes, found });
  registerQuickFixes(context);
  loadWithRequestFiles(context, () => workbench().then(undefined, (err: unknown) => log.error(`loading the workbench for request files: ${errorMessage(err)}`)));

  if (!testMode) return undefined;
  const activationMs = performance.now() - started;
  return { activationMs, testing: (await workbench()).testingApi() };
}

export function deactivate(): void {
  // Everything, the sandbox process included, is released through context.subscriptions.
}
