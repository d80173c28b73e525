// The "Business Data" sidebar: Connections and Lookups views.
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { LookupNode } from '../state/lookupModel';
import { ConnectionsTreeProvider, type ConnectionNode } from './connectionsTree';
import { LookupsTreeProvider } from './lookupsTree';

export interface ExplorerViews {
  readonly connections: ConnectionsTreeProvider;
  readonly lookups: LookupsTreeProvider;
}

export const VIEW_IDS = { connections: 'bizdata.views.connections', lookups: 'bizdata.views.lookups' } as const;

export function registerExplorer(context: vscode.ExtensionContext, services: Services): ExplorerViews {
  const connections = new ConnectionsTreeProvider(services.connections, services.sandbox);
  const lookups = new LookupsTreeProvider(services.lookups);
  const updateEmpty = (): void => services.contextKeys.set('bizdata:hasLookups', !services.lookups.isEmpty);
  updateEmpty();
  context.subscriptions.push(
    connections,
    lookups,
    vscode.window.createTreeView<ConnectionNode>(VIEW_IDS.connections, { treeDataProvider: connections }),
    vscode.window.createTreeView<LookupNode>(VIEW_IDS.lookups, { treeDataProvider: lookups }),
    services.lookups.onDidChange(updateEmpty),
  );
  return { connections, lookups };
}
