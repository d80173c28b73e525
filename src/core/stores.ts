// In-memory stores for hosts that keep nothing across runs (tests, one-shot command lines).
// The extension supplies SecretStorage/globalState-backed ones with the same shape.
import { createHash } from 'node:crypto';
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

/** Where a host keeps the guard's counts: one small record it can read at once and replace. */
export interface GuardRecordIo {
  read(): Readonly<Record<string, number>>;
  write(counts: Readonly<Record<string, number>>): Promise<void>;
}

/**
 * Guard counts a host persists (the extension in globalState, the CLI in a file) so that they
 * survive a restart. Keys are a hash of the account: no account name is ever written.
 */
export class PersistedGuardStore implements GuardStore {
  constructor(private readonly io: GuardRecordIo) {}

  get(account: string): number {
    return this.io.read()[guardKey(account)] ?? 0;
  }

  async set(account: string, failures: number): Promise<void> {
    const next = { ...this.io.read() };
    if (failures <= 0) delete next[guardKey(account)];
    else next[guardKey(account)] = failures;
    await this.io.write(next);
  }
}

function guardKey(account: string): string {
  return createHash('sha256').update(account).digest('hex').slice(0, 32);
}
