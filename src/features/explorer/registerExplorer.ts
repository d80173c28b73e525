// The "Business Data" sidebar: the Connections and Lookups views, registered at activation. What they
// show needs the connections and their clients, so each view asks for its provider (explorerViews.ts,
// in the workbench) the first time VS Code shows it, and from then on passes every call through.
import * as vscode from 'vscode';
import type { ExplorerViews } from './explorerViews';

export const VIEW_IDS = { connections: 'bizdata.views.connections', lookups: 'bizdata.views.lookups' } as const;

type ViewName = keyof ExplorerViews;

/** A view's provider that loads the real one on first use and then forwards to it. */
class ProviderOnDemand implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];
  private provider?: Promise<vscode.TreeDataProvider<unknown>>;

  constructor(
    private readonly name: ViewName,
    private readonly load: () => Promise<ExplorerViews>,
  ) {}

  private real(): Promise<vscode.TreeDataProvider<unknown>> {
    this.provider ??= this.load().then((views) => {
      const provider = views[this.name] as vscode.TreeDataProvider<unknown>;
      if (provider.onDidChangeTreeData) this.subscriptions.push(provider.onDidChangeTreeData((e) => this.changed.fire(e)));
      return provider;
    });
    return this.provider;
  }

  async getChildren(element?: unknown): Promise<unknown[]> {
    return (await (await this.real()).getChildren(element)) ?? [];
  }

  async getTreeItem(element: unknown): Promise<vscode.TreeItem> {
    return (await this.real()).getTreeItem(element);
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}

export function registerExplorer(context: vscode.ExtensionContext, load: () => Promise<ExplorerViews>): void {
  for (const name of Object.keys(VIEW_IDS) as ViewName[]) {
    const provider = new ProviderOnDemand(name, load);
    context.subscriptions.push(provider, vscode.window.createTreeView(VIEW_IDS[name], { treeDataProvider: provider }));
  }
}
