// The small, read-only window the integration tests get into state VS Code's API cannot read back.
// activate() returns it only in ExtensionMode.Test (see extension.ts): stateDump() and the storage
// locations must never reach a user's other extensions.
import * as vscode from 'vscode';
import type { ExplorerViews } from './explorer/explorerViews';
import type { ConnectionInfo } from './connection/connectionTable';
import { stateDirectory } from './connection/sharing';
import type { Services } from './services';
import type { TokenStatusBar } from './statusBar/statusBar';
import type { TestExplorer } from './testing/registerTestExplorer';

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
  /** The Test Explorer's tree and runs, which VS Code's API does not let another extension read. */
  readonly tests: TestsView;
  /** The page the report webview shows now, if it is open (no test can look into a webview). */
  reportHtml(): string | undefined;
}

/** A test item as the Test Explorer holds it: the range's lines 0-based. */
export interface TestItemView {
  readonly id: string;
  readonly label: string;
  readonly parent?: string;
  readonly line?: number;
  readonly endLine?: number;
  readonly error?: string;
  readonly canResolveChildren: boolean;
}

export interface TestMessageView {
  readonly text: string;
  readonly uri?: string;
  readonly line?: number;
  readonly expected?: string;
  readonly actual?: string;
  readonly contextValue?: string;
}

/** One call a run made on its TestRun, in order. */
export interface TestRunEvent {
  readonly state: 'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped' | 'output';
  readonly id?: string;
  readonly durationMs?: number;
  readonly messages?: readonly TestMessageView[];
  readonly output?: string;
}

export interface TestRunView {
  readonly events: readonly TestRunEvent[];
  readonly ended: boolean;
  /** Settles when the run ends. */
  readonly done: Promise<void>;
}

export interface TestsView {
  /** Lists the workspace's request files, as opening the Testing view does. */
  discover(): Promise<void>;
  /** Every item now in the tree, depth-first, without reading anything. */
  items(): readonly TestItemView[];
  /** Expands an item, as the Testing view does when it is opened. */
  resolve(id: string): Promise<void>;
  /** Every run since activation, however it was started (the explorer, the gutter, a command). */
  runs(): readonly TestRunView[];
  /** Runs the items with these ids (all when omitted) with the Run profile, as its button does, or with Run and Update Snapshots. */
  run(ids?: readonly string[], token?: vscode.CancellationToken, profile?: 'run' | 'updateSnapshots'): Promise<TestRunView>;
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
  tests: TestExplorer,
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
    tests: testsView(tests),
    reportHtml: () => services.reportPanel.shownHtml,
  };
}

function testsView(tests: TestExplorer): TestsView {
  const { controller } = tests;
  const runs: TestRunView[] = [];
  // Every run the controller makes is recorded on its way to VS Code, which still shows it as usual.
  const create = controller.createTestRun.bind(controller);
  controller.createTestRun = (request, name, persist) => {
    const view = recordRun(create(request, name, persist));
    runs.push(view.view);
    return view.run;
  };
  const find = (id: string): vscode.TestItem | undefined => {
    let found: vscode.TestItem | undefined;
    const walk = (c: vscode.TestItemCollection): void =>
      c.forEach((item) => {
        if (item.id === id) found = item;
        if (!found) walk(item.children);
      });
    walk(controller.items);
    return found;
  };
  return {
    discover: () => tests.tree.discover(),
    items() {
      const out: TestItemView[] = [];
      const walk = (c: vscode.TestItemCollection): void =>
        c.forEach((item) => {
          const error = typeof item.error === 'string' ? item.error : item.error?.value;
          out.push({ id: item.id, label: item.label, parent: item.parent?.id, line: item.range?.start.line, endLine: item.range?.end.line, error, canResolveChildren: item.canResolveChildren });
          walk(item.children);
        });
      walk(controller.items);
      return out;
    },
    async resolve(id) {
      const item = find(id);
      if (!item) throw new Error(`no test item ${id}`);
      await controller.resolveHandler?.(item);
    },
    runs: () => runs,
    async run(ids, token, which = 'run') {
      const include = ids?.map((id) => {
        const item = find(id);
        if (!item) throw new Error(`no test item ${id}`);
        return item;
      });
      const before = runs.length;
      const profile = which === 'run' ? tests.runProfile : tests.updateSnapshotsProfile;
      await profile.runHandler(new vscode.TestRunRequest(include, undefined, profile), token ?? new vscode.CancellationTokenSource().token);
      const view = runs[before];
      if (!view) throw new Error(`the ${profile.label} profile made no run`);
      return view;
    },
  };
}

/** A TestRun that records every call before passing it on. */
function recordRun(run: vscode.TestRun): { readonly run: vscode.TestRun; readonly view: TestRunView } {
  const events: TestRunEvent[] = [];
  let ended = false;
  let settle: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (settle = resolve));
  const messagesOf = (m: vscode.TestMessage | readonly vscode.TestMessage[]): TestMessageView[] =>
    (Array.isArray(m) ? m : [m]).map((one: vscode.TestMessage) => ({
      text: typeof one.message === 'string' ? one.message : one.message.value,
      uri: one.location?.uri.toString(),
      line: one.location?.range.start.line,
      expected: one.expectedOutput,
      actual: one.actualOutput,
      contextValue: one.contextValue,
    }));
  const recorded: vscode.TestRun = {
    get name() {
      return run.name;
    },
    get token() {
      return run.token;
    },
    get isPersisted() {
      return run.isPersisted;
    },
    get onDidDispose() {
      return run.onDidDispose;
    },
    enqueued(test) {
      events.push({ state: 'enqueued', id: test.id });
      run.enqueued(test);
    },
    started(test) {
      events.push({ state: 'started', id: test.id });
      run.started(test);
    },
    skipped(test) {
      events.push({ state: 'skipped', id: test.id });
      run.skipped(test);
    },
    passed(test, duration) {
      events.push({ state: 'passed', id: test.id, durationMs: duration });
      run.passed(test, duration);
    },
    failed(test, message, duration) {
      events.push({ state: 'failed', id: test.id, durationMs: duration, messages: messagesOf(message) });
      run.failed(test, message, duration);
    },
    errored(test, message, duration) {
      events.push({ state: 'errored', id: test.id, durationMs: duration, messages: messagesOf(message) });
      run.errored(test, message, duration);
    },
    appendOutput(output, location, test) {
      events.push({ state: 'output', id: test?.id, output });
      run.appendOutput(output, location, test);
    },
    addCoverage(coverage) {
      run.addCoverage(coverage);
    },
    end() {
      ended = true;
      run.end();
      settle();
    },
  };
  return {
    run: recorded,
    view: {
      events,
      get ended() {
        return ended;
      },
      done,
    },
  };
}
