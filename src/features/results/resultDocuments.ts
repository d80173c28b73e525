// The read-only `bizdata-result:` documents: the provider that renders each lookup as JSON, and the
// way back from a document to the lookup behind it. The lookups themselves live in the LookupModel.
import * as vscode from 'vscode';
import type { LookupEntry, LookupModel } from '../state/lookupModel';
import { fromResultUri, RESULT_SCHEME, toResultUri } from '../state/resultUri';

export class ResultDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly lookups: LookupModel) {}

  /** The lookup (query, status, code, request, body) behind a result URI; part of the contract with diagnostics and quick fixes. */
  find(uri: vscode.Uri | string): LookupEntry | undefined {
    const parsed = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
    const id = fromResultUri(parsed);
    return id === undefined ? undefined : this.lookups.find(id);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const entry = this.find(uri);
    if (!entry) {
      return pretty({ note: 'This lookup was deleted from the history. Run it again with "Business Data: Re-run Lookup" or a new lookup.' });
    }
    return renderEntry(entry);
  }

  /** Opens the entry's read-only JSON editor and returns its URI. */
  async open(entry: LookupEntry, options: vscode.TextDocumentShowOptions = { preview: false }): Promise<vscode.Uri> {
    const uri = toResultUri(entry.id, entry.query);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') doc = await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, options);
    return uri;
  }
}

export function registerResults(context: vscode.ExtensionContext, results: ResultDocuments): void {
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results));
}

/** The document text: the response body as the service sent it, pretty-printed. */
export function renderEntry(entry: LookupEntry): string {
  if (entry.body !== undefined) return pretty(entry.body);
  if (!entry.ok) {
    return pretty({ error: { kind: entry.kind, code: entry.code, status: entry.status, text: entry.text, advice: entry.advice } });
  }
  return pretty({ note: 'The response was too large to keep after a restart. Re-run the lookup to see it again.' });
}

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
