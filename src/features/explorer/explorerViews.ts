// What the "Business Data" sidebar shows: the Connections and Lookups providers, built with the
// workbench (src/workbench.ts); registerExplorer.ts puts them in their views.
import type * as vscode from 'vscode';
import type { Services } from '../services';
import { ConnectionsTreeProvider } from './connectionsTree';
import { LookupsTreeProvider } from './lookupsTree';

export interface ExplorerViews {
  readonly connections: ConnectionsTreeProvider;
  readonly lookups: LookupsTreeProvider;
}

export function createExplorerViews(context: vscode.ExtensionContext, services: Services): ExplorerViews {
  const connections = new ConnectionsTreeProvider(services.connections, services.sandbox, (line) => services.log.warn(line));
  const lookups = new LookupsTreeProvider(services.lookups);
  const updateEmpty = (): void => services.contextKeys.set('bizdata:hasLookups', !services.lookups.isEmpty);
  updateEmpty();
  context.subscriptions.push(connections, lookups, services.lookups.onDidChange(updateEmpty));
  return { connections, lookups };
}
