// Request files (*.bizdata.http): completion, diagnostics, the Send / Copy as curl CodeLenses and the
// quick fix that removes a credential header. The logic is plain (requestCompletions.ts,
// requestProblems.ts, requestChoice.ts); these are the VS Code adapters.
import * as vscode from 'vscode';
import type { Connections } from '../connection/connections';
import type { ChainedResponses } from '../state/chainedResponses';
import { connectionVariables } from '../../core/requests/requestVariables';
import { safeLine } from '../../core/sanitize';
import { credentialHeaderFixes } from './credentialHeaderFix';
import type { ParsedDocuments } from './parsedDocuments';
import { RequestCodeLenses } from './requestCodeLenses';
import { completeRequestFile, type Suggestion, type SuggestionKind } from './requestCompletions';
import { registerRequestDiagnostics } from './requestDiagnostics';
import { REQUEST_FILES } from './requestFileLanguage';

const KIND: Readonly<Record<SuggestionKind, vscode.CompletionItemKind>> = {
  variable: vscode.CompletionItemKind.Variable,
  method: vscode.CompletionItemKind.Keyword,
  request: vscode.CompletionItemKind.Snippet,
  path: vscode.CompletionItemKind.Reference,
  parameter: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.Value,
  header: vscode.CompletionItemKind.Field,
  meta: vscode.CompletionItemKind.Keyword,
  assertion: vscode.CompletionItemKind.Keyword,
};

/** Characters after which completion opens by itself: `{{`, a path, `?` `&` `=` of a query, `:` of a header, `@` of a meta line, `?` of `??`. */
const TRIGGERS = ['{', '/', '?', '&', '=', ':', '@'];

export function toCompletionItem(line: number, s: Suggestion, order: number): vscode.CompletionItem {
  const item = new vscode.CompletionItem(s.label, KIND[s.kind]);
  item.insertText = s.snippet ? new vscode.SnippetString(s.insertText) : s.insertText;
  item.range = new vscode.Range(line, s.start, line, s.end);
  item.detail = s.detail === undefined ? undefined : safeLine(s.detail);
  if (s.documentation) item.documentation = new vscode.MarkdownString().appendText(s.documentation);
  // Keep the order the suggestions were made in (the known operations before plain methods).
  item.sortText = String(order).padStart(4, '0');
  if (s.retrigger) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest' };
  return item;
}

export function registerRequestFiles(context: vscode.ExtensionContext, deps: { readonly connections: Connections; readonly responses: ChainedResponses; readonly documents: ParsedDocuments }): void {
  const choice = () => deps.connections.choice();
  const onEndpointsMayChange: vscode.Event<void> = (listener, thisArg, disposables) => deps.connections.onDidChange(listener, thisArg, disposables);
  const { documents } = deps;
  registerRequestDiagnostics(context, { connections: choice, documents }, onEndpointsMayChange);
  const lenses = new RequestCodeLenses(choice, documents, onEndpointsMayChange);
  const completion: vscode.CompletionItemProvider = {
    provideCompletionItems(document, position) {
      // The variables of the file's connection (its first `# @connection`), else the active one's.
      const c = choice();
      const file = documents.get(document);
      const named = file.connection?.name;
      const endpoints = (named === undefined ? undefined : c.endpoints(named)) ?? c.endpoints(c.active);
      const suggestions = completeRequestFile(document.getText(), file, position.line, position.character, endpoints ? connectionVariables(endpoints) : {});
      return suggestions.map((s, i) => toCompletionItem(position.line, s, i));
    },
  };
  context.subscriptions.push(
    lenses,
    vscode.languages.registerCodeLensProvider(REQUEST_FILES, lenses),
    vscode.languages.registerCompletionItemProvider(REQUEST_FILES, completion, ...TRIGGERS),
    vscode.languages.registerCodeActionsProvider(REQUEST_FILES, { provideCodeActions: (d, _r, c) => credentialHeaderFixes(d, c.diagnostics) }, {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
    // Chained answers and what the parser read belong to their document: gone with it.
    vscode.workspace.onDidCloseTextDocument((d) => {
      deps.responses.forget(d.uri.toString());
      documents.forget(d.uri);
    }),
  );
}
