// Storage adapters for the core client. Secrets (credentials, tokens) live only in SecretStorage,
// one key per interface. The lockout guard's counts live in the state directory the command line
// shares (sharing.ts); earlier versions kept them in globalState, and migrateGuardCounts moves them.
import * as vscode from 'vscode';
import type { Credentials, InterfaceId, StoredToken } from '../../core/model';
import type { TokenOwner, TokenStore } from '../../core/ports';
import type { FileGuardStore } from '../../core/storage/fileStores';
import { INTERFACE_IDS } from '../shared/interfaces';

const CREDENTIAL_KEYS: Readonly<Record<InterfaceId, string>> = { a: 'bizdata.credentials.a', b: 'bizdata.credentials.b' };
const TOKEN_PREFIX = 'bizdata.token.';
const GUARD_STATE_KEY = 'bizdata.guard.failures';

/** Credentials in SecretStorage; other windows' changes arrive through secrets.onDidChange. */
export class CredentialStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<InterfaceId>();
  readonly onDidChange = this.changed.event;
  private readonly tokensChanged = new vscode.EventEmitter<void>();
  /** A token was written or deleted, possibly by another window. */
  readonly onDidChangeTokens = this.tokensChanged.event;
  private readonly cache = new Map<InterfaceId, Promise<Credentials | undefined>>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(TOKEN_PREFIX)) {
        this.tokensChanged.fire();
        return;
      }
      const id = INTERFACE_IDS.find((i) => CREDENTIAL_KEYS[i] === e.key);
      if (id === undefined) return;
      this.cache.delete(id);
      this.changed.fire(id);
    });
  }

  get(id: InterfaceId): Promise<Credentials | undefined> {
    let pending = this.cache.get(id);
    if (!pending) {
      pending = Promise.resolve(this.secrets.get(CREDENTIAL_KEYS[id])).then((raw) => parseCredentials(id, raw), () => undefined);
      this.cache.set(id, pending);
    }
    return pending;
  }

  async set(credentials: Credentials): Promise<void> {
    this.cache.set(credentials.interfaceId, Promise.resolve(credentials));
    await this.secrets.store(CREDENTIAL_KEYS[credentials.interfaceId], JSON.stringify(credentials));
  }

  async delete(id: InterfaceId): Promise<void> {
    this.cache.set(id, Promise.resolve(undefined));
    await this.secrets.delete(CREDENTIAL_KEYS[id]);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.tokensChanged.dispose();
  }
}

function parseCredentials(id: InterfaceId, raw: string | undefined): Credentials | undefined {
  if (raw === undefined) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<Record<string, unknown>>;
    if (id === 'a' && typeof v.consumerKey === 'string' && typeof v.consumerSecret === 'string') {
      return { interfaceId: 'a', consumerKey: v.consumerKey, consumerSecret: v.consumerSecret };
    }
    if (id === 'b' && typeof v.user === 'string' && typeof v.password === 'string') {
      return { interfaceId: 'b', user: v.user, password: v.password };
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
