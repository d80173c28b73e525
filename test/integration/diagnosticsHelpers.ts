// Helpers shared by the diagnostics, hover and quick-fix suites: response documents and polling.
import * as vscode from 'vscode';

export const EXTENSION_ID = 'bizdata.bizdata-explorer';

export async function activateExtension(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  await ext.activate();
}

/** An Interface B failure as the service sends it, or an Interface A error object for 00040. */
export function responseWith(code: string): string {
  if (code === '00040') {
    return `${JSON.stringify({ error: { errorCode: code, errorMessage: 'The access token in use has expired.' } }, null, 2)}\n`;
  }
  const result = code === 'CM000' ? { ResultID: code, ResultText: 'Success' } : { SeverityText: 'Error', ResultID: code, ResultText: 'text' };
  const body = { MatchResponse: { TransactionDetail: { ApplicationTransactionID: 'Rest', ServiceTransactionID: 'Id-1' }, TransactionResult: result } };
  return `${JSON.stringify(body, null, 2)}\n`;
}

export async function openJson(content: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content });
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

/** Polls until `read` returns a value `done` accepts; fails with the last value after the timeout. */
export async function waitFor<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function ourDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Business Data');
}

/** The position in the middle of the first occurrence of `"code"` in the document. */
export function positionOf(doc: vscode.TextDocument, code: string): vscode.Position {
  const offset = doc.getText().indexOf(`"${code}"`);
  if (offset < 0) throw new Error(`${code} not in the document`);
  return doc.positionAt(offset + 3);
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
