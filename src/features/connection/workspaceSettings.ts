// Finds a `bizdata.connections` that a workspace's own settings try to set. VS Code already ignores it
// (the setting is machine-scoped, so inspect() does not even show it), but the user should learn
// why the repository's connections are not there (one line in the log): the files are read as text,
// once per change.
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';

/** The workspace settings files that define the key: each folder's .vscode/settings.json and a .code-workspace file. */
export async function workspaceFilesDefining(key: string): Promise<string[]> {
  const files = (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'));
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') files.push(workspaceFile);
  const found: string[] = [];
  for (const uri of files) {
    let text: string;
    try {
      text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    } catch {
      continue; // no settings file there
    }
    const value: unknown = parse(text, [], { allowTrailingComma: true });
    const settings = uri === workspaceFile && isRecord(value) ? value.settings : value;
    if (isRecord(settings) && Object.hasOwn(settings, key)) found.push(vscode.workspace.asRelativePath(uri));
  }
  return found;
}

const WORKSPACE_WARNING = 'workspace-connections';

/** One line in the log per window (`warned`) that a workspace's own settings (`where`) try to define connections. */
export function warnWorkspaceConnections(log: vscode.LogOutputChannel, warned: Set<string>, where: string): void {
  if (warned.has(WORKSPACE_WARNING)) return;
  warned.add(WORKSPACE_WARNING);
  log.warn(
    `connection: bizdata.connections is set in ${where}; it is ignored: only your user settings define connections, so a repository cannot point your credentials at another host. A workspace may name the connection it prefers with bizdata.preferredConnection.`,
  );
}

/** Calls `changed` when a workspace settings file may have changed. */
export function watchWorkspaceSettings(changed: () => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher('**/{.vscode/settings.json,*.code-workspace}');
  return vscode.Disposable.from(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
