// Renders the Connections view: each signed-in interface with its token state, and the sandbox.
import * as vscode from 'vscode';
import type { InterfaceId, TokenStatus } from '../../core/model';
import type { Connection } from '../connection/connection';
import type { SandboxService } from '../sandbox/sandboxService';
import { commandOf, Commands } from '../shared/commandIds';
import { INTERFACE_IDS, INTERFACES } from '../shared/interfaces';
import { stateLabel } from '../shared/tokenLabels';

export type ConnectionNode =
  | { readonly type: 'interface'; readonly interfaceId: InterfaceId; readonly status: TokenStatus }
  | { readonly type: 'sandbox'; readonly url?: string; readonly external?: boolean };

export const CONNECTION_CONTEXT = {
  signedIn: 'bizdata.connection.signedIn',
  signedOut: 'bizdata.connection.signedOut',
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
    private readonly connection: Connection,
    private readonly sandbox: SandboxService,
  ) {
    this.subscriptions = [connection.onDidChange(() => this.changed.fire(undefined)), sandbox.onDidChange(() => this.changed.fire(undefined))];
  }

  async getChildren(element?: ConnectionNode): Promise<ConnectionNode[]> {
    if (element) return [];
    const signedIn = await this.connection.signedInInterfaces();
    const running = this.sandbox.running;
    // Nothing signed in and no sandbox: [] lets the viewsWelcome buttons show.
    if (signedIn.length === 0 && !running) return [];
    const nodes: ConnectionNode[] = [];
    for (const id of INTERFACE_IDS) nodes.push({ type: 'interface', interfaceId: id, status: await this.connection.status(id) });
    const attached = this.connection.sandbox?.url;
    nodes.push(running ? { type: 'sandbox', url: running.url } : { type: 'sandbox', url: attached, external: attached !== undefined });
    return nodes;
  }

  getTreeItem(element: ConnectionNode): vscode.TreeItem {
    if (element.type === 'sandbox') {
      const item = new vscode.TreeItem('Local sandbox', vscode.TreeItemCollapsibleState.None);
      item.id = 'sandbox';
      item.description = element.url ? `${element.external ? 'in use' : 'running'} at ${element.url}` : 'stopped';
      item.iconPath = new vscode.ThemeIcon(element.url ? 'vm-running' : 'vm-outline');
      item.contextValue = element.external
        ? CONNECTION_CONTEXT.sandboxAttached
        : element.url
          ? CONNECTION_CONTEXT.sandboxRunning
          : CONNECTION_CONTEXT.sandboxStopped;
      item.tooltip = element.url
        ? `This window uses the local sandbox at ${element.url} with its demo credentials${element.external ? ' (started outside this window, e.g. by npm start)' : ''}.`
        : 'The local sandbox is not running. Start it to try the service without real credentials.';
      return item;
    }
    const s = element.status;
    const signedIn = s.state !== 'signed-out';
    const item = new vscode.TreeItem(INTERFACES[element.interfaceId].label, vscode.TreeItemCollapsibleState.None);
    item.id = `interface:${element.interfaceId}`;
    item.description = signedIn ? `${s.account ?? 'signed in'} · ${stateLabel(s, Date.now())}` : 'signed out';
    item.iconPath = new vscode.ThemeIcon(signedIn ? (s.state === 'valid' ? 'pass' : 'key') : 'circle-slash');
    item.contextValue = signedIn ? CONNECTION_CONTEXT.signedIn : CONNECTION_CONTEXT.signedOut;
    item.tooltip = signedIn
      ? `Signed in as ${s.account ?? '(account hidden)'}; token ${stateLabel(s, Date.now())}.`
      : `Not signed in to ${INTERFACES[element.interfaceId].label}.`;
    if (!signedIn) item.command = commandOf(Commands.signIn, 'Sign In', { interfaceId: element.interfaceId });
    return item;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}
