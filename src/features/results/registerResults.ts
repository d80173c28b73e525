// The `bizdata-result:` scheme, registered at activation (VS Code reopens these documents after a
// reload); their text comes from the lookups (resultDocuments.ts), which load with the workbench.
import * as vscode from 'vscode';
import { RESULT_SCHEME } from '../state/resultUri';
import type { ResultDocuments } from './resultDocuments';

export function registerResults(context: vscode.ExtensionContext, load: () => Promise<ResultDocuments>): void {
  const provider: vscode.TextDocumentContentProvider = { provideTextDocumentContent: async (uri) => (await load()).provideTextDocumentContent(uri) };
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, provider));
}
