// "Business Data: New Request File": an untitled request file with an example of each interface.
import * as vscode from 'vscode';
import { REQUEST_FILE_LANGUAGE } from '../features/requestFiles/requestFileLanguage';
import { REQUEST_FILE_TEMPLATE } from '../features/requestFiles/requestFileTemplate';

/** Returns the URI (string) of the new document. */
export async function newRequestFile(): Promise<string> {
  const document = await vscode.workspace.openTextDocument({ language: REQUEST_FILE_LANGUAGE, content: REQUEST_FILE_TEMPLATE });
  await vscode.window.showTextDocument(document, { preview: false });
  return document.uri.toString();
}
