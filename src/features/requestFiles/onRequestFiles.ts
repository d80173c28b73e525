// Request files and their tests come with the workbench: it is loaded as soon as a request file is
// open, or the workspace holds one (the Test Explorer lists them without opening any).
import * as vscode from 'vscode';
import { REQUEST_FILE_EXTENSION, REQUEST_FILE_LANGUAGE } from './requestFileLanguage';

/** `load` reports its own failure. */
export function loadWithRequestFiles(context: vscode.ExtensionContext, load: () => Promise<unknown>): void {
  const isRequestFile = (d: vscode.TextDocument): boolean => d.languageId === REQUEST_FILE_LANGUAGE;
  let loading = false;
  const start = (): void => {
    if (loading) return;
    loading = true;
    opened.dispose();
    void load();
  };
  const opened = vscode.workspace.onDidOpenTextDocument((d) => (isRequestFile(d) ? start() : undefined));
  context.subscriptions.push(opened);
  if (vscode.workspace.textDocuments.some(isRequestFile)) return start();
  void Promise.resolve(vscode.workspace.findFiles(`**/*${REQUEST_FILE_EXTENSION}`, undefined, 1)).then(
    (found) => (found.length > 0 ? start() : undefined),
    () => undefined, // a workspace that cannot be searched (virtual): the first opened file loads it
  );
}
