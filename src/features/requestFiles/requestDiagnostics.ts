// Keeps the diagnostics of open request files current: the parser's problems, unknown variables and
// requests the client would refuse (core/run/fileChecks.ts, as a run's preflight finds them; the
// columns of a data file beside the file are variables), recomputed shortly after an edit and when the
// connection's endpoints change; and the schema files of `?? schema` lines (schemaProblems.ts), read
// after the rest is shown, again when a JSON file of the workspace changes. Only an adapter: the
// logic is plain.
import * as vscode from 'vscode';
import { requestFileAccess, type RequestFileAccess } from '../../core/requests/requestFileAccess';
import { safeLine } from '../../core/sanitize';
import { DIAGNOSTIC_SOURCE } from '../shared/codeDocuments';
import type { ConnectionChoice } from '../../core/requests/requestConnections';
import type { ParsedDocuments } from './parsedDocuments';
import { REQUEST_FILE_LANGUAGE } from './requestFileLanguage';
import { requestFileProblems, type RequestProblem } from '../../core/run/fileChecks';
import { dataColumnsBeside } from './dataColumns';
import { readRoot } from './editorEdges';
import { hasSchemaAssertion, schemaProblems } from './schemaProblems';

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
  // A schema file created, changed or deleted changes what a `?? schema` line says.
  const schemaFiles = vscode.workspace.createFileSystemWatcher('**/*.json');
  const timers = new Map<string, NodeJS.Timeout>();
  // One access per document, so each schema is compiled once until a JSON file changes.
  const access = new Map<string, RequestFileAccess>();
  const update = async (document: vscode.TextDocument): Promise<void> => {
    const key = document.uri.toString();
    timers.delete(key);
    if (document.isClosed || document.languageId !== REQUEST_FILE_LANGUAGE) {
      collection.delete(document.uri);
      access.delete(key);
      return;
    }
    const version = document.version;
    // A data file beside it makes its columns variables, as a run's preflight reads them.
    const columns = await dataColumnsBeside(document.uri);
    if (document.isClosed || document.version !== version) return;
    const parsed = deps.documents.get(document);
    const problems = requestFileProblems(document.getText(), deps.connections(), parsed, columns);
    collection.set(document.uri, problems.map(toRequestDiagnostic));
    // A schema is compiled to check it: not in Restricted Mode, where nothing of a request file runs.
    if (document.uri.scheme !== 'file' || !vscode.workspace.isTrusted || !hasSchemaAssertion(parsed)) return;
    const path = document.uri.fsPath;
    const files = access.get(key) ?? requestFileAccess(path, readRoot(document.uri));
    access.set(key, files);
    void schemaProblems(parsed, files).then((more) => {
      if (more.length === 0 || document.isClosed || document.version !== version) return;
      collection.set(document.uri, [...problems, ...more].sort((a, b) => a.span.line - b.span.line).map(toRequestDiagnostic));
    });
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
      access.delete(d.uri.toString());
    }),
    onEndpointsMayChange(all),
    schemaFiles,
    ...[schemaFiles.onDidCreate, schemaFiles.onDidChange, schemaFiles.onDidDelete].map((on) =>
      on(() => {
        access.clear();
        all();
      }),
    ),
  );
  all();
}
