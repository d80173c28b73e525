// Keeps the diagnostics of open request files current: the parser's problems, unknown variables and
// requests the client would refuse (core/run/fileChecks.ts, as a run's preflight finds them; the
// columns of a data file beside the file are variables), recomputed shortly after an edit and when the
// connection's endpoints change. Only an adapter: the logic is plain.
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';
import { DIAGNOSTIC_SOURCE } from '../shared/codeDocuments';
import type { ConnectionChoice } from '../../core/requests/requestConnections';
import type { ParsedDocuments } from './parsedDocuments';
import { REQUEST_FILE_LANGUAGE } from './requestFileLanguage';
import { requestFileProblems, type RequestProblem } from '../../core/run/fileChecks';
import { dataColumnsBeside } from './dataColumns';

const DEBOUNCE_MS = 200;

export function toRequestDiagnostic(p: RequestProblem): vscode.Diagnostic {
  const range = new vscode.Range(p.span.line, p.span.start, p.span.line, p.span.end);
  // Messages quote the file, which may come from anyone: no control or bidi characters reach the view.
  const d = new vscode.Diagnostic(range, safeLine(p.message), p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  d.source = DIAGNOSTIC_SOURCE;
  d.code = p.code;
  return d;
}

export function registerRequestDiagnostics(
  context: vscode.ExtensionContext,
  deps: { readonly connections: () => ConnectionChoice; readonly documents: ParsedDocuments },
  onEndpointsMayChange: vscode.Event<void>,
): void {
  const collection = vscode.languages.createDiagnosticCollection('bizdata-requests');
  const timers = new Map<string, NodeJS.Timeout>();
  const update = async (document: vscode.TextDocument): Promise<void> => {
    timers.delete(document.uri.toString());
    if (document.isClosed || document.languageId !== REQUEST_FILE_LANGUAGE) {
      collection.delete(document.uri);
      return;
    }
    const version = document.version;
    // A data file beside it makes its columns variables, as a run's preflight reads them.
    const columns = await dataColumnsBeside(document.uri);
    if (document.isClosed || document.version !== version) return;
    collection.set(document.uri, requestFileProblems(document.getText(), deps.connections(), deps.documents.get(document), columns).map(toRequestDiagnostic));
  };
  const schedule = (document: vscode.TextDocument, delayMs = DEBOUNCE_MS): void => {
    const key = document.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => void update(document), delayMs));
  };
  const all = (): void => {
    for (const d of vscode.workspace.textDocuments) if (d.languageId === REQUEST_FILE_LANGUAGE) schedule(d, 0);
  };
  context.subscriptions.push(
    collection,
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
    vscode.workspace.onDidOpenTextDocument((d) => schedule(d, 0)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0 && e.document.languageId === REQUEST_FILE_LANGUAGE) schedule(e.document);
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      clearTimeout(timers.get(d.uri.toString()));
      collection.delete(d.uri);
    }),
    onEndpointsMayChange(all),
  );
  all();
}
