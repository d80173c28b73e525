// The connection of this window: which credentials and endpoints the client uses, the client itself
// (rebuilt when settings change), sign-in state, and the lockout-guard prompt every call goes through.
import * as vscode from 'vscode';
import { BizDataClient, type CallOptions } from '../../core/client';
import type { CallResult, Credentials, CredentialsA, CredentialsB, InterfaceId, LookupQuery, OperationRequest, TokenStatus } from '../../core/model';
import { errorMessage } from '../../core/errors';
import { redact } from '../../core/redact';
import { INTERFACE_IDS, interfaceOf } from '../shared/interfaces';
import { UserError } from '../shared/userError';
import type { CodeCatalog } from '../state/codeCatalog';
import type { ContextKeys } from '../state/contextKeys';
import { confirmRiskyAttempt } from './guardPrompt';
import { notReadyFailure, readiness, type NotReady } from './readiness';
import { CLIENT_SECTIONS, readConnectionSettings, type ConnectionSettings } from './settings';
import { accountKey } from '../../core/accounts/session';
import { COORDINATOR_PASSWORD_KEY, openWindowSharing, type WindowSharing } from './sharing';
import { CredentialStore } from './stores';

/** A local sandbox attached to this window: its address and demo credentials (not secrets). */
export interface SandboxProfile {
  readonly url: string;
  readonly credentials: { readonly a?: CredentialsA; readonly b?: CredentialsB };
}

export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Sign-in state, token status, endpoints or the sandbox changed: re-render. */
  readonly onDidChange = this.changed.event;
  private readonly credentialStore: CredentialStore;
  private readonly disposables: vscode.Disposable[] = [];
  private client: BizDataClient | undefined;
  private sharing: WindowSharing | undefined;
  private clientSubscription: { dispose(): void } | undefined;
  private sandboxProfile: SandboxProfile | undefined;
  private lastUsed: InterfaceId | undefined;
  /** Warnings already shown by this window: a client rebuilt on a settings change does not repeat them. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly contextKeys: ContextKeys,
    private readonly codes: CodeCatalog,
  ) {
    this.credentialStore = new CredentialStore(context.secrets);
    this.disposables.push(
      this.credentialStore,
      this.changed,
      this.credentialStore.onDidChange(() => this.fireChanged()),
      this.credentialStore.onDidChangeTokens(() => this.fireChanged()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (CLIENT_SECTIONS.some((s) => e.affectsConfiguration(s))) this.resetClient();
      }),
      // The client's failure messages describe codes from the user's codes file too.
      codes.onDidChange(() => this.resetClient()),
    );
  }

  /** The local sandbox this window talks to, if any. */
  get sandbox(): SandboxProfile | undefined {
    return this.sandboxProfile;
  }

  /** Points this window at a local sandbox (undefined: back to the user's settings and credentials). */
  useSandbox(profile: SandboxProfile | undefined): void {
    this.sandboxProfile = profile;
    this.resetClient();
  }

  settings(): ConnectionSettings {
    const base = readConnectionSettings(vscode.workspace.getConfiguration());
    const sb = this.sandboxProfile;
    if (!sb) return base;
    return { ...base, endpoints: { ...base.endpoints, authUrl: sb.url, baseUrl: sb.url, legacyUrl: sb.url } };
  }

  /** The client for the current settings; built on first use so activation stays cheap. */
  getClient(): BizDataClient {
    if (this.client) return this.client;
    const settings = this.settings();
    const sandbox = this.sandboxProfile !== undefined;
    const log = (line: string): void => this.log.info(line);
    // The budget and the learned limits are those of the account of the interface in use.
    const account = async (): Promise<string | undefined> => {
      const c = await this.credentials(await this.activeInterface());
      return c ? accountKey(settings.endpoints, c) : undefined;
    };
    const warn = (text: string): void => {
      if (this.warned.has(text)) return;
      this.warned.add(text);
      this.log.warn(text);
      void vscode.window.showWarningMessage(text);
    };
    const sharing = openWindowSharing({ context: this.context, settings, sandbox, account, log, warn });
    let client: BizDataClient;
    try {
      client = new BizDataClient({
        endpoints: settings.endpoints,
        credentials: (id) => this.credentials(id),
        tokenStore: sharing.tokenStore,
        guardStore: sharing.guardStore,
        locks: sharing.locks,
        limiter: sharing.limiter,
        http: settings.http,
        codes: this.codes.current(),
        log,
      });
    } catch (err) {
      sharing.dispose();
      // The client refuses only an unreadable CA file or a malformed proxy URL: settings to fix, not a
      // bug. A proxy URL may carry a password, so it never reaches the message (or the log).
      const reason = redact(errorMessage(err), [settings.http.proxyUrl]);
      throw new UserError(`The network settings cannot be used: ${reason} Check bizdata.network.caFile and bizdata.network.proxy.`);
    }
    this.client = client;
    this.sharing = sharing;
    this.clientSubscription = client.onDidChangeStatus(() => this.fireChanged());
    return client;
  }

  async credentials(id: InterfaceId): Promise<Credentials | undefined> {
    if (this.sandboxProfile) return this.sandboxProfile.credentials[id];
    return this.credentialStore.get(id);
  }

  async isSignedIn(id: InterfaceId): Promise<boolean> {
    return (await this.credentials(id)) !== undefined;
  }

  async signedInInterfaces(): Promise<InterfaceId[]> {
    const result: InterfaceId[] = [];
    for (const id of INTERFACE_IDS) if (await this.isSignedIn(id)) result.push(id);
    return result;
  }

  /** Stores credentials in SecretStorage (and nowhere else) and drops the tokens of the old and new ones. */
  async signIn(credentials: Credentials): Promise<void> {
    const id = credentials.interfaceId;
    if (this.sandboxProfile) {
      // Signing in with real credentials leaves the sandbox: the user means the real service now.
      this.sandboxProfile = undefined;
      this.resetClient();
    }
    // forget() finds the token by the stored credentials, so it runs before and after the switch.
    if (await this.isSignedIn(id)) await this.getClient().forget(id);
    await this.credentialStore.set(credentials);
    await this.getClient().forget(id);
    this.lastUsed = id;
    this.fireChanged();
  }

  /** Forgets the interface's credentials and its tokens. */
  async signOut(id: InterfaceId): Promise<void> {
    // Tokens first: forget() locates them through the credentials about to be deleted.
    if (await this.isSignedIn(id)) await this.getClient().forget(id);
    if (this.sandboxProfile) {
      const credentials = { ...this.sandboxProfile.credentials };
      delete credentials[id];
      this.sandboxProfile = { ...this.sandboxProfile, credentials };
    } else {
      await this.credentialStore.delete(id);
    }
    this.fireChanged();
  }

  /** The interface the status bar shows: the last one used, else the first signed in. */
  async activeInterface(): Promise<InterfaceId> {
    const signedIn = await this.signedInInterfaces();
    if (this.lastUsed && signedIn.includes(this.lastUsed)) return this.lastUsed;
    return signedIn[0] ?? this.lastUsed ?? 'a';
  }

  async status(id: InterfaceId): Promise<TokenStatus> {
    if (!(await this.isSignedIn(id))) return { interfaceId: id, state: 'signed-out', credentialFailures: 0, callsMade: 0 };
    return this.getClient().status(id);
  }

  /** Runs a lookup; the lockout guard's refusal turns into the plain-words prompt described in guardPrompt.ts. */
  lookup(query: LookupQuery, options: CallOptions = {}): Promise<CallResult> {
    const id = interfaceOf(query);
    return this.guarded(id, (o) => this.getClient().lookup(query, o), options);
  }

  /** Sends a request file's request with the interface's token, under the same guard as a lookup. */
  send(request: OperationRequest, options: CallOptions = {}): Promise<CallResult> {
    return this.guarded(request.interfaceId, (o) => this.getClient().send(request, o), options);
  }

  refreshToken(id: InterfaceId, options: CallOptions = {}): Promise<CallResult> {
    return this.guarded(id, (o) => this.getClient().refreshToken(id, o), { forceNewToken: true, ...options });
  }

  /**
   * Calls `run`; when the lockout guard refuses (failure kind `guard`), asks the user and, on
   * "Try anyway", calls again with `confirmRisk: true`. Batch and quick fixes use this too.
   */
  async guarded(id: InterfaceId, run: (o: CallOptions) => Promise<CallResult>, options: CallOptions = {}): Promise<CallResult> {
    const reason = await this.readiness(id);
    if (reason) return notReadyFailure(reason);
    this.lastUsed = id;
    const first = await run(options);
    if (first.ok || first.kind !== 'guard') return first;
    const status = await this.status(id);
    if (!(await confirmRiskyAttempt(id, status))) return first;
    return run({ ...options, confirmRisk: true });
  }

  /** Why `id` cannot be called now (not signed in, no address), or undefined when it can. */
  async readiness(id: InterfaceId): Promise<NotReady | undefined> {
    return readiness(id, await this.isSignedIn(id), this.settings().endpoints);
  }

  /** Recomputes the sign-in context keys and tells listeners to re-render. */
  fireChanged(): void {
    void this.signedInInterfaces().then((ids) => {
      this.contextKeys.set('bizdata:signedInA', ids.includes('a'));
      this.contextKeys.set('bizdata:signedInB', ids.includes('b'));
      this.contextKeys.set('bizdata:signedIn', ids.length > 0);
      this.changed.fire();
    });
  }

  /** Keeps the coordinator's password in SecretStorage (empty: removes it) and reconnects with it. */
  async setCoordinatorPassword(password: string): Promise<void> {
    if (password === '') await this.context.secrets.delete(COORDINATOR_PASSWORD_KEY);
    else await this.context.secrets.store(COORDINATOR_PASSWORD_KEY, password);
    this.resetClient();
  }

  private resetClient(): void {
    this.clientSubscription?.dispose();
    this.clientSubscription = undefined;
    this.closeClient();
    this.fireChanged();
  }

  /** The client first (it may still release permits), then what it shared. */
  private closeClient(): void {
    const old = this.client;
    const sharing = this.sharing;
    this.client = undefined;
    this.sharing = undefined;
    if (old) void old.dispose().finally(() => sharing?.dispose());
    else sharing?.dispose();
  }

  dispose(): void {
    this.clientSubscription?.dispose();
    this.closeClient();
    for (const d of this.disposables) d.dispose();
  }
}
