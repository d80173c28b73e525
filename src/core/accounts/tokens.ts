// The token of each account: reused for its whole life, refreshed a little before it expires, and
// obtained by one sign-in that every concurrent caller shares — inside this process (single flight)
// and, through the account lock, across every process that shares the stores.
import { errorMessage } from '../errors';
import type { Exchange, ExchangeFailure } from '../exchange/exchange';
import { failure, isCredentialFailure, isSuccess, responseFailure } from '../exchange/failures';
import type { LockoutGuard } from './guard';
import type { WireResponse } from '../http/http';
import type { CallFailure, Endpoints, RequestRecord, StoredToken } from '../model';
import type { AccountLocks, TokenStore } from '../ports';
import { authRequestB, newTransactionDetail, readTokenA, readTokenB, tokenRequestA, type Built, type TokenRead } from '../protocol/protocol';
import { basicCredential, type SecretRegistry } from '../redact';
import type { Session } from './session';
import type { StatusTracker } from '../statusTracker';

export type TokenOutcome =
  | { readonly ok: true; readonly token: StoredToken; readonly request?: RequestRecord }
  | { readonly ok: false; readonly failure: CallFailure };

export interface TokenRequestOptions {
  /** Get a new token even when the stored one is good. */
  readonly force?: boolean;
  /** The token the service just refused: a stored token equal to it is not reused. */
  readonly replacing?: string;
  readonly confirmRisk?: boolean;
  readonly signal?: AbortSignal;
}

export interface TokenCacheOptions {
  readonly store: TokenStore;
  readonly locks: AccountLocks;
  readonly guard: LockoutGuard;
  readonly exchange: Exchange;
  readonly tracker: StatusTracker;
  readonly endpoints: Endpoints;
  readonly secrets: SecretRegistry;
  readonly now: () => number;
  /** Refresh this long before expiry (at most 10 % of a token's life). */
  readonly marginMs: number;
  readonly log: (line: string) => void;
}

export class TokenCache {
  private readonly inflight = new Map<string, Promise<TokenOutcome>>();

  constructor(private readonly o: TokenCacheOptions) {}

  /** A stored token when it is good beyond the refresh margin; otherwise one shared sign-in. */
  async get(s: Session, r: TokenRequestOptions, t0: number): Promise<TokenOutcome> {
    if (!r.force) {
      const t = await this.usable(s, r.replacing);
      if (t) return { ok: true, token: t };
    }
    const running = this.inflight.get(s.owner.key);
    if (running) return running;
    const p = this.underLock(s, r, t0).finally(() => this.inflight.delete(s.owner.key));
    this.inflight.set(s.owner.key, p);
    return p;
  }

  /** Drops a token the service refused, unless another caller already replaced it; `text`: the refusal's, as responseFailure chose it. */
  async markInvalid(s: Session, value: string, code: string | undefined, text?: string): Promise<void> {
    const owner = s.owner;
    const stored = await this.o.store.get(owner);
    if (stored !== undefined && stored.value !== value) return;
    // Only that token: in a shared store another process may have replaced it since the read.
    if (stored) await this.o.store.delete(owner, value);
    this.o.tracker.set(s.id, { state: 'invalid', issuedAt: undefined, expiresAt: undefined, lastError: { code, text: text ?? (code !== undefined ? this.o.exchange.codes.describe(code)?.text : undefined) ?? 'The token was refused.' } });
  }

  private async usable(s: Session, replacing: string | undefined): Promise<StoredToken | undefined> {
    const t = await this.o.store.get(s.owner);
    const margin = t ? Math.min(this.o.marginMs, (t.expiresAt - t.issuedAt) / 10) : 0;
    return t && t.value !== replacing && this.o.now() < t.expiresAt - margin ? t : undefined;
  }

  private async underLock(s: Session, r: TokenRequestOptions, t0: number): Promise<TokenOutcome> {
    try {
      return await this.o.locks.withLock(
        s.key,
        async () => {
          if (!r.force) {
            // Another process may have signed in while this one waited for the lock.
            const t = await this.usable(s, r.replacing);
            if (t) {
              this.o.tracker.set(s.id, { state: 'valid', issuedAt: t.issuedAt, expiresAt: t.expiresAt, lastError: undefined });
              return { ok: true, token: t };
            }
          }
          return this.authenticate(s, r, t0);
        },
        r.signal,
      );
    } catch (err) {
      if (r.signal?.aborted) return { ok: false, failure: failure(t0, 'cancelled', 'The call was cancelled.', 'Run it again when needed.') };
      throw err instanceof Error ? err : new Error(errorMessage(err));
    }
  }

  private async authenticate(s: Session, r: TokenRequestOptions, t0: number): Promise<TokenOutcome> {
    const verdict = await this.o.guard.begin(s, r.confirmRisk === true);
    this.o.tracker.assign(s.id, { credentialFailures: verdict.failures });
    if (!verdict.ok) {
      const f = failure(t0, verdict.kind, verdict.text, verdict.advice);
      if (verdict.kind === 'guard') this.o.tracker.set(s.id, { state: 'locked', lastError: { text: f.text } });
      return { ok: false, failure: f };
    }
    this.o.tracker.set(s.id, { state: 'refreshing' });
    const { built, readToken } = this.signInRequest(s);
    const ex = await this.o.exchange.run(built, r.signal, t0, { signIn: true });
    if (!('res' in ex)) {
      // An answer lost after the request left may have been a refusal the service counted.
      await this.settle(s, ex.mayHaveReached ? 'failed' : 'uncounted', verdict.failures);
      this.o.tracker.set(s.id, { state: 'failed', lastError: { code: ex.code, text: ex.text } });
      return { ok: false, failure: withoutReach(ex) };
    }
    const { res, service } = ex;
    if (isSuccess(res, service)) {
      const read = readToken(res);
      if (!read.ok) {
        await this.settle(s, 'uncounted', verdict.failures);
        const f = failure(t0, 'api', read.text, 'Try again later; if it persists, report it to the service operator.', built.record, res.status);
        this.o.tracker.set(s.id, { state: 'failed', lastError: { text: read.text } });
        return { ok: false, failure: f };
      }
      this.o.secrets.add(read.value);
      if (read.note) this.o.log(`${s.id}: ${read.note}`);
      const issuedAt = this.o.now();
      const token: StoredToken = { value: read.value, issuedAt, expiresAt: issuedAt + read.expiresInMs };
      await this.o.store.set(s.owner, token);
      await this.settle(s, 'accepted', verdict.failures);
      this.o.log(`${s.id}: new token for ${s.account}, valid until ${new Date(token.expiresAt).toISOString()}`);
      this.o.tracker.set(s.id, { state: 'valid', issuedAt, expiresAt: token.expiresAt, lastError: undefined });
      return { ok: true, token, request: built.record };
    }
    const f = responseFailure(res, service, built.record, t0, (text) => this.o.secrets.redact(text), ex.comeBackAt);
    if (isCredentialFailure(res.status, service)) {
      // Never retried: each attempt counts toward the lockout, so the count is kept and shown.
      const count = await this.settle(s, 'failed', verdict.failures, true);
      const state = this.o.guard.holds(s, count) ? 'locked' : 'failed';
      this.o.tracker.set(s.id, { state, lastError: { code: f.code, text: f.text } });
      return { ok: false, failure: { ...f, kind: 'auth', advice: this.o.guard.refusalAdvice(s, count) } };
    }
    await this.settle(s, 'uncounted', verdict.failures);
    this.o.tracker.set(s.id, { state: 'failed', lastError: { code: f.code, text: f.text } });
    return { ok: false, failure: f };
  }

  private async settle(s: Session, outcome: 'accepted' | 'failed' | 'uncounted', before: number, credentialsRefused = false): Promise<number> {
    const count = await this.o.guard.end(s, outcome, before, credentialsRefused);
    this.o.tracker.assign(s.id, { credentialFailures: count });
    return count;
  }

  private signInRequest(s: Session): { built: Built; readToken: (res: WireResponse) => TokenRead } {
    const c = s.credentials;
    if (c.interfaceId === 'a') {
      this.o.secrets.add(basicCredential(c.consumerKey, c.consumerSecret));
      return { built: tokenRequestA(this.o.endpoints, c), readToken: readTokenA };
    }
    // A fresh TransactionDetail per attempt; the answer must echo this one.
    const txn = newTransactionDetail();
    return { built: authRequestB(this.o.endpoints, c, txn), readToken: (res) => readTokenB(res, txn) };
  }
}

/** The failure as callers see it: whether the request reached the service is the guard's business. */
export function withoutReach(f: ExchangeFailure): CallFailure {
  const { kind, code, status, text, advice, body, durationMs, request } = f;
  return { ok: false, kind, code, status, text, advice, body, durationMs, request, ...(f.unreachable ? { unreachable: true } : {}) };
}
