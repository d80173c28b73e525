// Storage adapters for the core client. Secrets (credentials, tokens) live only in SecretStorage:
// credentials one key per connection and interface, with the sign-in origin they were entered for
// (connection.ts asks before they go to another); tokens one key per account and exact origin
// (connections to one account at one origin share its token). The lockout guard's counts live in the state directory the command line
// shares (sharing.ts); earlier versions kept them in globalState, and migrateGuardCounts moves them.
import * as vscode from 'vscode';
import type { Credentials, InterfaceId, StoredToken } from '../../core/model';
import type { TokenOwner, TokenStore } from '../../core/ports';
import type { FileGuardStore } from '../../core/storage/fileStores';
import { INTERFACE_IDS } from '../shared/interfaces';

const TOKEN_PREFIX = 'bizdata.token.';
const GUARD_STATE_KEY = 'bizdata.guard.failures';
/** Where versions before named connections kept the one set of credentials: now the connection `default`'s. */
const LEGACY_CREDENTIAL_KEYS: Readonly<Record<InterfaceId, string>> = { a: 'bizdata.credentials.a', b: 'bizdata.credentials.b' };
const CREDENTIAL_PREFIX = 'bizdata.credentials/';

/**
 * The SecretStorage key of a connection's credentials for one interface. A name holds no `/`
 * (CONNECTION_NAME), so no two (connection, interface) pairs share a key.
 */
export function credentialKey(connection: string, id: InterfaceId): string {
  return `${CREDENTIAL_PREFIX}${connection}/${id}`;
}

function fromCredentialKey(key: string): { readonly connection: string; readonly id: InterfaceId } | undefined {
  const match = /^bizdata\.credentials\/([^/]+)\/([ab])$/.exec(key);
  return match ? { connection: match[1], id: match[2] as InterfaceId } : undefined;
}

/** Credentials in SecretStorage, per connection and interface; other windows' changes arrive through secrets.onDidChange. */
export class CredentialStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<{ readonly connection: string; readonly id: InterfaceId }>();
  readonly onDidChange = this.changed.event;
  private readonly tokensChanged = new vscode.EventEmitter<void>();
  /** A token was written or deleted, possibly by another window. */
  readonly onDidChangeTokens = this.tokensChanged.event;
  private readonly cache = new Map<string, Promise<StoredCredentials | undefined>>();
  private readonly subscription: vscode.Disposable;
  private migrated: Promise<void> | undefined;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(TOKEN_PREFIX)) {
        this.tokensChanged.fire();
        return;
      }
      const at = fromCredentialKey(e.key);
      if (at === undefined) return;
      this.cache.delete(e.key);
      this.changed.fire(at);
    });
  }

  /**
   * Moves the credentials an earlier version kept (one set, no connection) to the connection
   * `default`, at the first start (a later run finds nothing to move); credentials already stored for `default`
   * are kept. Every read waits for it.
   */
  migrate(into: string): Promise<void> {
    this.migrated = (this.migrated ?? Promise.resolve()).then(async () => {
      for (const id of INTERFACE_IDS) {
        const old = await this.secrets.get(LEGACY_CREDENTIAL_KEYS[id]);
        if (old === undefined) continue;
        if ((await this.secrets.get(credentialKey(into, id))) === undefined) await this.secrets.store(credentialKey(into, id), old);
        await this.secrets.delete(LEGACY_CREDENTIAL_KEYS[id]);
        this.cache.delete(credentialKey(into, id));
      }
    }).catch(() => undefined);
    return this.migrated;
  }

  /** The credentials and the sign-in origin they were entered for (undefined: stored by an earlier version). */
  get(connection: string, id: InterfaceId): Promise<StoredCredentials | undefined> {
    const key = credentialKey(connection, id);
    let pending = this.cache.get(key);
    if (!pending) {
      pending = (this.migrated ?? Promise.resolve()).then(() => this.secrets.get(key)).then((raw) => parseCredentials(id, raw), () => undefined);
      this.cache.set(key, pending);
    }
    return pending;
  }

  /** Stores the credentials with the origin they are entered for: their sign-in address's. */
  async set(connection: string, credentials: Credentials, origin: string | undefined): Promise<void> {
    const key = credentialKey(connection, credentials.interfaceId);
    this.cache.set(key, Promise.resolve({ credentials, origin }));
    await this.secrets.store(key, JSON.stringify({ ...credentials, ...(origin !== undefined ? { origin } : {}) }));
  }

  async delete(connection: string, id: InterfaceId): Promise<void> {
    const key = credentialKey(connection, id);
    this.cache.set(key, Promise.resolve(undefined));
    await this.secrets.delete(key);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.tokensChanged.dispose();
  }
}

/** A connection's credentials for one interface and the sign-in origin they were entered for. */
export interface StoredCredentials {
  readonly credentials: Credentials;
  /** scheme://host[:port] of the sign-in address when they were entered; undefined when an earlier version stored them. */
  readonly origin: string | undefined;
}

function parseCredentials(id: InterfaceId, raw: string | undefined): StoredCredentials | undefined {
  if (raw === undefined) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<Record<string, unknown>>;
    const origin = typeof v.origin === 'string' ? v.origin : undefined;
    if (id === 'a' && typeof v.consumerKey === 'string' && typeof v.consumerSecret === 'string') {
      return { credentials: { interfaceId: 'a', consumerKey: v.consumerKey, consumerSecret: v.consumerSecret }, origin };
    }
    if (id === 'b' && typeof v.user === 'string' && typeof v.password === 'string') {
      return { credentials: { interfaceId: 'b', user: v.user, password: v.password }, origin };
    }
  } catch {
    // A damaged entry counts as signed out; signing in again overwrites it.
  }
  return undefined;
}

/** Tokens in SecretStorage (the system's keychain, already encrypted), one key per client token key. */
export class SecretTokenStore implements TokenStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get({ key }: TokenOwner): Promise<StoredToken | undefined> {
    const raw = await this.secrets.get(TOKEN_PREFIX + key);
    if (raw === undefined) return undefined;
    try {
      const t = JSON.parse(raw) as Partial<StoredToken>;
      if (typeof t.value === 'string' && typeof t.issuedAt === 'number' && typeof t.expiresAt === 'number') {
        return { value: t.value, issuedAt: t.issuedAt, expiresAt: t.expiresAt };
      }
    } catch {
      // fall through: a damaged token is fetched again
    }
    return undefined;
  }

  async set({ key }: TokenOwner, t: StoredToken): Promise<void> {
    await this.secrets.store(TOKEN_PREFIX + key, JSON.stringify(t));
  }

  async delete(owner: TokenOwner, ifValue?: string): Promise<void> {
    // Only the refused token: another window may have stored its replacement meanwhile.
    if (ifValue !== undefined && (await this.get(owner))?.value !== ifValue) return;
    await this.secrets.delete(TOKEN_PREFIX + owner.key);
  }
}

/**
 * Moves the lockout guard's counts that earlier versions kept in globalState into the shared state
 * directory, once: the larger count wins for each account, then the old record is removed. A failure
 * to move them leaves them where they are for the next try, and never loses a count.
 */
export async function migrateGuardCounts(state: vscode.Memento, into: FileGuardStore): Promise<void> {
  const old = state.get<Record<string, number>>(GUARD_STATE_KEY);
  if (old === undefined) return;
  try {
    await into.merge(old);
    await state.update(GUARD_STATE_KEY, undefined);
  } catch {
    // Kept in globalState; the next window or restart tries again.
  }
}
