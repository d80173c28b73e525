// Everything of the extension beyond finding result codes: the named connections with their clients
// (and undici), the sandbox, the lookups and their result documents, the status bar, the views'
// providers, the commands' handlers, request files and the Test Explorer. A bundle of its own
// (dist/workbench.js, see esbuild.mjs) that extension.ts loads at its first use: a command, a view
// shown, a result document or a request file opened.
import type * as vscode from 'vscode';
import type { CommandRunner } from './commands/registerCommand';
import { commandRunner } from './commands/registerCommands';
import { createConnections } from './features/connection/registerConnection';
import { createExplorerViews, type ExplorerViews } from './features/explorer/explorerViews';
import { ParsedDocuments } from './features/requestFiles/parsedDocuments';
import { registerRequestFiles } from './features/requestFiles/registerRequestFiles';
import { ResultDocuments } from './features/results/resultDocuments';
import { createSandbox } from './features/sandbox/registerSandbox';
import type { Services } from './features/services';
import type { CodeScanner } from './features/shared/codeScanner';
import { ChainedResponses } from './features/state/chainedResponses';
import type { CodeCatalog } from './features/state/codeCatalog';
import type { ContextKeys } from './features/state/contextKeys';
import { createLookups } from './features/state/lookupStorage';
import { TestAnswers } from './features/state/testAnswers';
import { RunReports } from './features/state/runReports';
import { ReportPanel } from './features/reports/reportPanel';
import { registerStatusBar } from './features/statusBar/statusBar';
import { registerTestExplorer } from './features/testing/registerTestExplorer';
import { createTestingApi, type TestingApi } from './features/testingApi';

/** What activation built and the workbench shares. */
export interface ActivationParts {
  readonly context: vscode.ExtensionContext;
  readonly testMode: boolean;
  readonly log: vscode.LogOutputChannel;
  readonly contextKeys: ContextKeys;
  readonly codes: CodeCatalog;
  readonly scanner: CodeScanner;
}

export interface Workbench {
  readonly runCommand: CommandRunner;
  readonly results: ResultDocuments;
  readonly views: ExplorerViews;
  /** The integration tests' window into the workbench (ExtensionMode.Test only, see extension.ts). */
  testingApi(): TestingApi;
}

export function openWorkbench(parts: ActivationParts): Workbench {
  const { context, log, contextKeys, codes } = parts;
  const connections = createConnections(context, { log, contextKeys, codes });
  const sandbox = createSandbox(context, { log, contextKeys, connections });
  const lookups = createLookups(context, { log, redact: (text) => connections.redact(text) });
  const results = new ResultDocuments(lookups);
  const responses = new ChainedResponses();
  const documents = new ParsedDocuments();
  const reportPanel = new ReportPanel();
  context.subscriptions.push(reportPanel);
  const services: Services = { ...parts, connections, results, lookups, responses, documents, sandbox, testAnswers: new TestAnswers(), reports: new RunReports(), reportPanel };

  const statusBar = registerStatusBar(context, services);
  const views = createExplorerViews(context, services);
  const runCommand = commandRunner(services);
  registerRequestFiles(context, { connections, responses, documents });
  const tests = registerTestExplorer(context, services);
  return { runCommand, results, views, testingApi: () => createTestingApi(context, services, statusBar, views, tests) };
}
