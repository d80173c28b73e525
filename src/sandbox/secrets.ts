// Hashing of passwords, consumer keys and secrets, and tokens. Passwords, keys and secrets are kept
// only as scrypt hashes; tokens (random, high entropy) only as SHA-256 digests, so the state file
// holds no secret.
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { FifoQueue } from './queues';

/** The scrypt cost (N) of every hash unless a sandbox is started with another (SandboxOptions.hashCost). */
export const HASH_COST = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url; a new random salt each time. `cost`: scrypt's N. */
export function hashSecret(secret: string, cost = HASH_COST): Promise<string> {
  return hashWithSalt(secret, randomBytes(16), cost);
}

/** The same form with a given salt: equal secrets give equal hashes, so a hash can be looked up. */
export async function hashWithSalt(secret: string, salt: Buffer, cost = HASH_COST): Promise<string> {
  const key = await derive(secret, salt, cost, R, P);
  return `scrypt$${cost}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Constant-time comparison of a presented secret with a stored scrypt hash. */
export async function verifySecret(secret: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  const key = await derive(secret, Buffer.from(parts[4] ?? '', 'base64url'), n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export function isSecretHash(value: unknown): value is string {
  return typeof value === 'string' && /^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/.test(value);
}

/** A new bearer/raw token: 32 random bytes. */
export function newToken(): string {
  return `sbx.${randomBytes(32).toString('base64url')}`;
}

/** What the sandbox stores and looks up instead of the token itself. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Checks presented secrets against scrypt hashes. Every scrypt runs in `queue` (a few at a time, in
 * order), so a flood of sign-ins cannot take the whole thread pool and CPU from data calls.
 * Per principal, a keyed digest of the last secret that passed is remembered, so repeated
 * authentication with the same credentials does not pay for scrypt again. The key is random per
 * server instance and nothing here is persisted.
 */
export class SecretChecker {
  private readonly key = randomBytes(32);
  private readonly byPrincipal = new Map<string, Buffer>();

  constructor(
    private readonly queue: FifoQueue,
    /** scrypt's N for the hashes it makes (a check uses the N its hash names). */
    readonly cost = HASH_COST,
  ) {}

  private mac(secret: string): Buffer {
    return createHmac('sha256', this.key).update(secret).digest();
  }

  async verify(principal: string, secret: string, encoded: string): Promise<boolean> {
    const mac = this.mac(secret);
    const known = this.byPrincipal.get(principal);
    if (known !== undefined && timingSafeEqual(known, mac)) return true;
    const ok = await this.queue.run(() => verifySecret(secret, encoded));
    if (ok) this.byPrincipal.set(principal, mac);
    return ok;
  }

  /** Runs scrypt on a secret that can never match, so an unknown name costs what a known one does. */
  async spend(secret: string, dummyHash: string): Promise<void> {
    await this.queue.run(() => verifySecret(secret, dummyHash));
  }

  hash(secret: string): Promise<string> {
    return this.queue.run(() => hashSecret(secret, this.cost));
  }

  forget(principal: string): void {
    this.byPrincipal.delete(principal);
  }
}

/** Equal-time comparison of two strings of any length (used for the admin key). */
export function sameText(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
