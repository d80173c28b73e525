// The issued tokens of one sandbox, kept as SHA-256 digests. Bounded: a key or user holds at most
// MAX_TOKENS_PER_PRINCIPAL tokens (a new one beyond that replaces the oldest), and an expired token
// is forgotten EXPIRED_KEPT_MS after its expiry, so any number of token requests uses bounded
// memory and state.
import { BoundedCache } from './cache';
import { newToken, tokenDigest } from './secrets';

export const MAX_TOKENS_PER_PRINCIPAL = 100;
/** How long an expired token still answers "expired" (A: 00040) rather than "unknown". */
export const EXPIRED_KEPT_MS = 24 * 3600 * 1000;

export interface TokenRecord {
  readonly kind: 'a' | 'b';
  readonly customerId: string;
  /** Consumer key (A) or user name (B). */
  readonly principal: string;
  /** Virtual epoch milliseconds. */
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export type TokenLookup = TokenRecord | 'unknown' | 'expired' | 'wrong-interface';

export interface TokenFilter {
  readonly user?: string;
  readonly consumerKey?: string;
  readonly customer?: string;
}

export class TokenTable {
  /** By digest, in order of issue, which is the order of expiry: the clock only moves forward. */
  private readonly byDigest = new Map<string, TokenRecord>();
  /** Digests per principal, oldest first. */
  private readonly byPrincipal = new Map<string, string[]>();
  /** Presented token -> digest, so a data call with a known token skips SHA-256. In memory only. */
  private readonly digests = new BoundedCache<string, string>(10_000);

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number,
  ) {}

  get lifetimeSeconds(): number {
    return this.lifetimeMs / 1000;
  }

  /** Makes a token; returns it (the only time it exists in clear) and what is kept of it. */
  issue(kind: 'a' | 'b', customerId: string, principal: string): { token: string; digest: string; record: TokenRecord } {
    this.prune();
    const token = newToken();
    const issuedAt = this.now();
    const record: TokenRecord = { kind, customerId, principal, issuedAt, expiresAt: issuedAt + this.lifetimeMs };
    const digest = tokenDigest(token);
    this.add(digest, record);
    return { token, digest, record };
  }

  /** Adds a record (issue, or a restore from the state file), keeping the per-principal bound. */
  add(digest: string, record: TokenRecord): void {
    this.byDigest.set(digest, record);
    const key = `${record.kind}:${record.principal}`;
    const list = this.byPrincipal.get(key) ?? [];
    list.push(digest);
    this.byPrincipal.set(key, list);
    while (list.length > MAX_TOKENS_PER_PRINCIPAL) this.byDigest.delete(list.shift() ?? '');
  }

  /** Looks a presented token up by its digest; the hot path of every data call. */
  check(token: string, kind: 'a' | 'b'): TokenLookup {
    const digest = this.digests.get(token) ?? this.digests.set(token, tokenDigest(token));
    const record = this.byDigest.get(digest);
    if (record === undefined) return 'unknown';
    if (record.kind !== kind) return 'wrong-interface';
    const now = this.now();
    if (now < record.expiresAt) return record;
    return now - record.expiresAt < EXPIRED_KEPT_MS ? 'expired' : 'unknown';
  }

  /** The customer of a presented token that is kept, whatever its state (for statistics). */
  customerOf(token: string): string | undefined {
    return this.byDigest.get(this.digests.get(token) ?? tokenDigest(token))?.customerId;
  }

  /** Drops the matching tokens (release update, disaster recovery, contract expiration); returns their digests. */
  invalidate(filter: TokenFilter): string[] {
    const dropped: string[] = [];
    for (const [digest, t] of this.byDigest) {
      const match = filter.user !== undefined ? t.kind === 'b' && t.principal === filter.user
        : filter.consumerKey !== undefined ? t.kind === 'a' && t.principal === filter.consumerKey
          : filter.customer !== undefined ? t.customerId === filter.customer
            : t.kind === 'b';
      if (match) dropped.push(digest);
    }
    this.drop(dropped);
    return dropped;
  }

  drop(digests: readonly string[]): void {
    for (const digest of digests) {
      const record = this.byDigest.get(digest);
      if (record === undefined) continue;
      this.byDigest.delete(digest);
      const key = `${record.kind}:${record.principal}`;
      const list = (this.byPrincipal.get(key) ?? []).filter((d) => d !== digest);
      if (list.length === 0) this.byPrincipal.delete(key);
      else this.byPrincipal.set(key, list);
    }
  }

  /** Forgets tokens expired longer than EXPIRED_KEPT_MS ago: the oldest come first, so this stops early. */
  prune(): void {
    const horizon = this.now() - EXPIRED_KEPT_MS;
    for (const [digest, t] of this.byDigest) {
      if (t.expiresAt > horizon) break;
      this.byDigest.delete(digest);
      const key = `${t.kind}:${t.principal}`;
      const list = this.byPrincipal.get(key) ?? [];
      const at = list.indexOf(digest);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.byPrincipal.delete(key);
    }
  }

  /** Every kept token, oldest first, for the state file. */
  entries(): IterableIterator<[string, TokenRecord]> {
    this.prune();
    return this.byDigest.entries();
  }

  get size(): number {
    return this.byDigest.size;
  }
}
