// "Business Data: Save Response": writes the result as <name>.response.json (.txt for an answer that is
// not JSON) into the workspace.
import * as vscode from 'vscode';
import { renderAnswer } from '../features/results/resultDocuments';
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';
import { ANSWER_NOT_STORED } from '../features/state/lookupEntries';
import { resultBaseName, resultExtension } from '../features/state/resultUri';
import { resolveLookupTarget } from './lookupArgs';

/** Returns the URI (string) of the written file, or undefined when the user cancelled. */
export async function saveResponse(services: Services, arg?: unknown): Promise<string | undefined> {
  const target = resolveLookupTarget(services, arg);
  if (!target.entry) throw new UserError('Run this saved query first; then save its response.');
  const answer = await services.lookups.answerOf(target.entry);
  if (answer.state === 'missing') throw new UserError(ANSWER_NOT_STORED);
  const extension = resultExtension(target.entry);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  let uri: vscode.Uri | undefined;
  if (folder) {
    uri = await freeName(folder, resultBaseName(target.query), `.response${extension}`);
  } else {
    const filters: Record<string, string[]> = extension === '.json' ? { JSON: ['json'] } : { Text: ['txt'] };
    uri = await vscode.window.showSaveDialog({ title: 'Save Response', saveLabel: 'Save Response', filters });
    if (!uri) return undefined;
  }
  await vscode.workspace.fs.writeFile(uri, Buffer.from(renderAnswer(target.entry, answer), 'utf8'));
  const written = uri;
  void vscode.window
    .showInformationMessage(`Business Data: response saved as ${vscode.workspace.asRelativePath(written)}.`, 'Open')
    .then((choice) => (choice === 'Open' ? vscode.window.showTextDocument(written) : undefined));
  return uri.toString();
}

/** name.response.json, or name-2.response.json … when it exists already. */
async function freeName(folder: vscode.Uri, base: string, suffix: string): Promise<vscode.Uri> {
  const fileName = `${base}${suffix}`;
  for (let i = 1; i < 1000; i++) {
    const candidate = vscode.Uri.joinPath(folder, i === 1 ? fileName : `${base}-${i}${suffix}`);
    try {
      await vscode.workspace.fs.stat(candidate);
    } catch {
      return candidate;
    }
  }
  throw new UserError(`Too many saved responses named ${fileName} in the workspace; delete some first.`);
}
