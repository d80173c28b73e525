// The dependencies every register… function and command receives. Built once in extension.ts.
import type * as vscode from 'vscode';
import type { Connections } from './connection/connections';
import type { ResultDocuments } from './results/resultDocuments';
import type { SandboxService } from './sandbox/sandboxService';
import type { CodeScanner } from './shared/codeScanner';
import type { ChainedResponses } from './state/chainedResponses';
import type { ContextKeys } from './state/contextKeys';
import type { LookupModel } from './state/lookupModel';
import type { TestAnswers } from './state/testAnswers';
import type { RunReports } from './state/runReports';
import type { ReportPanel } from './reports/reportPanel';
import type { ParsedDocuments } from './requestFiles/parsedDocuments';

export interface Services {
  readonly context: vscode.ExtensionContext;
  /** Runs inside the integration tests (ExtensionMode.Test): the only mode with test-only inputs. */
  readonly testMode: boolean;
  /** The "Business Data" log channel: one redacted line per request. */
  readonly log: vscode.LogOutputChannel;
  readonly contextKeys: ContextKeys;
  /** The named connections (each with its credentials, tokens, client and lockout-guard prompt) and the active one. */
  readonly connections: Connections;
  /** Results behind `bizdata-result:` documents: `results.find(uri)` gives the query and the CallResult. */
  readonly results: ResultDocuments;
  /** Saved queries and recent history shown in the Lookups view. */
  readonly lookups: LookupModel;
  /** Responses of named requests, per request file, for the requests that chain on them. */
  readonly responses: ChainedResponses;
  /** Each open request document parsed once per version, for every feature and command that reads it. */
  readonly documents: ParsedDocuments;
  /** The worker that scans and pretty-prints large answers off the extension host's thread. */
  readonly scanner: CodeScanner;
  /** The local sandbox started from this window, if any. */
  readonly sandbox: SandboxService;
  /** The answer of each test of the Test Explorer's latest runs, for "Open Answer". */
  readonly testAnswers: TestAnswers;
  /** The latest Test Explorer run or batch, for "Open Report". */
  readonly reports: RunReports;
  /** The webview that shows a run's report. */
  readonly reportPanel: ReportPanel;
}
