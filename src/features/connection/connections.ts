// Every connection of this window and which one is active. Connections come from the user setting
// `bizdata.connections` (machine scope: a workspace can neither define nor change one; a value there
// is ignored with one warning in the log), from today's `bizdata.endpoints.*` settings as `default`,
// and the local sandbox as `sandbox` while one is attached. Each connection has its own client,
// built once it is signed in and disposed when the connection goes away or rebuilt when its settings
// change; a connection deleted from the setting takes its stored credentials and tokens with it.
import * as vscode from 'vscode';
import { DEFAULT_CONNECTION, sandboxConnection, SANDBOX_CONNECTION, shownName, type Connection as ConnectionDefinition } from '../../core/connections/connection';
import type { InterfaceId } from '../../core/model';
import { INTERFACE_IDS } from '../shared/interfaces';
import type { ConnectionChoice } from '../../core/requests/requestConnections';
import { UserError } from '../shared/userError';
import { Commands, executeCommand } from '../shared/commandIds';
import { safeLine } from '../../core/sanitize';
import { errorMessage } from '../../core/errors';
import type { CodeCatalog } from '../state/codeCatalog';
import type { ContextKeys } from '../state/contextKeys';
import { Connection, type SandboxProfile } from './connection';
import { readUserConnections } from './connectionSetting';
import { connectionInfo as info, connectionTable, deletedConnections, settingsOf, type ConnectionInfo, type ConnectionTable, type NamedConnection } from './connectionTable';
import { CLIENT_SECTIONS } from './settings';
import { COORDINATOR_PASSWORD_KEY } from './sharing';
import { CredentialStore } from './stores';
import { warnWorkspaceConnections, watchWorkspaceSettings, workspaceFilesDefining } from './workspaceSettings';

export const CONNECTIONS_SETTING = 'bizdata.connections';
export const PREFERRED_SETTING = 'bizdata.preferredConnection';
/** The connection this workspace's window last switched to (workspaceState: the user's choice, not the repository's). */
const CHOSEN_KEY = 'bizdata.connection.chosen';

export class Connections implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** A connection was added, removed, switched to, signed in or out, or its token changed. */
  readonly onDidChange = this.changed.event;
  private readonly credentialStore: CredentialStore;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly open = new Map<string, Connection>();
  private readonly warned = new Set<string>();
  private table: ConnectionTable = { connections: [] };
  /** The connections of the last value of the setting that could be read: a later one without a name deletes it. */
  private defined: ConnectionTable = { connections: [] };
  private sandboxConnection: Connection | undefined;
  /** The local sandbox is active (it is while attached, until the user switches away). */
  private sandboxActive = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly contextKeys: ContextKeys,
    private readonly codes: CodeCatalog,
  ) {
    this.credentialStore = new CredentialStore(context.secrets);
    void this.migrate();
    this.reload();
    this.disposables.push(
      this.credentialStore,
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if ([CONNECTIONS_SETTING, PREFERRED_SETTING, ...CLIENT_SECTIONS].some((s) => e.affectsConfiguration(s))) this.reload();
      }),
      // The client's failure messages describe codes from the user's codes file too.
      codes.onDidChange(() => {
        for (const c of this.all()) c.resetClient();
      }),
      // Trusting the folder lets its connection preference count.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.fireChanged()),
      watchWorkspaceSettings(() => void this.checkWorkspaceFiles()),
    );
    void this.checkWorkspaceFiles();
  }

  /** The connection the status bar names and new lookups, batches and request files use. */
  get active(): Connection {
    return this.connection(this.activeName);
  }

  get activeName(): string {
    if (this.sandboxActive && this.sandboxConnection) return SANDBOX_CONNECTION;
    const names = this.table.connections.map((c) => c.name);
    const chosen = this.context.workspaceState.get<string>(CHOSEN_KEY);
    if (chosen !== undefined && names.includes(chosen)) return chosen;
    const preferred = this.preferred();
    if (preferred !== undefined && names.includes(preferred)) return preferred;
    if (this.table.active !== undefined) return this.table.active;
    return names.includes(DEFAULT_CONNECTION) ? DEFAULT_CONNECTION : (names[0] ?? DEFAULT_CONNECTION);
  }

  /** The local sandbox attached to this window, if any. */
  get sandbox(): { readonly url: string } | undefined {
    const url = this.sandboxConnection?.settings().endpoints.baseUrl;
    return url === undefined ? undefined : { url };
  }

  /** The connections as lists show them: the user's, then the sandbox while attached. */
  list(): readonly ConnectionInfo[] {
    const infos: ConnectionInfo[] = this.table.connections.map((c) => info(c.name, c.settings.endpoints, c.production, false));
    if (this.sandboxConnection) infos.push(info(SANDBOX_CONNECTION, this.sandboxConnection.settings().endpoints, false, true));
    return infos;
  }

  /** True when the user defined connections of their own (not only `default` from the old settings). */
  get configured(): boolean {
    return this.table.connections.some((c) => c.from === 'setting');
  }

  /** The connection of that name, or undefined when there is none. */
  named(name: string): Connection | undefined {
    if (name === SANDBOX_CONNECTION) return this.sandboxConnection;
    return this.table.connections.some((c) => c.name === name) ? this.connection(name) : undefined;
  }

  /** The connection of that name, or a message naming the connections there are. */
  require(name: string, why: string): Connection {
    const found = this.named(name);
    if (found) return found;
    const names = this.list().map((c) => c.name);
    throw new UserError(`${why}: no connection is named "${shownName(name)}" now. The connections are: ${names.join(', ')}. Add it with "Business Data: Add Connection", or switch to one of these.`);
  }

  /** Makes `name` this window's active connection (remembered for this workspace). */
  async switchTo(name: string): Promise<Connection> {
    const target = this.require(name, `Cannot switch to "${shownName(name)}"`);
    if (name === SANDBOX_CONNECTION) {
      this.sandboxActive = true;
    } else {
      this.sandboxActive = false;
      await this.context.workspaceState.update(CHOSEN_KEY, name);
    }
    this.log.info(`connection: switched to ${name}`);
    this.fireChanged();
    return target;
  }

  /** The connections a request file may name (the user's and `sandbox`), and each one's endpoints. */
  choice(): ConnectionChoice {
    return {
      active: this.activeName,
      names: [...this.table.connections.map((c) => c.name), SANDBOX_CONNECTION],
      endpoints: (name) => this.named(name)?.settings().endpoints,
    };
  }

  /** Back from the local sandbox to the user's own active connection (signing in with real credentials means it). */
  leaveSandbox(): Connection {
    if (this.sandboxActive) {
      this.sandboxActive = false;
      this.fireChanged();
    }
    return this.active;
  }

  /** Attaches the local sandbox as the connection `sandbox` and makes it active; undefined detaches it. */
  useSandbox(profile: SandboxProfile | undefined): void {
    const old = this.sandboxConnection;
    this.sandboxConnection = undefined;
    old?.dispose();
    if (profile) {
      const d = sandboxConnection(profile.url);
      const named: NamedConnection = { name: SANDBOX_CONNECTION, settings: settingsOf(d, vscode.workspace.getConfiguration()), production: false, from: 'setting' };
      this.sandboxConnection = this.watch(new Connection(SANDBOX_CONNECTION, named, this.deps(), profile));
    }
    this.sandboxActive = profile !== undefined;
    this.fireChanged();
  }

  /** Every secret any client knows, replaced (history entries come from any connection); whether a text holds one. */
  redact(text: string): string {
    return this.all().reduce((t, c) => c.secrets.redact(t), text);
  }
  holds(text: string): boolean {
    return this.all().some((c) => c.secrets.holds(text));
  }

  /** Keeps the coordinator's password in SecretStorage (empty: removes it) and reconnects with it. */
  async setCoordinatorPassword(password: string): Promise<void> {
    if (password === '') await this.context.secrets.delete(COORDINATOR_PASSWORD_KEY);
    else await this.context.secrets.store(COORDINATOR_PASSWORD_KEY, password);
    for (const c of this.all()) c.resetClient();
  }

  /** The first start of this version: stored credentials move to the connection `default` (today's `bizdata.endpoints.*`). */
  migrate(): Promise<void> {
    return this.credentialStore.migrate(DEFAULT_CONNECTION);
  }

  /** Recomputes the context keys of the active connection and tells listeners to re-render. */
  fireChanged(): void {
    void this.active.signedInInterfaces().then((ids) => {
      this.contextKeys.set('bizdata:signedInA', ids.includes('a'));
      this.contextKeys.set('bizdata:signedInB', ids.includes('b'));
      this.contextKeys.set('bizdata:signedIn', ids.length > 0);
      this.changed.fire();
    });
  }

  /** Which interfaces of a connection are signed in, for every connection (the view and the pick). */
  async signedInAnywhere(): Promise<boolean> {
    for (const c of this.list()) {
      const connection = this.named(c.name);
      for (const id of INTERFACE_IDS as readonly InterfaceId[]) if (connection && (await connection.isSignedIn(id))) return true;
    }
    return false;
  }

  dispose(): void {
    for (const c of this.all()) c.dispose();
    this.open.clear();
    this.sandboxConnection = undefined;
    for (const d of this.disposables) d.dispose();
  }

  private all(): Connection[] {
    return [...this.open.values(), ...(this.sandboxConnection ? [this.sandboxConnection] : [])];
  }

  /** A workspace's preference, honoured only in a trusted workspace. */
  private preferred(): string | undefined {
    if (!vscode.workspace.isTrusted) return undefined;
    const v = vscode.workspace.getConfiguration().get<string>(PREFERRED_SETTING);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  }

  /** Reads the settings again: new connections appear, removed ones are disposed, changed ones rebuild their client. */
  private reload(): void {
    const config = vscode.workspace.getConfiguration();
    const inspected = config.inspect(CONNECTIONS_SETTING);
    if (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined) warnWorkspaceConnections(this.log, this.warned, 'this workspace\'s settings');
    const read = readUserConnections(inspected?.globalValue);
    for (const problem of read.problems) this.showProblem(problem);
    this.table = connectionTable(config, read.definitions, read.active);
    // A value with problems defines nothing for now: only a readable value deletes a connection.
    if (read.problems.length === 0) {
      for (const gone of deletedConnections(this.defined, read.definitions)) this.forgetDeleted(gone);
      this.defined = this.table;
    }
    for (const [name, connection] of this.open) {
      const now = this.table.connections.find((c) => c.name === name);
      if (now) {
        connection.update(now);
      } else {
        this.open.delete(name);
        connection.dispose();
      }
    }
    if (this.sandboxConnection) {
      const url = this.sandboxConnection.settings().endpoints.baseUrl;
      const d: ConnectionDefinition = sandboxConnection(url);
      this.sandboxConnection.update({ name: SANDBOX_CONNECTION, settings: settingsOf(d, config), production: false, from: 'setting' });
    }
    this.fireChanged();
  }

  /** Deletes a deleted connection's credentials and tokens: a later one of the same name starts signed out. */
  private forgetDeleted(gone: NamedConnection): void {
    const connection = this.open.get(gone.name) ?? new Connection(gone.name, gone, this.deps());
    this.open.delete(gone.name);
    void connection
      .forgetAll()
      .then(() => this.log.info(`connection: ${gone.name} was deleted: its credentials and tokens too`))
      .catch((err: unknown) => this.log.warn(`connection: ${gone.name} was deleted, but its credentials could not all be deleted: ${errorMessage(err)}`))
      .finally(() => connection.dispose());
  }

  private connection(name: string): Connection {
    if (name === SANDBOX_CONNECTION && this.sandboxConnection) return this.sandboxConnection;
    const existing = this.open.get(name);
    if (existing) return existing;
    const definition = this.table.connections.find((c) => c.name === name) ?? this.table.connections[0];
    const connection = this.watch(new Connection(definition.name, definition, this.deps()));
    this.open.set(definition.name, connection);
    return connection;
  }

  private watch(connection: Connection): Connection {
    connection.onDidChange(() => this.fireChanged());
    return connection;
  }

  private deps(): ConstructorParameters<typeof Connection>[2] {
    return { context: this.context, log: this.log, codes: this.codes, credentialStore: this.credentialStore, warned: this.warned };
  }

  /** One warning per window that a workspace's own settings try to define connections. */
  private async checkWorkspaceFiles(): Promise<void> {
    const files = await workspaceFilesDefining(CONNECTIONS_SETTING);
    if (files.length > 0) warnWorkspaceConnections(this.log, this.warned, files.join(', '));
  }


  /** A setting that cannot be used: in the log, and once to the user with the way to fix it. */
  private showProblem(problem: string): void {
    if (this.warned.has(problem)) return;
    this.warned.add(problem);
    this.log.warn(`connection: ${problem}`);
    const edit = 'Edit Connections';
    void vscode.window.showWarningMessage(safeLine(`Business Data: ${problem.replace(/\n/g, ' ')}`), edit).then((choice) => (choice === edit ? executeCommand(Commands.editConnections) : undefined));
  }
}
