// "Business Data: Paste curl as Request": the curl command on the clipboard (a browser's "Copy as
// cURL", an API's documentation) written as a request at the cursor of the request file in the
// editor, or in a new one; the service's host becomes the connection's variable, credentials are left
// out and said so. A command that cannot be written as the same request is refused with why.
import * as vscode from 'vscode';
import { CURL_LINE, readCurlCommand } from '../core/requests/curlCommand';
import { writeRequest } from '../core/requests/requestConversion';
import { pastePlacement } from '../features/requestFiles/pastePlacement';
import { REQUEST_FILE_LANGUAGE } from '../features/requestFiles/requestFileLanguage';
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';

/** Returns the URI (string) of the document the request was written into. */
export async function pasteCurlAsRequest(services: Services): Promise<string> {
  const clipboard = (await vscode.env.clipboard.readText()).trim();
  if (!CURL_LINE.test(clipboard)) {
    throw new UserError('The clipboard holds no curl command. Copy one that starts with "curl" (a browser\'s developer tools: Copy as cURL), then paste again.');
  }
  const reading = readCurlCommand(clipboard);
  if (!reading.ok) throw new UserError(`The curl command cannot be pasted as a request: ${reading.message}`);
  const written = writeRequest(reading.request, services.connections.active.settings().endpoints);
  if (!written.ok) throw new UserError(`The curl command cannot be pasted as a request. ${written.message}`);
  const editor = vscode.window.activeTextEditor;
  let document: vscode.TextDocument;
  if (editor?.document.languageId === REQUEST_FILE_LANGUAGE) {
    document = editor.document;
    const place = pastePlacement(document.getText(), services.documents.get(document), editor.selection.active.line, written.lines);
    const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const at = place.line < document.lineCount ? new vscode.Position(place.line, 0) : document.lineAt(document.lineCount - 1).range.end;
    if (!(await editor.edit((e) => e.insert(at, place.text.replace(/\n/g, eol))))) throw new UserError('The request file changed while pasting; paste again.');
  } else {
    document = await vscode.workspace.openTextDocument({ language: REQUEST_FILE_LANGUAGE, content: `${written.lines.join('\n')}\n` });
    await vscode.window.showTextDocument(document, { preview: false });
  }
  if (reading.notes.length > 0) {
    for (const note of reading.notes) services.log.info(`Paste curl as Request: ${note.message}`);
    void vscode.window.showInformationMessage(`Pasted the curl command as a request. ${reading.notes.map((n) => n.message).join(' ')}`);
  }
  return document.uri.toString();
}
