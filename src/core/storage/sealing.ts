// Tokens at rest, sealed: a store outside SecretStorage (Redis, the kept-token file) holds only an
// encrypted token. The key is derived (HKDF-SHA256) from the account's own secret, which every
// process that may use the token has anyway; the account key is authenticated with it, so a value
// cannot be moved to another account. A reader of the store without the secret learns nothing usable.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { StoredToken } from '../model';
import type { TokenOwner, TokenStore } from '../ports';

/** The format's version, the first byte of every sealed value: a later format can be told apart. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Fixed per application (RFC 5869 allows it); the account key goes into `info`, so each account has its own key. */
const SALT = 'bizdata token sealing';

function keyOf(owner: TokenOwner): Buffer {
  return Buffer.from(hkdfSync('sha256', owner.secret, SALT, `v${VERSION}|${owner.key}`, 32));
}

function associated(owner: TokenOwner): Buffer {
  return Buffer.concat([Buffer.of(VERSION), Buffer.from(owner.key, 'utf8')]);
}

/** The token as one opaque string: version, random IV, AES-256-GCM ciphertext and tag, in base64url. */
export function sealToken(owner: TokenOwner, token: StoredToken): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(owner), iv);
  cipher.setAAD(associated(owner));
  const plain = JSON.stringify({ value: token.value, issuedAt: token.issuedAt, expiresAt: token.expiresAt });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.of(VERSION), iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The token sealed for `owner`, or undefined for anything else: another account's, another secret's, damaged, or not sealed at all. */
export function unsealToken(owner: TokenOwner, sealed: string): StoredToken | undefined {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 1 + IV_BYTES + TAG_BYTES || raw[0] !== VERSION) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(owner), raw.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(associated(owner));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(raw.subarray(1 + IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    const t = JSON.parse(plain) as Partial<StoredToken>;
    return typeof t.value === 'string' && typeof t.issuedAt === 'number' && typeof t.expiresAt === 'number' ? { value: t.value, issuedAt: t.issuedAt, expiresAt: t.expiresAt } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Any token store, holding sealed tokens only. The store below keeps the times in clear (it expires
 * entries by them); the value it keeps is the sealed token. A value that does not unseal counts as no
 * token and is deleted (only that value: a replacement stored meanwhile stays).
 */
export function sealTokens(store: TokenStore): TokenStore {
  const open = async (owner: TokenOwner): Promise<{ readonly sealed: string; readonly token?: StoredToken } | undefined> => {
    const kept = await store.get(owner);
    if (kept === undefined) return undefined;
    const token = unsealToken(owner, kept.value);
    // Housekeeping only: a value that stays is overwritten by the next sign-in, so a failure here is no one's error.
    if (token === undefined) await store.delete(owner, kept.value).catch(() => undefined);
    return { sealed: kept.value, token };
  };
  return {
    async get(owner) {
      return (await open(owner))?.token;
    },
    set(owner, token) {
      return store.set(owner, { value: sealToken(owner, token), issuedAt: token.issuedAt, expiresAt: token.expiresAt });
    },
    async delete(owner, ifValue) {
      if (ifValue === undefined) return store.delete(owner);
      const kept = await open(owner);
      // Compared unsealed; deleted by the sealed value, so the store's own compare-and-delete stays atomic.
      if (kept?.token?.value === ifValue) await store.delete(owner, kept.sealed);
    },
  };
}
