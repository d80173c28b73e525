// The consumer keys as the state file names them: a consumer key is as sensitive as a password (spec
// 1), so the file holds only its scrypt hash. One salt per state file (kept in its snapshot) makes the
// hash of a key the same on every write, so a restored token finds its key again by a lookup.
import { randomBytes } from 'node:crypto';
import { hashWithSalt, isSecretHash } from './secrets';

const SALT_BYTES = 16;

export class KeyHashes {
  private constructor(
    /** base64url, for the snapshot. */
    readonly salt: string,
    private readonly byKey: ReadonlyMap<string, string>,
    private readonly byHash: ReadonlyMap<string, string>,
  ) {}

  /** Hashes every configured key once, at start, with the state file's salt (a new one for a new file). */
  static async create(keys: readonly string[], savedSalt: unknown): Promise<KeyHashes> {
    const kept = typeof savedSalt === 'string' ? Buffer.from(savedSalt, 'base64url') : undefined;
    const salt = kept?.length === SALT_BYTES ? kept : randomBytes(SALT_BYTES);
    const hashes = await Promise.all(keys.map(async (k) => [k, await hashWithSalt(k, salt)] as const));
    return new KeyHashes(salt.toString('base64url'), new Map(hashes), new Map(hashes.map(([k, h]) => [h, k])));
  }

  /** What the file names a key by; undefined for a key not configured (nothing is written for it). */
  hashOf(key: string): string | undefined {
    return this.byKey.get(key);
  }

  /** The key a saved name stands for: a hash is looked up, a key in clear (files written before hashing) taken as is. */
  keyOf(saved: string): string | undefined {
    return isSecretHash(saved) ? this.byHash.get(saved) : saved;
  }
}
