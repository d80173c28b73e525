// Renders the Connections view: every connection (the active one expanded) with its interfaces and
// their token states and, where it states a contract, the share of it used this period; and the
// local sandbox (with its interfaces while this window uses it).
import * as vscode from 'vscode';
import type { InterfaceId, TokenStatus } from '../../core/model';
import type { Connections } from '../connection/connections';
import type { SandboxService } from '../sandbox/sandboxService';
import { commandOf, Commands } from '../shared/commandIds';
import { hostsLabel, tokensLabel } from '../shared/connectionLabels';
import { INTERFACE_IDS, INTERFACES } from '../shared/interfaces';
import { stateLabel } from '../shared/tokenLabels';
import { percent, usageLine } from '../../core/contract/usage';
import { contractUsageOf } from '../connection/contractUsage';

export type ConnectionNode =
  | { readonly type: 'connection'; readonly connection: string }
  | { readonly type: 'interface'; readonly connection: string; readonly interfaceId: InterfaceId; readonly status: TokenStatus }
  | { readonly type: 'sandbox'; readonly url?: string; readonly external?: boolean; readonly connection?: string };

export const CONNECTION_CONTEXT = {
  signedIn: 'bizdata.connection.signedIn',
  signedOut: 'bizdata.connection.signedOut',
  /** A connection of the user's: `…active` is the one in use, the other gets the inline Switch. */
  entry: 'bizdata.connectionEntry',
  activeEntry: 'bizdata.connectionEntry.active',
  sandboxRunning: 'bizdata.sandbox.running',
  sandboxStopped: 'bizdata.sandbox.stopped',
  /** A sandbox this window uses but did not start (npm start): nothing to stop from here. */
  sandboxAttached: 'bizdata.sandbox.attached',
} as const;

export class ConnectionsTreeProvider implements vscode.TreeDataProvider<ConnectionNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConnectionNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly connections: Connections,
    private readonly sandbox: SandboxService,
    /** Where a count that cannot be read is told (the log). */
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.subscriptions = [connections.onDidChange(() => this.changed.fire(undefined)), sandbox.onDidChange(() => this.changed.fire(undefined))];
  }

  async getChildren(element?: ConnectionNode): Promise<ConnectionNode[]> {
    if (element) return element.type === 'sandbox' && element.connection === undefined ? [] : this.interfaces(element);
    const running = this.sandbox.running;
    const attached = this.connections.sandbox?.url;
    // Only today's single connection, nobody signed in and no sandbox: [] lets the viewsWelcome buttons show.
    if (!this.connections.configured && !running && attached === undefined && !(await this.connections.signedInAnywhere())) return [];
    const nodes: ConnectionNode[] = this.connections
      .list()
      .filter((c) => !c.sandbox)
      .map((c) => ({ type: 'connection', connection: c.name }));
    const sandboxConnection = attached === undefined ? undefined : 'sandbox';
    nodes.push(running ? { type: 'sandbox', url: running.url, connection: sandboxConnection } : { type: 'sandbox', url: attached, external: attached !== undefined, connection: sandboxConnection });
    return nodes;
  }

  private async interfaces(element: ConnectionNode): Promise<ConnectionNode[]> {
    if (element.type === 'interface' || element.connection === undefined) return [];
    const connection = this.connections.named(element.connection);
    if (!connection) return [];
    const name = element.connection;
    return Promise.all(INTERFACE_IDS.map(async (id): Promise<ConnectionNode> => ({ type: 'interface', connection: name, interfaceId: id, status: await connection.status(id) })));
  }

  async getTreeItem(element: ConnectionNode): Promise<vscode.TreeItem> {
    if (element.type === 'sandbox') return sandboxItem(element, this.connections.activeName === element.connection);
    if (element.type === 'connection') return this.connectionItem(element.connection);
    const s = element.status;
    const signedIn = s.state !== 'signed-out';
    const item = new vscode.TreeItem(INTERFACES[element.interfaceId].label, vscode.TreeItemCollapsibleState.None);
    item.id = `interface:${element.connection}:${element.interfaceId}`;
    item.description = signedIn ? `${s.account ?? 'signed in'} · ${stateLabel(s, Date.now())}` : 'signed out';
    item.iconPath = new vscode.ThemeIcon(signedIn ? (s.state === 'valid' ? 'pass' : 'key') : 'circle-slash');
    item.contextValue = signedIn ? CONNECTION_CONTEXT.signedIn : CONNECTION_CONTEXT.signedOut;
    item.tooltip = signedIn
      ? `Connection ${element.connection}: signed in as ${s.account ?? '(account hidden)'}; token ${stateLabel(s, Date.now())}.`
      : `Connection ${element.connection}: not signed in to ${INTERFACES[element.interfaceId].label}.`;
    if (!signedIn) item.command = commandOf(Commands.signIn, 'Sign In', { interfaceId: element.interfaceId, connection: element.connection });
    return item;
  }

  private async connectionItem(name: string): Promise<vscode.TreeItem> {
    const info = this.connections.list().find((c) => c.name === name);
    const connection = this.connections.named(name);
    const active = this.connections.activeName === name;
    const item = new vscode.TreeItem(name, active ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `connection:${name}`;
    const hosts = info ? hostsLabel(info.endpoints) : '';
    const usage = connection && (await contractUsageOf(connection, (line) => this.log(line)));
    const contract = usage ? `${percent(usage.used, usage.maxCalls)} of contract` : '';
    item.description = [active ? 'active' : '', info?.production ? 'production' : '', contract, hosts].filter((t) => t !== '').join(' · ');
    item.iconPath = new vscode.ThemeIcon(info?.production ? 'warning' : active ? 'plug' : 'debug-disconnect', info?.production ? new vscode.ThemeColor('list.warningForeground') : undefined);
    item.contextValue = active ? CONNECTION_CONTEXT.activeEntry : CONNECTION_CONTEXT.entry;
    const statuses = connection ? await Promise.all(INTERFACE_IDS.map((id) => connection.status(id))) : [];
    const contractText = usage ? ` Contract: ${usageLine(usage)}.` : '';
    item.tooltip = `Connection ${name}${active ? ' (active)' : ''}${info?.production ? ', a production account' : ''}: ${hosts}. ${tokensLabel(statuses, Date.now())}.${contractText}`;
    return item;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}

function sandboxItem(element: Extract<ConnectionNode, { type: 'sandbox' }>, active: boolean): vscode.TreeItem {
  const attached = element.connection !== undefined;
  const item = new vscode.TreeItem('Local sandbox', attached ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  item.id = 'sandbox';
  const state = element.url ? `${element.external ? 'in use' : 'running'} at ${element.url}` : 'stopped';
  item.description = active ? `active · ${state}` : state;
  item.iconPath = new vscode.ThemeIcon(element.url ? 'vm-running' : 'vm-outline');
  item.contextValue = element.external
    ? CONNECTION_CONTEXT.sandboxAttached
    : element.url
      ? CONNECTION_CONTEXT.sandboxRunning
      : CONNECTION_CONTEXT.sandboxStopped;
  item.tooltip = element.url
    ? `The connection "sandbox": the local sandbox at ${element.url} with its demo credentials${element.external ? ' (started outside this window, e.g. by npm start)' : ''}.`
    : 'The local sandbox is not running. Start it to try the service without real credentials.';
  return item;
}
