// Builds the connections of this window; the first sign-in state is read in the background.
import type * as vscode from 'vscode';
import type { CodeCatalog } from '../state/codeCatalog';
import type { ContextKeys } from '../state/contextKeys';
import { Connections } from './connections';

export function createConnections(
  context: vscode.ExtensionContext,
  deps: { readonly log: vscode.LogOutputChannel; readonly contextKeys: ContextKeys; readonly codes: CodeCatalog },
): Connections {
  const connections = new Connections(context, deps.log, deps.contextKeys, deps.codes);
  context.subscriptions.push(connections);
  return connections;
}
