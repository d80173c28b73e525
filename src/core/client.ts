// The client of both interfaces, as a small facade over parts with one job each: sessions (which
// account), the token cache (one token per account, shared sign-in), the lockout guard, the exchange
// (send under the limiter, SC006 retries), failure classification and the status tracker.
import { SUCCESS_CODE } from './codes/codes';
import { DEFAULT_LIMITS } from './constants';
import { errorMessage } from './errors';
import { Exchange } from './exchange/exchange';
import { failure, isSuccess, needsNewToken, notTheAnswer, responseFailure } from './exchange/failures';
import { LockoutGuard } from './accounts/guard';
import { flatHeaders, HttpTransport } from './http/http';
import { RateLimiter } from './limits/limiter';
import type { CallFailure, CallResult, Credentials, InterfaceId, IpQuery, LimiterState, LookupQuery, OperationRequest, OrgQuery, TokenStatus } from './model';
import { CoordinatorUnavailableError, type Limiter, type TokenOwner } from './ports';
import { ipRequest, operationRequest, orgRequest, type Built } from './protocol/protocol';
import { checkCredentials, checkLookup, checkOperation } from './requests/queries';
import { SecretRegistry, signInSecrets } from './redact';
import type { CallOptions, ClientOptions } from './clientOptions';
import { checkEndpoints, Sessions, type Session } from './accounts/session';
import { StatusTracker } from './statusTracker';
import { DEFAULT_RETRY_POLICY } from './http/retry';
import { MemoryLocks } from './storage/stores';
import { TokenCache, withoutReach } from './accounts/tokens';
import { StateDirError } from './storage/stateDir';

const DEFAULT_REFRESH_MARGIN_MS = 5 * 60 * 1000;

export class BizDataClient {
  private readonly http: HttpTransport;
  private readonly limiter: Limiter;
  private readonly ownsLimiter: boolean;
  private readonly secrets: SecretRegistry;
  private readonly sessions: Sessions;
  private readonly tracker = new StatusTracker();
  private readonly guard: LockoutGuard;
  private readonly exchange: Exchange;
  private readonly tokens: TokenCache;
  private readonly lifetime = new AbortController();
  /** Endpoint problems per interface; endpoints are fixed for the client's life, so checked once. */
  private readonly endpointProblems = new Map<InterfaceId, string | undefined>();
  /** Credentials found fit for headers; hosts hand out the same object every call, so each is checked once. */
  private readonly checkedCredentials = new WeakSet<Credentials>();
  private readonly now: () => number;
  private disposed = false;

  constructor(private readonly options: ClientOptions) {
    const retry = { maxRetries: DEFAULT_RETRY_POLICY.maxThrottleRetries, ...options.retry };
    const policy = {
      ...DEFAULT_RETRY_POLICY,
      maxThrottleRetries: retry.maxRetries,
      ...(retry.maxTransientRetries !== undefined ? { maxTransientRetries: retry.maxTransientRetries } : {}),
      ...(retry.baseDelayMs !== undefined ? { baseDelayMs: retry.baseDelayMs } : {}),
      ...(retry.maxDelayMs !== undefined ? { maxDelayMs: retry.maxDelayMs } : {}),
    };
    this.http = new HttpTransport(options.http);
    this.ownsLimiter = options.limiter === undefined;
    this.limiter = options.limiter ?? new RateLimiter(options.limits ?? DEFAULT_LIMITS, undefined, undefined, retry);
    this.now = options.now ?? Date.now;
    this.secrets = options.secrets ?? new SecretRegistry();
    this.sessions = new Sessions(options.endpoints, this.secrets);
    this.guard = new LockoutGuard(options.guardStore);
    const log = (line: string): void => this.log(line);
    this.exchange = new Exchange({ http: this.http, endpoints: options.endpoints, limiter: this.limiter, policy, codes: options.codes, lifetime: this.lifetime.signal, log: options.log, observe: options.observe, redact: (t) => this.redact(t) });
    this.tokens = new TokenCache({
      store: options.tokenStore,
      locks: options.locks ?? new MemoryLocks(),
      guard: this.guard,
      exchange: this.exchange,
      tracker: this.tracker,
      endpoints: options.endpoints,
      secrets: this.secrets,
      now: this.now,
      marginMs: options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS,
      log,
    });
  }

  lookupIp(query: IpQuery, options?: CallOptions): Promise<CallResult> {
    return this.lookup({ kind: 'ip', ...query }, options);
  }

  lookupOrganization(query: OrgQuery, options?: CallOptions): Promise<CallResult> {
    return this.lookup({ kind: 'org', ...query }, options);
  }

  /** Never rejects: every outcome is a CallResult. */
  lookup(query: LookupQuery, options: CallOptions = {}): Promise<CallResult> {
    // The signals as given: the limiter and the transport listen once per signal, not once per call,
    // so one a batch shares collects no listeners.
    return this.settled((t0) => this.lookupOnce(query, options, t0));
  }

  /**
   * Any other operation of the service (a request file's), with the same token, limiter, guard and
   * recovery as the lookups. Never rejects. A 2xx body that is not JSON comes back as `text`.
   */
  send(request: OperationRequest, options: CallOptions = {}): Promise<CallResult> {
    return this.settled(async (t0) => {
      const problem = this.endpointProblem(request.interfaceId) ?? checkOperation(request, this.options.endpoints);
      if (problem) return failure(t0, 'input', problem, 'Correct the request and send it again.');
      return this.withToken(request.interfaceId, (token) => operationRequest(this.options.endpoints, request, token), options, t0, false);
    });
  }

  /** Gets a new token now (e.g. "Sign in" / "Test connection"); the body of a success is the TokenStatus. */
  refreshToken(id: InterfaceId, options: CallOptions = {}): Promise<CallResult> {
    return this.settled(async (t0) => {
      const problem = this.endpointProblem(id);
      if (problem) return failure(t0, 'input', problem, 'Correct the service address in the settings.');
      const session = await this.session(id, t0);
      if (!('key' in session)) return session;
      const token = await this.tokens.get(session, { force: true, confirmRisk: options.confirmRisk, signal: options.signal }, t0);
      if (!token.ok) return token.failure;
      const request = token.request ?? { method: 'POST', url: '', headers: {} };
      return { ok: true, status: 200, body: this.tracker.status(id), code: id === 'b' ? SUCCESS_CODE : undefined, durationMs: performance.now() - t0, request };
    });
  }

  async status(id: InterfaceId): Promise<TokenStatus> {
    const credentials = await this.options.credentials(id);
    if (!credentials) return { interfaceId: id, state: 'signed-out', credentialFailures: 0, callsMade: this.tracker.get(id).callsMade };
    const s = this.sessions.of(credentials);
    this.tracker.useAccount(id, s.owner, s.account);
    const [stored, failures, guardDoubt] = await Promise.all([this.options.tokenStore.get(s.owner), this.guard.read(s), this.guard.doubt(s)]);
    this.tracker.assign(id, { credentialFailures: failures, guardDoubt });
    const t = this.tracker.get(id);
    if (t.state !== 'refreshing') {
      if (stored) {
        this.tracker.assign(id, { state: this.now() < stored.expiresAt ? 'valid' : 'expired', issuedAt: stored.issuedAt, expiresAt: stored.expiresAt });
      } else if (t.state === 'valid' || t.state === 'expired') {
        this.tracker.assign(id, { state: 'none', issuedAt: undefined, expiresAt: undefined });
      }
      // The guard's count outlives the client (the hosts keep it across restarts).
      if (!stored && this.guard.holds(s, failures)) this.tracker.assign(id, { state: 'locked' });
    }
    return this.tracker.status(id);
  }

  /** The token value, for hosts that show it on explicit request (`bizdata token --reveal`). */
  async revealToken(id: InterfaceId): Promise<string | undefined> {
    const credentials = await this.options.credentials(id);
    if (!credentials) return undefined;
    const t = await this.options.tokenStore.get(this.sessions.of(credentials).owner);
    return t && this.now() < t.expiresAt ? t.value : undefined;
  }

  limiterState(): LimiterState {
    return this.limiter.state();
  }

  /** Drops the cached token (sign out). The guard's failure count stays: the service keeps its own. */
  async forget(id: InterfaceId): Promise<void> {
    const owners = new Map<string, TokenOwner>();
    const known = this.tracker.get(id).owner;
    if (known) owners.set(known.key, known);
    const credentials = await this.options.credentials(id);
    if (credentials) {
      const owner = this.sessions.of(credentials).owner;
      owners.set(owner.key, owner);
    }
    for (const owner of owners.values()) await this.options.tokenStore.delete(owner);
    this.tracker.assign(id, { state: credentials ? 'none' : 'signed-out', issuedAt: undefined, expiresAt: undefined, lastError: undefined });
    this.tracker.emit(id);
  }

  /** Fires when a token state changes (fetched, refreshing, refused, locked, forgotten), and (coalesced) when calls were made. */
  onDidChangeStatus(listener: (s: TokenStatus) => void): { dispose(): void } {
    return this.tracker.onDidChange(listener);
  }

  /** A value to hide like a credential in everything this client logs or keeps (an answer typed at a secret-looking `# @prompt`). */
  addSecret(value: string): void {
    this.secrets.add(value);
  }

  /** Whether the text holds a secret this client knows (a credential, a token it was given). */
  holds(text: string): boolean {
    return this.secrets.holds(text);
  }

  /** The one redaction used for this client's logs and errors, with every secret it has seen. */
  redact(text: string): string {
    return this.secrets.redact(text);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.tracker.dispose();
    this.lifetime.abort();
    if (this.ownsLimiter) this.limiter.dispose();
    // destroy, not close: disposal should not wait for a slow answer nobody will read.
    await this.http.destroy();
  }

  private async lookupOnce(q: LookupQuery, o: CallOptions, t0: number): Promise<CallResult> {
    const id: InterfaceId = q.kind === 'ip' ? 'a' : 'b';
    const problem = checkLookup(q) ?? this.endpointProblem(id);
    if (problem) return failure(t0, 'input', problem, 'Correct the value and run the lookup again.');
    const e = this.options.endpoints;
    return this.withToken(id, (token) => (q.kind === 'ip' ? ipRequest(e, q, token) : orgRequest(e, q, token)), o, t0);
  }

  /**
   * A data call with the account's token. Spec 7: an expired or invalidated token gets one new token
   * and the call is repeated once; refused again, the caller is told to contact support.
   */
  private async withToken(id: InterfaceId, build: (token: string) => Built, o: CallOptions, t0: number, expectObject = true): Promise<CallResult> {
    const s = await this.session(id, t0);
    if (!('key' in s)) return s;
    let token = await this.tokens.get(s, { force: o.forceNewToken, confirmRisk: o.confirmRisk, signal: o.signal }, t0);
    if (!token.ok) return { ...token.failure, signIn: true };
    let outcome = await this.dataCall(s, build(token.token.value), expectObject, o, t0);
    if (!outcome.reauth) return outcome.result;
    if (o.stop?.aborted) return failure(t0, 'cancelled', 'The call was stopped before getting a new token.', 'Run it again when needed.');
    this.log(`${id}: token refused with ${outcome.code}; getting a new one and repeating the call once`);
    await this.tokens.markInvalid(s, token.token.value, outcome.code, outcome.result.ok ? undefined : outcome.result.text);
    token = await this.tokens.get(s, { replacing: token.token.value, confirmRisk: o.confirmRisk, signal: o.signal }, t0);
    if (!token.ok) return { ...token.failure, signIn: true };
    outcome = await this.dataCall(s, build(token.token.value), expectObject, o, t0);
    if (!outcome.reauth) return outcome.result;
    await this.tokens.markInvalid(s, token.token.value, outcome.code, outcome.result.ok ? undefined : outcome.result.text);
    return { ...(outcome.result as CallFailure), kind: 'auth', advice: 'A new token was obtained and the service refused it as well: contact support.' };
  }

  private async dataCall(s: Session, built: Built, expectObject: boolean, o: CallOptions, t0: number): Promise<{ result: CallResult; reauth: boolean; code?: string }> {
    const ex = await this.exchange.run(built, o.signal, t0, { stop: o.stop });
    if (!('res' in ex)) return { result: withoutReach(ex), reauth: false };
    this.tracker.countCall(s.id);
    const { res, service, comeBackAt } = ex;
    // A request file may post to a sign-in itself and chain the token it gets: that token is a secret too.
    const headers = flatHeaders(res.headers);
    for (const value of signInSecrets(res.json, headers)) this.secrets.add(value);
    const redact = (t: string): string => this.redact(t);
    if (isSuccess(res, service)) {
      // A lookup's answer is a JSON object; any other operation may answer in text.
      const wrong = expectObject ? notTheAnswer(res, built.record, t0, redact) : undefined;
      if (wrong) return { result: wrong, reauth: false };
      const success = { ok: true, status: res.status, body: res.json, code: service?.code, durationMs: performance.now() - t0, request: built.record, headers } as const;
      return { result: res.text === '' ? success : { ...success, text: res.text }, reauth: false };
    }
    return { result: responseFailure(res, service, built.record, t0, redact, comeBackAt), reauth: needsNewToken(res.status, service), code: service?.code };
  }

  /** The session of an interface's current credentials, or the failure that stops the call. */
  private async session(id: InterfaceId, t0: number): Promise<Session | CallFailure> {
    let credentials;
    try {
      credentials = await this.options.credentials(id);
    } catch (err) {
      // A host's provider may fail (prompt cancelled, storage unavailable): a result, not a throw.
      return failure(t0, 'input', this.redact(errorMessage(err)), 'Provide the credentials and try again.');
    }
    if (!credentials || credentials.interfaceId !== id) {
      const what = id === 'a' ? 'consumer key and secret (Interface A)' : 'user name and password (Interface B)';
      return failure(t0, 'auth', `No ${what} are set.`, "Sign in with the credentials from the service operator's representative.");
    }
    if (!this.checkedCredentials.has(credentials)) {
      const bad = checkCredentials(credentials);
      if (bad) return failure(t0, 'input', bad, 'Correct the credentials and sign in again.');
      this.checkedCredentials.add(credentials);
    }
    const s = this.sessions.of(credentials);
    this.tracker.useAccount(id, s.owner, s.account);
    return s;
  }

  /** Calls never reject: whatever a host's store or provider throws comes back as a CallResult. */
  private async settled(run: (t0: number) => Promise<CallResult>): Promise<CallResult> {
    const t0 = performance.now();
    if (this.disposed) return failure(t0, 'cancelled', 'The client was closed.', 'Run the lookup again.');
    try {
      return await run(t0);
    } catch (err) {
      // A shared store, lock or limiter lost its coordinator: a stop, not a network failure of the service.
      if (CoordinatorUnavailableError.is(err)) return failure(t0, 'coordinator', this.redact(err.message), err.advice);
      // The state folder cannot be written: a setup problem to fix, named, like a wrong setting.
      if (StateDirError.is(err)) return failure(t0, 'input', err.message, err.advice);
      return failure(t0, 'network', `The call failed inside the client: ${this.redact(errorMessage(err))}`, 'Try again; if it persists, report it with the log.');
    }
  }

  private endpointProblem(id: InterfaceId): string | undefined {
    if (!this.endpointProblems.has(id)) this.endpointProblems.set(id, checkEndpoints(this.options.endpoints, id));
    return this.endpointProblems.get(id);
  }

  private log(line: string): void {
    if (this.options.log) this.options.log(this.redact(line));
  }
}

