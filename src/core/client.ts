// The client of both interfaces: one token per interface and account reused for its whole life,
// recovery from what can be recovered (expired or invalidated token, SC006), an immediate stop on
// what cannot, and a lockout guard so that this client alone never locks an account.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeCode, isSecurityCode, SUCCESS_CODE, TOKEN_EXPIRED_A } from './codes';
import { checkServiceUrl, HttpError, HttpTransport, type HttpOptions, type WireResponse } from './http';
import { DEFAULT_LIMITS, LimiterDisposedError, RateLimiter, type Limits } from './limiter';
import type {
  CallFailure,
  CallResult,
  Credentials,
  Endpoints,
  FailureKind,
  InterfaceId,
  IpQuery,
  LimiterState,
  LookupQuery,
  OrgQuery,
  RequestRecord,
  StoredToken,
  TokenState,
  TokenStatus,
} from './model';
import {
  authRequestB,
  ipRequest,
  newTransactionDetail,
  orgRequest,
  readServiceCode,
  readTokenA,
  readTokenB,
  tokenRequestA,
  type Built,
  type ServiceCode,
  type TokenRead,
} from './protocol';
import { checkCredentials, checkLookup } from './queries';
import { basicCredential, maskAccount, redact } from './redact';

export interface TokenStore {
  get(key: string): Promise<StoredToken | undefined>;
  set(key: string, t: StoredToken): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Consecutive credential failures per account; the host persists them (the extension across restarts). */
export interface GuardStore {
  get(account: string): number;
  set(account: string, failures: number): Promise<void>;
}

export type CredentialProvider = (id: InterfaceId) => Promise<Credentials | undefined>;

export interface RetryOptions {
  /** SC006 retries per request before the failure reaches the caller. */
  readonly maxRetries?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

export interface ClientOptions {
  readonly endpoints: Endpoints;
  readonly credentials: CredentialProvider;
  readonly tokenStore: TokenStore;
  readonly guardStore: GuardStore;
  readonly limits?: Limits;
  readonly http?: HttpOptions;
  readonly refreshMarginMs?: number;
  /** Receives one line per request and token event, already redacted. */
  readonly log?: (line: string) => void;
  /** Clock for token lifetimes (epoch ms); tests move it forward. */
  readonly now?: () => number;
  /** A limiter shared with other clients of the same customer; otherwise the client makes its own from `limits`. */
  readonly limiter?: RateLimiter;
  readonly retry?: RetryOptions;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** The user accepted that one more failed sign-in may lock the account. */
  readonly confirmRisk?: boolean;
  /** Get a new token before the call instead of reusing the cached one. */
  readonly forceNewToken?: boolean;
}

/** Spec 3 / 8: the third consecutive failed authentication locks an Interface B account. */
export const LOCKOUT_AFTER_FAILURES = 3;
const DEFAULT_REFRESH_MARGIN_MS = 5 * 60 * 1000;
const CALL_NOTICE_MS = 250;
/** Codes of a data call that mean "this token is no longer good": get a new one once. */
const REAUTH_CODES = new Set([TOKEN_EXPIRED_A, 'SC001', 'invalid_token']);
/** Codes that are about the customer's limits or contract, not the credentials. */
const LIMIT_CODES = new Set(['SC004', 'SC005', 'SC006']);
const CREDENTIAL_CODES = new Set(['invalid_client', 'invalid_token', 'unauthorized_client', 'access_denied']);

type TokenOutcome =
  | { readonly ok: true; readonly token: StoredToken; readonly request?: RequestRecord }
  | { readonly ok: false; readonly failure: CallFailure };

interface Session {
  readonly id: InterfaceId;
  readonly credentials: Credentials;
  /** Token store and guard key: interface, service host and account name. */
  readonly key: string;
  readonly account: string;
}

interface Tracked {
  key?: string;
  account?: string;
  state: TokenState;
  issuedAt?: number;
  expiresAt?: number;
  lastError?: { readonly code?: string; readonly text: string };
  callsMade: number;
}

interface Exchanged {
  readonly res: WireResponse;
  readonly service: ServiceCode;
}

export class BizDataClient {
  private readonly http: HttpTransport;
  private readonly limiter: RateLimiter;
  private readonly ownsLimiter: boolean;
  private readonly now: () => number;
  private readonly margin: number;
  private readonly retry: Required<RetryOptions>;
  private readonly tracked: Record<InterfaceId, Tracked> = { a: { state: 'none', callsMade: 0 }, b: { state: 'none', callsMade: 0 } };
  private readonly inflight = new Map<string, Promise<TokenOutcome>>();
  /** Fingerprint of credentials the service refused, per account: they are not sent again unasked. */
  private readonly refused = new Map<string, string>();
  private readonly listeners = new Set<(s: TokenStatus) => void>();
  private readonly secrets = new Set<string>();
  private readonly lifetime = new AbortController();
  /** Endpoint problems per interface; endpoints are fixed for the client's life, so checked once. */
  private readonly endpointProblems = new Map<InterfaceId, string | undefined>();
  /** Sessions per credentials object: hosts usually hand out the same object every call. */
  private readonly sessions = new WeakMap<Credentials, Session>();
  /** Pending coalesced "calls made" notifications, per interface. */
  private readonly callNotices = new Map<InterfaceId, ReturnType<typeof setTimeout>>();
  private disposed = false;

  constructor(private readonly options: ClientOptions) {
    this.http = new HttpTransport(options.http);
    this.ownsLimiter = options.limiter === undefined;
    this.limiter = options.limiter ?? new RateLimiter(options.limits ?? DEFAULT_LIMITS);
    this.now = options.now ?? Date.now;
    this.margin = options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
    this.retry = { maxRetries: 8, baseDelayMs: 200, maxDelayMs: 4000, ...options.retry };
  }

  lookupIp(q: IpQuery, o?: CallOptions): Promise<CallResult> {
    return this.lookup({ kind: 'ip', ...q }, o);
  }

  lookupOrganization(q: OrgQuery, o?: CallOptions): Promise<CallResult> {
    return this.lookup({ kind: 'org', ...q }, o);
  }

  lookup(q: LookupQuery, o: CallOptions = {}): Promise<CallResult> {
    return this.settled((t0) => this.lookupOnce(q, o, t0));
  }

  private async lookupOnce(q: LookupQuery, o: CallOptions, t0: number): Promise<CallResult> {
    const id: InterfaceId = q.kind === 'ip' ? 'a' : 'b';
    const problem = checkLookup(q) ?? this.endpointProblem(id);
    if (problem) return this.fail(t0, 'input', problem, 'Correct the value and run the lookup again.');
    const session = await this.session(id, t0);
    if (!session.ok) return session.failure;

    let token = await this.token(session.session, { force: o.forceNewToken, confirmRisk: o.confirmRisk, signal: o.signal }, t0);
    if (!token.ok) return token.failure;
    let outcome = await this.dataCall(session.session, q, token.token.value, o.signal, t0);
    if (outcome.reauth) {
      // Spec 7: expired or invalidated token: get a new token once and repeat the call once.
      this.log(`${id}: token refused with ${outcome.code}; getting a new one and repeating the call once`);
      await this.markInvalid(session.session, token.token.value, outcome.code);
      token = await this.token(session.session, { replacing: token.token.value, confirmRisk: o.confirmRisk, signal: o.signal }, t0);
      if (!token.ok) return token.failure;
      outcome = await this.dataCall(session.session, q, token.token.value, o.signal, t0);
      if (outcome.reauth) {
        await this.markInvalid(session.session, token.token.value, outcome.code);
        const f = outcome.result as CallFailure;
        return {
          ...f,
          kind: 'auth',
          advice: 'A new token was obtained and the service refused it as well: contact support.',
        };
      }
    }
    return outcome.result;
  }

  /** Gets a new token now (e.g. "Sign in" / "Test connection"); the body of a success is the TokenStatus. */
  refreshToken(id: InterfaceId, o: CallOptions = {}): Promise<CallResult> {
    return this.settled((t0) => this.refreshOnce(id, o, t0));
  }

  /** Calls never reject: whatever a host's store or provider throws comes back as a CallResult. */
  private async settled(run: (t0: number) => Promise<CallResult>): Promise<CallResult> {
    const t0 = performance.now();
    try {
      return await run(t0);
    } catch (err) {
      return this.unexpected(err, t0);
    }
  }

  private async refreshOnce(id: InterfaceId, o: CallOptions, t0: number): Promise<CallResult> {
    const problem = this.endpointProblem(id);
    if (problem) return this.fail(t0, 'input', problem, 'Correct the service address in the settings.');
    const session = await this.session(id, t0);
    if (!session.ok) return session.failure;
    const token = await this.token(session.session, { force: true, confirmRisk: o.confirmRisk, signal: o.signal }, t0);
    if (!token.ok) return token.failure;
    return {
      ok: true,
      status: 200,
      body: this.statusOf(id),
      code: id === 'b' ? SUCCESS_CODE : undefined,
      durationMs: performance.now() - t0,
      request: token.request ?? { method: 'POST', url: '', headers: {} },
    };
  }

  async status(id: InterfaceId): Promise<TokenStatus> {
    const credentials = await this.options.credentials(id);
    const t = this.tracked[id];
    if (!credentials) {
      return { interfaceId: id, state: 'signed-out', credentialFailures: 0, callsMade: t.callsMade };
    }
    const s = this.makeSession(credentials);
    if (t.key !== s.key) {
      Object.assign(t, { key: s.key, account: s.account, state: 'none', issuedAt: undefined, expiresAt: undefined, lastError: undefined });
    }
    const stored = await this.options.tokenStore.get(s.key);
    if (t.state !== 'refreshing') {
      if (stored) {
        Object.assign(t, { state: this.now() < stored.expiresAt ? 'valid' : 'expired', issuedAt: stored.issuedAt, expiresAt: stored.expiresAt });
      } else if (t.state === 'valid' || t.state === 'expired') {
        Object.assign(t, { state: 'none', issuedAt: undefined, expiresAt: undefined });
      }
      // The guard's count outlives the client (the extension keeps it across restarts).
      if (!stored && this.guardRefuses(s)) t.state = 'locked';
    }
    return this.statusOf(id);
  }

  /** The token value, for hosts that show it on explicit request (`bizdata token --reveal`). */
  async revealToken(id: InterfaceId): Promise<string | undefined> {
    const credentials = await this.options.credentials(id);
    if (!credentials) return undefined;
    const t = await this.options.tokenStore.get(this.makeSession(credentials).key);
    return t && this.now() < t.expiresAt ? t.value : undefined;
  }

  limiterState(): LimiterState {
    return this.limiter.state();
  }

  /** Drops the cached token (sign out). The guard's failure count stays: the service keeps its own. */
  async forget(id: InterfaceId): Promise<void> {
    const keys = new Set<string>();
    const t = this.tracked[id];
    if (t.key) keys.add(t.key);
    const credentials = await this.options.credentials(id);
    if (credentials) keys.add(this.makeSession(credentials).key);
    for (const k of keys) await this.options.tokenStore.delete(k);
    Object.assign(t, { state: credentials ? 'none' : 'signed-out', issuedAt: undefined, expiresAt: undefined, lastError: undefined });
    this.emit(id);
  }

  /** Fires when a token state changes (fetched, refreshing, refused, locked, forgotten), and (coalesced) when calls were made. */
  onDidChangeStatus(listener: (s: TokenStatus) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The one redaction used for this client's logs and errors, with every secret it has seen. */
  redact(text: string): string {
    return redact(text, this.secrets);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.listeners.clear();
    for (const t of this.callNotices.values()) clearTimeout(t);
    this.callNotices.clear();
    this.lifetime.abort();
    if (this.ownsLimiter) this.limiter.dispose();
    // destroy, not close: disposal should not wait for a slow answer nobody will read.
    await this.http.destroy();
  }

  // ---- tokens -------------------------------------------------------------------------------

  private async session(id: InterfaceId, t0: number): Promise<{ ok: true; session: Session } | { ok: false; failure: CallFailure }> {
    let credentials: Credentials | undefined;
    try {
      credentials = await this.options.credentials(id);
    } catch (err) {
      // A host's provider may fail (prompt cancelled, storage unavailable): a result, not a throw.
      const text = this.redact(err instanceof Error ? err.message : String(err));
      return { ok: false, failure: this.fail(t0, 'input', text, 'Provide the credentials and try again.') };
    }
    if (!credentials || credentials.interfaceId !== id) {
      const what = id === 'a' ? 'consumer key and secret (Interface A)' : 'user name and password (Interface B)';
      return { ok: false, failure: this.fail(t0, 'auth', `No ${what} are set.`, 'Sign in with the credentials from the service operator\'s representative.') };
    }
    const bad = checkCredentials(credentials);
    if (bad) return { ok: false, failure: this.fail(t0, 'input', bad, 'Correct the credentials and sign in again.') };
    const session = this.makeSession(credentials);
    const t = this.tracked[id];
    if (t.key !== session.key) {
      Object.assign(t, { key: session.key, account: session.account, state: 'none', issuedAt: undefined, expiresAt: undefined, lastError: undefined });
    }
    return { ok: true, session };
  }

  private makeSession(credentials: Credentials): Session {
    const known = this.sessions.get(credentials);
    if (known) return known;
    const e = this.options.endpoints;
    const name = credentials.interfaceId === 'a' ? credentials.consumerKey : credentials.user;
    const secret = credentials.interfaceId === 'a' ? credentials.consumerSecret : credentials.password;
    this.secrets.add(secret);
    // The consumer key is as sensitive as a password (spec 1); short user names would garble logs.
    if (credentials.interfaceId === 'a' || name.length >= 4) this.secrets.add(name);
    let host: string;
    try {
      host = new URL(credentials.interfaceId === 'a' ? e.authUrl : e.legacyUrl).host;
    } catch {
      host = '?';
    }
    const session: Session = { id: credentials.interfaceId, credentials, key: `${credentials.interfaceId}|${host}|${name}`, account: maskAccount(name) };
    this.sessions.set(credentials, session);
    return session;
  }

  /** A cached token when it is good beyond the refresh margin; otherwise one shared refresh. */
  private async token(
    s: Session,
    o: { force?: boolean; replacing?: string; confirmRisk?: boolean; signal?: AbortSignal },
    t0: number,
  ): Promise<TokenOutcome> {
    if (!o.force) {
      const t = await this.options.tokenStore.get(s.key);
      if (t && t.value !== o.replacing && this.now() < t.expiresAt - this.marginFor(t)) return { ok: true, token: t };
    }
    // Single flight: concurrent callers (a batch, several windows' commands) share one authentication.
    const running = this.inflight.get(s.key);
    if (running) return running;
    const p = this.authenticate(s, o, t0).finally(() => this.inflight.delete(s.key));
    this.inflight.set(s.key, p);
    return p;
  }

  /** Tokens shorter-lived than expected are refreshed at 90 % of their life, not immediately. */
  private marginFor(t: StoredToken): number {
    return Math.min(this.margin, (t.expiresAt - t.issuedAt) / 10);
  }

  private async authenticate(s: Session, o: { confirmRisk?: boolean; signal?: AbortSignal }, t0: number): Promise<TokenOutcome> {
    const failures = this.options.guardStore.get(s.key);
    const fingerprint = createHash('sha256').update(JSON.stringify(s.credentials)).digest('hex');
    if (!o.confirmRisk) {
      if (this.guardRefuses(s)) {
        const failure = this.fail(
          t0,
          'guard',
          `Sign-in not attempted: ${failures} sign-ins in a row have failed for this account, and one more failure locks the account until the service operator's support unlocks it.`,
          'Check the user name and password first. Try again only if you are sure they are right, and confirm the risk when asked (command line: --confirm-risk).',
        );
        this.setState(s.id, { state: 'locked', lastError: { text: failure.text } });
        return { ok: false, failure };
      }
      if (this.refused.get(s.key) === fingerprint) {
        const failure = this.fail(
          t0,
          'auth',
          'Sign-in not attempted: the service already refused these exact credentials, and sending them again would count as another failed attempt.',
          s.id === 'b' ? 'Correct the user name or password, then sign in again.' : 'Correct the consumer key or secret, then sign in again.',
        );
        return { ok: false, failure };
      }
    }
    this.setState(s.id, { state: 'refreshing' });
    const c = s.credentials;
    let built: Built;
    let readToken: (res: WireResponse) => TokenRead;
    if (c.interfaceId === 'a') {
      this.secrets.add(basicCredential(c.consumerKey, c.consumerSecret));
      built = tokenRequestA(this.options.endpoints, c);
      readToken = readTokenA;
    } else {
      // A fresh TransactionDetail per attempt; the answer must echo this one.
      const txn = newTransactionDetail();
      built = authRequestB(this.options.endpoints, c, txn);
      readToken = (res) => readTokenB(res, txn);
    }
    const ex = await this.exchange(built, o.signal, t0);
    if (!('res' in ex)) {
      this.setState(s.id, { state: 'failed', lastError: { code: ex.code, text: ex.text } });
      return { ok: false, failure: ex };
    }
    const { res, service } = ex;
    if (res.status >= 200 && res.status < 300 && (service.code === undefined || service.code === SUCCESS_CODE)) {
      const read = readToken(res);
      if (!read.ok) {
        const failure = this.fail(t0, 'api', read.text, 'Try again later; if it persists, report it to the service operator.', built.record, res.status);
        this.setState(s.id, { state: 'failed', lastError: { text: read.text } });
        return { ok: false, failure };
      }
      this.secrets.add(read.value);
      const issuedAt = this.now();
      const token: StoredToken = { value: read.value, issuedAt, expiresAt: issuedAt + read.expiresInMs };
      await this.options.tokenStore.set(s.key, token);
      if (failures > 0) await this.options.guardStore.set(s.key, 0);
      this.refused.delete(s.key);
      this.log(`${s.id}: new token for ${s.account}, valid until ${new Date(token.expiresAt).toISOString()}`);
      this.setState(s.id, { state: 'valid', issuedAt, expiresAt: token.expiresAt, lastError: undefined });
      return { ok: true, token, request: built.record };
    }
    const failure = this.responseFailure(res, service, built.record, t0);
    if (isCredentialFailure(res.status, service.code)) {
      // Never retried: each attempt counts toward the lockout, so the count is kept and shown.
      const count = failures + 1;
      await this.options.guardStore.set(s.key, count);
      this.refused.set(s.key, fingerprint);
      const locked = s.id === 'b' && count >= LOCKOUT_AFTER_FAILURES - 1;
      const advice =
        s.id === 'b'
          ? `Check the user name and password before trying again: ${count} failed sign-in${count === 1 ? '' : 's'} in a row so far, and the ${LOCKOUT_AFTER_FAILURES === 3 ? 'third' : `${LOCKOUT_AFTER_FAILURES}th`} locks the account until support unlocks it.`
          : 'Check the consumer key and secret, then sign in again.';
      this.setState(s.id, { state: locked ? 'locked' : 'failed', lastError: { code: failure.code, text: failure.text } });
      return { ok: false, failure: { ...failure, kind: 'auth', advice } };
    }
    this.setState(s.id, { state: 'failed', lastError: { code: failure.code, text: failure.text } });
    return { ok: false, failure };
  }

  /** Interface B locks on the third failure in a row, so after two the next attempt needs consent. */
  private guardRefuses(s: Session): boolean {
    return s.id === 'b' && this.options.guardStore.get(s.key) >= LOCKOUT_AFTER_FAILURES - 1;
  }

  private async markInvalid(s: Session, value: string, code: string | undefined): Promise<void> {
    const stored = await this.options.tokenStore.get(s.key);
    // Another caller may already have replaced it: then the state is already the new token's.
    if (stored !== undefined && stored.value !== value) return;
    if (stored) await this.options.tokenStore.delete(s.key);
    this.setState(s.id, { state: 'invalid', issuedAt: undefined, expiresAt: undefined, lastError: { code, text: describeCode(code ?? '')?.text ?? 'The token was refused.' } });
  }

  // ---- data calls ---------------------------------------------------------------------------

  private async dataCall(
    s: Session,
    q: LookupQuery,
    token: string,
    signal: AbortSignal | undefined,
    t0: number,
  ): Promise<{ result: CallResult; reauth: boolean; code?: string }> {
    const built = q.kind === 'ip' ? ipRequest(this.options.endpoints, q, token) : orgRequest(this.options.endpoints, q, token);
    const ex = await this.exchange(built, signal, t0);
    if (!('res' in ex)) return { result: ex, reauth: false };
    this.tracked[s.id].callsMade++;
    this.noticeCall(s.id);
    const { res, service } = ex;
    if (res.status >= 200 && res.status < 300 && (service.code === undefined || service.code === SUCCESS_CODE)) {
      return {
        result: { ok: true, status: res.status, body: res.json, code: service.code, durationMs: performance.now() - t0, request: built.record },
        reauth: false,
      };
    }
    const failure = this.responseFailure(res, service, built.record, t0);
    return { result: failure, reauth: service.code !== undefined && REAUTH_CODES.has(service.code), code: service.code };
  }

  /**
   * One request under the shared limiter. SC006 is answered by waiting and retrying with the same
   * request (same token), a bounded number of times with growing, jittered delays.
   */
  private async exchange(built: Built, signal: AbortSignal | undefined, t0: number): Promise<Exchanged | CallFailure> {
    for (let attempt = 0; ; attempt++) {
      if (this.disposed) return this.fail(t0, 'cancelled', 'The client was closed.', 'Run the lookup again.', built.record);
      let release: () => void;
      try {
        release = await this.limiter.acquire(signal);
      } catch (err) {
        return err instanceof LimiterDisposedError
          ? this.fail(t0, 'cancelled', 'The client was closed.', 'Run the lookup again.', built.record)
          : this.fail(t0, 'cancelled', 'The call was cancelled.', 'Run it again when needed.', built.record);
      }
      const started = performance.now();
      let res: WireResponse;
      try {
        res = await this.http.send(built.wire, signal);
      } catch (err) {
        const e = err instanceof HttpError ? err : new HttpError(String(err), 'network');
        const text = this.disposed ? 'The client was closed.' : this.redact(e.message);
        this.log(`${built.record.method} ${built.record.url} failed: ${text}`);
        return this.fail(t0, this.disposed ? 'cancelled' : e.kind, text, e.kind === 'cancelled' ? 'Run it again when needed.' : 'Check the network, proxy and service address, then try again.', built.record);
      } finally {
        release();
      }
      const service = readServiceCode(res.json);
      if (this.options.log) {
        const gzip = res.headers['content-encoding'] === 'gzip' ? ', gzip' : '';
        this.log(`${built.record.method} ${built.record.url} -> ${res.status}${service.code ? ` ${service.code}` : ''} (${Math.round(performance.now() - started)} ms${gzip})`);
      }
      if (service.code !== 'SC006' || attempt >= this.retry.maxRetries) return { res, service };
      const delay = this.backoff(attempt);
      // The service blocks the whole customer while over the limit: hold every caller, not just this one.
      this.limiter.pause(delay);
      this.log(`SC006: waiting ${delay} ms, then retry ${attempt + 1} of ${this.retry.maxRetries} with the same token`);
      try {
        await sleep(delay, undefined, { signal: signal ? AbortSignal.any([signal, this.lifetime.signal]) : this.lifetime.signal });
      } catch {
        return this.fail(t0, 'cancelled', 'The call was cancelled while waiting to retry after SC006.', 'Run it again when needed.', built.record);
      }
    }
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  // ---- results ------------------------------------------------------------------------------

  private responseFailure(res: WireResponse, service: ServiceCode, record: RequestRecord, t0: number): CallFailure {
    const code = service.code;
    const info = code !== undefined ? describeCode(code) : undefined;
    const serviceText = service.text ?? service.description ?? (res.text ? res.text.slice(0, 200) : undefined);
    const text = info?.text ?? (serviceText ? this.redact(serviceText) : `The service answered HTTP ${res.status}${code ? ` with code ${code}` : ''}.`);
    return {
      ok: false,
      kind: kindOf(res.status, code),
      code,
      status: res.status,
      text,
      advice: info?.action ?? adviceFor(res.status, code),
      body: res.json,
      durationMs: performance.now() - t0,
      request: record,
    };
  }

  /** A host store or provider that threw: still a result, so callers need no try/catch. */
  private unexpected(err: unknown, t0: number): CallFailure {
    const text = this.redact(err instanceof Error ? err.message : String(err));
    return this.fail(t0, 'network', `The call failed inside the client: ${text}`, 'Try again; if it persists, report it with the log.');
  }

  private fail(t0: number, kind: FailureKind, text: string, advice: string, request?: RequestRecord, status?: number): CallFailure {
    return { ok: false, kind, text, advice, durationMs: performance.now() - t0, request, status };
  }

  private endpointProblem(id: InterfaceId): string | undefined {
    if (!this.endpointProblems.has(id)) this.endpointProblems.set(id, checkEndpoints(this.options.endpoints, id));
    return this.endpointProblems.get(id);
  }

  private setState(id: InterfaceId, change: Partial<Tracked>): void {
    const t = this.tracked[id];
    const before = t.state;
    Object.assign(t, change);
    if (before !== t.state || change.expiresAt !== undefined) this.emit(id);
  }

  private statusOf(id: InterfaceId): TokenStatus {
    const t = this.tracked[id];
    return {
      interfaceId: id,
      state: t.state,
      account: t.account,
      issuedAt: t.issuedAt,
      expiresAt: t.expiresAt,
      credentialFailures: t.key ? this.options.guardStore.get(t.key) : 0,
      callsMade: t.callsMade,
      lastError: t.lastError,
    };
  }

  /**
   * "Calls made" is part of the status, so listeners hear of it too, but at most once per 250 ms:
   * a batch at 50 QPS should not redraw a status bar 50 times a second.
   */
  private noticeCall(id: InterfaceId): void {
    if (this.listeners.size === 0 || this.callNotices.has(id)) return;
    const timer = setTimeout(() => {
      this.callNotices.delete(id);
      this.emit(id);
    }, CALL_NOTICE_MS);
    timer.unref?.();
    this.callNotices.set(id, timer);
  }

  private emit(id: InterfaceId): void {
    if (this.listeners.size === 0) return;
    const s = this.statusOf(id);
    for (const l of this.listeners) l(s);
  }

  private log(line: string): void {
    if (this.options.log) this.options.log(this.redact(line));
  }
}

function checkEndpoints(e: Endpoints, id: InterfaceId): string | undefined {
  const checks: Array<[string, string]> =
    id === 'a'
      ? [
          ['The token service address', e.authUrl],
          ['The data service address', e.baseUrl],
        ]
      : [['The legacy service address', e.legacyUrl]];
  for (const [label, url] of checks) {
    const problem = checkServiceUrl(label, url);
    if (problem) return problem;
  }
  if (id === 'a' && (e.origin === '' || /[\r\n\0]/.test(e.origin))) return 'Set the Origin value Interface A requires (a web origin such as https://example.com).';
  return undefined;
}

function isCredentialFailure(status: number, code: string | undefined): boolean {
  if (code !== undefined && LIMIT_CODES.has(code)) return false;
  return status === 401 || status === 403 || (code !== undefined && (CREDENTIAL_CODES.has(code) || code === 'SC001' || code === 'SC003'));
}

function kindOf(status: number, code: string | undefined): FailureKind {
  if (code !== undefined) {
    if (LIMIT_CODES.has(code)) return 'limit';
    if (code === 'SC001' || code === 'SC003' || code === TOKEN_EXPIRED_A || CREDENTIAL_CODES.has(code)) return 'auth';
    if (isSecurityCode(code)) return status === 401 || status === 403 ? 'auth' : 'api';
  }
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'limit';
  return 'api';
}

/** Advice for answers the catalog does not name (the sandbox's OAuth-style codes, bare HTTP errors). */
function adviceFor(status: number, code: string | undefined): string {
  switch (code) {
    case 'invalid_client':
    case 'unauthorized_client':
      return 'Check the consumer key and secret, then sign in again.';
    case 'invalid_token':
      return 'Obtain a new token.';
    case 'invalid_request':
      return 'The service rejected the form of the request; check the values and the Origin setting.';
  }
  if (status === 401 || status === 403) return 'Check the credentials and sign in again.';
  if (status === 404) return 'Check the service addresses and the version segments.';
  if (status === 429) return 'Wait a moment and try again.';
  if (status >= 500) return 'The service had a problem; try again later.';
  return 'Check the request values; if the problem persists, report it to the service operator.';
}
