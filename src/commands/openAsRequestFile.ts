// "Business Data: Open as Business Data Request File": a REST Client, httpYac or kulala file copied
// beside itself as `NAME.bizdata.http`, converted (requestConversion.ts: service hosts as connection
// variables, curl commands as requests, credential lines removed) and opened; what changed is
// listed in the log, one line per change at its place in the original, and summed up in a message.
import * as vscode from 'vscode';
import { convertRequestFile } from '../core/requests/requestConversion';
import { requestFileText } from '../core/requests/requestText';
import { REQUEST_FILE_EXTENSION } from '../features/requestFiles/requestFileLanguage';
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';

const PEER_FILE = /\.(?:http|rest)$/i;
const SHOW_CHANGES = 'Show Changes';

/** Takes the file's URI (the Explorer's context menu), else the active editor's; returns the new file's URI (string). */
export async function openAsRequestFile(services: Services, arg?: unknown): Promise<string> {
  const source = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!source) throw new UserError('Open a .http or .rest file first, or pick one in the Explorer.');
  const shown = vscode.workspace.asRelativePath(source);
  if (source.path.toLowerCase().endsWith(REQUEST_FILE_EXTENSION)) throw new UserError(`${shown} is a Business Data request file already.`);
  if (!PEER_FILE.test(source.path) || source.scheme === 'untitled') throw new UserError(`${shown} is not a saved .http or .rest file; save it as one first.`);
  // What the editor shows, unsaved edits included.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === source.toString());
  const text = open ? open.getText() : requestFileText(await vscode.workspace.fs.readFile(source));
  const conversion = convertRequestFile(text, services.connections.active.settings().endpoints);
  const target = await freeName(source);
  await vscode.workspace.fs.writeFile(target, Buffer.from(conversion.text, 'utf8'));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target), { preview: false });
  const name = target.path.split('/').at(-1) ?? '';
  services.log.info(`Open as Business Data Request File: ${shown} → ${vscode.workspace.asRelativePath(target)}, ${count(conversion.changes.length)}.`);
  for (const c of conversion.changes) services.log.info(`${shown}:${c.line + 1}: ${c.message}`);
  const summary = conversion.changes.length === 0 ? 'nothing needed changing' : `${count(conversion.changes.length)}, listed in the log`;
  void vscode.window.showInformationMessage(`Wrote ${name} from ${shown}: ${summary}.`, ...(conversion.changes.length > 0 ? [SHOW_CHANGES] : [])).then((choice) => {
    if (choice === SHOW_CHANGES) services.log.show(true);
  });
  return target.toString();
}

function count(n: number): string {
  return n === 1 ? '1 change' : `${n} changes`;
}

/** `NAME.bizdata.http` beside the source, or `NAME-2.bizdata.http` and so on where that exists: nothing is overwritten. */
async function freeName(source: vscode.Uri): Promise<vscode.Uri> {
  const base = (source.path.split('/').at(-1) ?? 'requests.http').replace(PEER_FILE, '');
  for (let n = 1; ; n++) {
    const candidate = vscode.Uri.joinPath(source, '..', `${base}${n === 1 ? '' : `-${n}`}${REQUEST_FILE_EXTENSION}`);
    try {
      await vscode.workspace.fs.stat(candidate);
    } catch {
      return candidate;
    }
  }
}
