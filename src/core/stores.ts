// In-memory stores for hosts that keep nothing across runs (tests, one-shot command lines).
// The extension supplies SecretStorage/globalState-backed ones with the same shape.
import type { GuardStore, TokenStore } from './client';
import type { StoredToken } from './model';

export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredToken>();
  async get(key: string): Promise<StoredToken | undefined> {
    return this.tokens.get(key);
  }
  async set(key: string, t: StoredToken): Promise<void> {
    this.tokens.set(key, t);
  }
  async delete(key: string): Promise<void> {
    this.tokens.delete(key);
  }
}

export class MemoryGuardStore implements GuardStore {
  private readonly failures = new Map<string, number>();
  get(account: string): number {
    return this.failures.get(account) ?? 0;
  }
  async set(account: string, failures: number): Promise<void> {
    if (failures <= 0) this.failures.delete(account);
    else this.failures.set(account, failures);
  }
}
