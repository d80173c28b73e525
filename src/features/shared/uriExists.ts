// Whether anything is at a URI of VS Code's file systems now.
import * as vscode from 'vscode';

export async function uriExists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
