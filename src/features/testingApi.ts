// The small, read-only window the integration tests get into state VS Code's API cannot read back.
// activate() returns it only in ExtensionMode.Test (see extension.ts): stateDump() and the storage
// locations must never reach a user's other extensions.
import type * as vscode from 'vscode';
import type { ExplorerViews } from './explorer/registerExplorer';
import type { ConnectionInfo } from './connection/connections';
import { stateDirectory } from './connection/sharing';
import type { Services } from './services';
import type { TokenStatusBar } from './statusBar/statusBar';

export interface TestingApi {
  /** The status bar item as rendered now (after awaiting a fresh render); `warning`: in the warning colour. */
  statusBar(): Promise<StatusBarSnapshot>;
  /** The status bar item exactly as it is shown, without forcing a render: proves it keeps itself current. */
  statusBarAsShown(): StatusBarSnapshot;
  /** The connections this window knows (names, hosts, production) and the active one's name. */
  connections(): { readonly active: string; readonly list: readonly ConnectionInfo[] };
  /**
   * The extension's own SecretStorage: tests plant credentials where an earlier version kept them,
   * then run the migration of a start (migrateCredentials). Values planted here are the test's own.
   */
  readonly secrets: vscode.SecretStorage;
  /** Moves credentials of the single-connection versions to `default`, as a start of the extension does. */
  migrateCredentials(): Promise<void>;
  /** Tree items of a view, flattened depth-first: label, description, contextValue, tooltip (its text or Markdown). */
  treeItems(view: 'connections' | 'lookups'): Promise<ReadonlyArray<{ readonly label: string; readonly description: string; readonly contextValue?: string; readonly tooltip: string }>>;
  /** Where this extension's log and global storage live (the tests search them for secrets). */
  readonly logUri: string;
  readonly globalStorageUri: string;
  /** The state directory shared with the command line (guard counts, learned limits). */
  readonly stateDir: string;
  /** Address of the local sandbox started from this window, if running. */
  sandboxUrl(): string | undefined;
  /** Every globalState and workspaceState entry as JSON, so tests can prove no secret is kept there. */
  stateDump(): string;
  /** globalState itself: tests plant a lookup history in the format of an earlier version there. */
  readonly globalState: vscode.Memento;
  /** Loads the lookup history from storage as a start of the extension does (old format brought over). */
  reloadLookups(): Promise<void>;
}

export interface StatusBarSnapshot {
  readonly text: string;
  readonly tooltip: string;
  readonly accessibilityLabel: string;
  readonly warning: boolean;
}

export function createTestingApi(
  context: vscode.ExtensionContext,
  services: Services,
  statusBar: TokenStatusBar,
  views: ExplorerViews,
): TestingApi {
  return {
    async statusBar() {
      await statusBar.update();
      return statusBar.snapshot;
    },
    statusBarAsShown() {
      return statusBar.snapshot;
    },
    connections: () => ({ active: services.connections.activeName, list: services.connections.list() }),
    secrets: context.secrets,
    migrateCredentials: () => services.connections.migrate(),
    async treeItems(view) {
      const provider: vscode.TreeDataProvider<unknown> = views[view] as vscode.TreeDataProvider<unknown>;
      const out: Array<{ label: string; description: string; contextValue?: string; tooltip: string }> = [];
      const walk = async (element?: unknown): Promise<void> => {
        for (const child of (await provider.getChildren(element)) ?? []) {
          const item = await provider.getTreeItem(child);
          const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
          const tooltip = typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');
          out.push({ label, description: typeof item.description === 'string' ? item.description : '', contextValue: item.contextValue, tooltip });
          await walk(child);
        }
      };
      await walk();
      return out;
    },
    logUri: context.logUri.toString(),
    globalStorageUri: context.globalStorageUri.toString(),
    stateDir: stateDirectory(),
    sandboxUrl: () => services.sandbox.running?.url,
    stateDump: () => {
      const dump = (m: vscode.Memento): Record<string, unknown> => Object.fromEntries(m.keys().map((k) => [k, m.get(k)]));
      return JSON.stringify({ global: dump(context.globalState), workspace: dump(context.workspaceState) });
    },
    globalState: context.globalState,
    reloadLookups: () => services.lookups.load(),
  };
}
