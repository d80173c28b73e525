// Builds the connection of this window; its first sign-in state is read in the background.
import type * as vscode from 'vscode';
import type { CodeCatalog } from '../state/codeCatalog';
import type { ContextKeys } from '../state/contextKeys';
import { Connection } from './connection';

export function createConnection(
  context: vscode.ExtensionContext,
  deps: { readonly log: vscode.LogOutputChannel; readonly contextKeys: ContextKeys; readonly codes: CodeCatalog },
): Connection {
  const connection = new Connection(context, deps.log, deps.contextKeys, deps.codes);
  context.subscriptions.push(connection);
  // Sets the bizdata:signedIn* context keys without making activate() wait for SecretStorage.
  connection.fireChanged();
  return connection;
}
