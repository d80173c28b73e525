// One connection of this window: which credentials and endpoints its client uses, the client itself
// (built with what it shares once the connection has an account to call with, rebuilt when its
// settings change), sign-in state, and the way every call goes (guardedCall.ts): readiness asked
// once, the lockout guard, consent to a changed sign-in address. connections.ts holds them all.
import * as vscode from 'vscode';
import type { BizDataClient } from '../../core/client';
import type { CallOptions } from '../../core/clientOptions';
import type { CallResult, Credentials, CredentialsA, CredentialsB, InterfaceId, LookupQuery, OperationRequest, TokenStatus, WireEvent } from '../../core/model';
import { errorMessage } from '../../core/errors';
import { NO_SECRETS, type RunSecrets } from '../../core/redact';
import { INTERFACE_IDS, interfaceOf } from '../shared/interfaces';
import { UserError } from '../shared/userError';
import { confirmRiskyAttempt } from './guardPrompt';
import { guardedCall, type CallGate } from './guardedCall';
import { readiness, type NotReady } from './readiness';
import type { NamedConnection } from './connectionTable';
import type { ConnectionSettings } from './settings';
import { signInOrigin, tokenOwnerAt } from '../../core/accounts/session';
import { BoundCredentials } from './boundCredentials';
import { buildClient, type ClientDeps } from './connectionClient';
import type { WindowSharing } from './sharing';
import type { CredentialStore } from './stores';

/** A local sandbox attached to this window: its address and demo credentials (not secrets). */
export interface SandboxProfile {
  readonly url: string;
  readonly credentials: { readonly a?: CredentialsA; readonly b?: CredentialsB };
}

/** What every connection of the window shares: the extension's storage, its log, the code catalog, the stored credentials. */
export interface ConnectionDeps extends ClientDeps {
  readonly credentialStore: CredentialStore;
}

/** A call whose interface was found ready: it goes under the guard without asking readiness again. */
export interface ReadyCall {
  lookup(query: LookupQuery, options?: CallOptions): Promise<CallResult>;
  send(request: OperationRequest, options?: CallOptions): Promise<CallResult>;
}

/**
 * One named connection of the window (or the local sandbox): its settings, its credentials, its own
 * client (built when the connection is made or signed in, rebuilt when its settings change) and the
 * lockout-guard prompt every call goes through.
 */
export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Sign-in state, token status or settings changed: re-render. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Listeners of the client's calls and waits (tapWire); kept across client rebuilds. */
  private readonly wireTaps = new Set<(event: WireEvent) => void>();
  private client: BizDataClient | undefined;
  private sharing: WindowSharing | undefined;
  private clientSubscription: { dispose(): void } | undefined;
  private lastUsed: InterfaceId | undefined;
  private sandboxCredentials: SandboxProfile['credentials'] | undefined;
  private readonly bound: BoundCredentials;
  private disposed = false;
  /** What a call asks of this connection on its way (guardedCall.ts). */
  private readonly gate: CallGate = {
    mayGo: (id) => (this.sandboxCredentials ? Promise.resolve(undefined) : this.bound.mayGo(id, this.settings().endpoints)),
    readiness: (id) => this.readiness(id),
    confirmRisk: async (id) => confirmRiskyAttempt(id, await this.status(id)),
    using: (id) => (this.lastUsed = id),
  };

  constructor(
    readonly name: string,
    private definition: NamedConnection,
    private readonly deps: ConnectionDeps,
    sandbox?: SandboxProfile,
  ) {
    this.sandboxCredentials = sandbox?.credentials;
    this.bound = new BoundCredentials(deps.credentialStore, name, deps.log);
    this.disposables.push(
      this.changed,
      deps.credentialStore.onDidChange((e) => {
        if (e.connection !== name) return;
        this.fireChanged();
        // Signed in from another window: the client is ready before the first call here.
        void this.prepareClient();
      }),
      deps.credentialStore.onDidChangeTokens(() => this.fireChanged()),
    );
    void this.prepareClient();
  }

  /** The local sandbox's connection, with its demo credentials in memory. */
  get isSandbox(): boolean {
    return this.sandboxCredentials !== undefined;
  }

  /** Marked `"production": true`: a batch asks first, the status bar warns. */
  get production(): boolean {
    return this.definition.production;
  }

  /** New settings (the setting changed): the client is rebuilt when they differ. */
  update(definition: NamedConnection): void {
    const same = JSON.stringify(definition) === JSON.stringify(this.definition);
    this.definition = definition;
    if (!same) this.resetClient();
  }

  settings(): ConnectionSettings {
    return this.definition.settings;
  }

  /** Hears every call and wait of this connection's client (a run's report) until disposed; changes nothing the client does. */
  tapWire(listener: (event: WireEvent) => void): vscode.Disposable {
    this.wireTaps.add(listener);
    return new vscode.Disposable(() => this.wireTaps.delete(listener));
  }

  /**
   * Builds the client and what it shares (the state folder, Redis) now, when the connection has an
   * account to call with, so the first call does not wait for them. Activation stays cheap: connections
   * come with the workbench (workbench.ts), never with extension.ts.
   */
  private async prepareClient(): Promise<void> {
    const signedIn = (await this.signedInInterfaces()).length > 0;
    if (!signedIn || this.client || this.disposed) return;
    try {
      this.getClient();
    } catch (err) {
      // Settings to fix (a CA file, a proxy URL): the first call says so to the user, with what to do.
      this.deps.log.warn(`connection ${this.name}: ${errorMessage(err)}`);
    }
  }

  /** The client for the current settings (built by now when signed in; built here otherwise). */
  getClient(): BizDataClient {
    if (this.client) return this.client;
    const endpoints = this.settings().endpoints;
    const { client, sharing } = buildClient({
      name: this.name,
      definition: this.definition,
      sandbox: this.isSandbox,
      deps: this.deps,
      // Only credentials entered for the current sign-in address: guarded() asks before moving them.
      credentials: async (id) => (this.sandboxCredentials ? this.sandboxCredentials[id] : this.bound.here(id, endpoints)),
      activeCredentials: async () => this.credentials(await this.activeInterface()),
      observe: (event) => {
        for (const tap of this.wireTaps) tap(event);
      },
    });
    this.client = client;
    this.sharing = sharing;
    this.clientSubscription = client.onDidChangeStatus(() => this.fireChanged());
    return client;
  }

  /** The secrets this connection's client knows (its credentials, its tokens): none before it is built. */
  get secrets(): RunSecrets {
    return this.client ?? NO_SECRETS;
  }

  async credentials(id: InterfaceId): Promise<Credentials | undefined> {
    if (this.sandboxCredentials) return this.sandboxCredentials[id];
    return (await this.deps.credentialStore.get(this.name, id))?.credentials;
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
    if (this.sandboxCredentials) throw new UserError('The local sandbox signs in with its demo credentials: switch to one of your connections to sign in with yours.');
    // forget() finds the token by the stored credentials, so it runs before and after the switch.
    if (await this.isSignedIn(id)) await this.forgetTokens(id);
    await this.deps.credentialStore.set(this.name, credentials, signInOrigin(this.settings().endpoints, id));
    await this.forgetTokens(id);
    this.lastUsed = id;
    this.fireChanged();
  }

  /** Forgets the interface's credentials and its tokens. */
  async signOut(id: InterfaceId): Promise<void> {
    // Tokens first: they are located through the credentials about to be deleted.
    if (await this.isSignedIn(id)) await this.forgetTokens(id);
    if (this.sandboxCredentials) {
      const credentials = { ...this.sandboxCredentials };
      delete credentials[id];
      this.sandboxCredentials = credentials;
    } else {
      await this.deps.credentialStore.delete(this.name, id);
    }
    this.fireChanged();
  }

  /**
   * Drops the interface's tokens: the client's (at the current address) and those kept for the
   * address the stored credentials were entered for, where the client no longer looks.
   */
  private async forgetTokens(id: InterfaceId): Promise<void> {
    const client = this.getClient();
    await client.forget(id);
    const stored = this.sandboxCredentials ? undefined : await this.deps.credentialStore.get(this.name, id);
    if (stored?.origin !== undefined) await this.sharing?.tokenStore.delete(tokenOwnerAt(stored.origin, stored.credentials));
  }

  /** Forgets every credential and token of this connection: it was deleted, and a later one of the same name starts signed out. */
  async forgetAll(): Promise<void> {
    for (const id of INTERFACE_IDS) await this.signOut(id);
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

  /**
   * Asks readiness once, before a host shows progress: why `id` cannot be called (the host offers the
   * fix, readinessOffer.ts), or the call to make, which does not ask again (one for another interface does).
   */
  async whenReady(id: InterfaceId): Promise<{ readonly ok: true; readonly call: ReadyCall } | { readonly ok: false; readonly notReady: NotReady }> {
    const notReady = await this.readiness(id);
    if (notReady) return { ok: false, notReady };
    const call: ReadyCall = {
      lookup: (query, o = {}) => guardedCall(this.gate, interfaceOf(query), (x) => this.getClient().lookup(query, x), o, interfaceOf(query) === id),
      send: (request, o = {}) => guardedCall(this.gate, request.interfaceId, (x) => this.getClient().send(request, x), o, request.interfaceId === id),
    };
    return { ok: true, call };
  }

  refreshToken(id: InterfaceId, options: CallOptions = {}): Promise<CallResult> {
    return this.guarded(id, (o) => this.getClient().refreshToken(id, o), { forceNewToken: true, ...options });
  }

  /** Calls `run` under the connection's guard (guardedCall.ts). Batch and quick fixes use this too. */
  guarded(id: InterfaceId, run: (o: CallOptions) => Promise<CallResult>, options: CallOptions = {}): Promise<CallResult> {
    return guardedCall(this.gate, id, run, options);
  }

  /** Why `id` cannot be called now (not signed in, no address), or undefined when it can. */
  async readiness(id: InterfaceId): Promise<NotReady | undefined> {
    const reason = readiness(id, await this.isSignedIn(id), this.settings().endpoints);
    // An address missing from a connection of bizdata.connections is set there, not in the old settings.
    if (reason?.kind === 'missingSetting' && this.definition.from === 'setting') return { ...reason, setting: 'bizdata.connections', connection: this.name };
    return reason;
  }

  /** Tells listeners to re-render. */
  fireChanged(): void {
    this.changed.fire();
  }

  /** Drops the client (and what it shares) and builds one from the current settings. */
  resetClient(): void {
    this.clientSubscription?.dispose();
    this.clientSubscription = undefined;
    this.closeClient();
    this.fireChanged();
    void this.prepareClient();
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
    this.disposed = true;
    this.clientSubscription?.dispose();
    this.closeClient();
    for (const d of this.disposables) d.dispose();
  }
}
