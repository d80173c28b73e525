// The read-only `bizdata-result:` documents: the provider that renders each lookup as JSON, and the
// way back from a document to the lookup behind it. The lookups themselves live in the LookupModel.
import * as vscode from 'vscode';
import { EXTENSION_DOCUMENT_LIMIT_CHARS } from '../connection/settings';
import { ANSWER_NOT_STORED, prettyJson, type LookupEntry, type StoredAnswer } from '../state/lookupEntries';
import type { LookupModel } from '../state/lookupModel';
import { fromResultUri, resultExtension, toResultUri } from '../state/resultUri';

export class ResultDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly lookups: LookupModel) {}

  /** The lookup (query, status, code, request) behind a result URI; part of the contract with diagnostics and quick fixes. */
  find(uri: vscode.Uri | string): LookupEntry | undefined {
    const parsed = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
    const id = fromResultUri(parsed);
    return id === undefined ? undefined : this.lookups.find(id);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const entry = this.find(uri);
    if (!entry) {
      return prettyJson({ note: 'This lookup was deleted from the history. Run it again with "Business Data: Re-run Lookup" or a new lookup.' });
    }
    return this.text(entry);
  }

  /** The document text of an entry: its answer as stored, or a note saying why there is none. */
  async text(entry: LookupEntry): Promise<string> {
    return renderAnswer(entry, await this.lookups.answerOf(entry));
  }

  /** Opens the entry's read-only editor (JSON, or plain text for an answer that is not JSON) and returns its URI. */
  async open(entry: LookupEntry, options: vscode.TextDocumentShowOptions = { preview: false }): Promise<vscode.Uri> {
    const uri = toResultUri(entry);
    const chars = entry.answer?.chars ?? 0;
    if (chars > EXTENSION_DOCUMENT_LIMIT_CHARS) {
      // The editor can show it; VS Code keeps it from extensions, so no code in it can be marked.
      await vscode.commands.executeCommand('vscode.open', uri, options);
      void vscode.window.showWarningMessage(
        `Business Data: the answer is ${Math.round(chars / 1e6)} MB, more than VS Code lets extensions read (50 MB): it is shown, but its result codes are not marked or explained. Use Save Response to keep it as a file.`,
      );
      return uri;
    }
    const language = resultExtension(entry) === '.json' ? 'json' : 'plaintext';
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(doc, options);
    return uri;
  }
}

/** The document text: the answer as the service sent it (JSON pretty-printed), or why there is none. */
export function renderAnswer(entry: LookupEntry, answer: StoredAnswer): string {
  if (answer.state === 'stored') return answer.text;
  if (answer.state === 'missing') {
    return prettyJson({ note: ANSWER_NOT_STORED });
  }
  if (!entry.ok) {
    return prettyJson({ error: { kind: entry.kind, code: entry.code, status: entry.status, text: entry.text, advice: entry.advice } });
  }
  return prettyJson({ note: 'The response was too large to keep after a restart. Re-run the lookup to see it again.' });
}
