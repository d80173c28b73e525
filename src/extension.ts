// Composition root: build the services, hand them to each register… function, nothing else.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { registerCommands } from './commands/registerCommands';
import { createConnections } from './features/connection/registerConnection';
import { registerDiagnostics } from './features/diagnostics/registerDiagnostics';
import { registerExplorer } from './features/explorer/registerExplorer';
import { registerHovers } from './features/hovers/registerHovers';
import { createLog } from './features/log/log';
import { registerQuickFixes } from './features/quickFixes/registerQuickFixes';
import { registerRequestFiles } from './features/requestFiles/registerRequestFiles';
import { registerResults, ResultDocuments } from './features/results/resultDocuments';
import { createSandbox } from './features/sandbox/registerSandbox';
import type { Services } from './features/services';
import { CodeScanner } from './features/shared/codeScanner';
import { ChainedResponses } from './features/state/chainedResponses';
import { CodeCatalog } from './features/state/codeCatalog';
import { ContextKeys } from './features/state/contextKeys';
import { FoundCodes } from './features/state/foundCodes';
import { createLookups } from './features/state/lookupStorage';
import { registerStatusBar } from './features/statusBar/statusBar';
import { createTestingApi, type TestingApi } from './features/testingApi';
import { registerTestExplorer } from './features/testing/registerTestExplorer';
import { TestAnswers } from './features/state/testAnswers';
import { RunReports } from './features/state/runReports';
import { ReportPanel } from './features/reports/reportPanel';

/** What activate() returns in the integration tests (ExtensionMode.Test) only. */
export interface ExtensionApi {
  /** Milliseconds activate() took. */
  readonly activationMs: number;
  /** Read-only views of UI state that VS Code's API cannot read back (status bar text, tree items). */
  readonly testing: TestingApi;
}

/**
 * Exports nothing to users' other extensions: an API here would let any of them read the lookup
 * history and stored state. The integration tests get one, and only in ExtensionMode.Test.
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi | undefined {
  const started = performance.now();
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  const log = createLog(context);
  const contextKeys = new ContextKeys();
  const codes = new CodeCatalog(log);
  context.subscriptions.push(codes);
  const connections = createConnections(context, { log, contextKeys, codes });
  const sandbox = createSandbox(context, { log, contextKeys, connections });
  const lookups = createLookups(context, { log, redact: (text) => connections.redact(text) });
  const results = new ResultDocuments(lookups);
  const responses = new ChainedResponses();
  // Large answers are scanned and pretty-printed on this worker, started on first use.
  const scanner = new CodeScanner(context.asAbsolutePath(join('dist', 'scanWorker.js')));
  context.subscriptions.push({ dispose: () => void scanner.dispose() });
  const found = new FoundCodes();
  const reportPanel = new ReportPanel();
  context.subscriptions.push(reportPanel);
  const services: Services = { context, testMode, log, contextKeys, connections, results, lookups, responses, scanner, sandbox, testAnswers: new TestAnswers(), reports: new RunReports(), reportPanel };

  registerResults(context, results);
  const statusBar = registerStatusBar(context, services);
  const views = registerExplorer(context, services);
  registerCommands(context, services);
  registerDiagnostics(context, { log, codes, scanner, found });
  registerHovers(context, { contextKeys, codes, found });
  registerQuickFixes(context);
  registerRequestFiles(context, { connections, responses });
  const tests = registerTestExplorer(context, services);

  if (!testMode) return undefined;
  return { activationMs: performance.now() - started, testing: createTestingApi(context, services, statusBar, views, tests) };
}

export function deactivate(): void {
  // Everything, the sandbox process included, is released through context.subscriptions.
}
