// One request under the shared limiter: send it, recognise the service's code, and retry what the
// retry policy allows. A throttle (SC006, HTTP 429, 00045/00046) is answered by holding every caller
// (the limiter's pause, Retry-After when given) and sending the same request again with the same
// token, a bounded number of times. An idempotent request (GET) is also sent again, with backoff and
// full jitter, after a reset or refused connection, a timeout, or a 502/503/504. Sign-ins are never
// retried for those: a lost answer may have been a refusal the service counted. A Retry-After longer
// than the policy waits (a minute) is not waited: the call stops and says when to come back. Every
// data call that goes on the wire (a retry too) is counted here first, the one place for every host:
// under the run's ceiling and in the contract's count (core/contract/meter.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { BUILT_IN, type CodeBook } from '../codes/codes';
import { failure } from './failures';
import type { HttpTransport, WireResponse } from '../http/http';
import { TransportError } from '../http/transportErrors';
import { isLoopbackOrigin } from '../http/serviceUrls';
import { LimiterDisposedError } from '../limits/limiter';
import type { CallFailure, Endpoints, WireEvent } from '../model';
import { CoordinatorUnavailableError, type Limiter, type Permit } from '../ports';
import { CredentialGate } from '../protocol/credentialOrigins';
import type { Built } from '../protocol/protocol';
import { recogniseBody, type Recognised } from '../codes/recognise';
import { backoffMs, DEFAULT_RETRY_POLICY, isThrottle, isTransientStatus, retryAfterMs, type RetryPolicy } from '../http/retry';
import type { CallCeiling } from '../contract/ceiling';
import { beginDataCall, type ContractMeter, type DataCallTurn } from '../contract/meter';
import { errorMessage } from '../errors';

export interface Exchanged {
  readonly res: WireResponse;
  /** The code the body carries, if any. */
  readonly service: Recognised | undefined;
  /** The answer's Retry-After was longer than the policy waits: when the service asked to be called again (epoch ms). */
  readonly comeBackAt?: number;
}

/** A transport failure, with whether the service may have seen the request (the lockout guard counts those). */
export type ExchangeFailure = CallFailure & { readonly mayHaveReached: boolean };

/** How one call runs: `stop` ends its waits but not a request on the wire; `signIn` gets a token; `ceiling`: the run's. */
export interface RunOptions {
  readonly stop?: AbortSignal;
  readonly signIn?: boolean;
  readonly ceiling?: CallCeiling;
}

export interface ExchangeOptions {
  readonly http: HttpTransport;
  /** The service addresses: the only origins a request carrying a credential is sent to. */
  readonly endpoints: Endpoints;
  readonly limiter: Limiter;
  readonly policy?: RetryPolicy;
  readonly codes?: CodeBook;
  /** Aborts every wait when the client is disposed. */
  readonly lifetime: AbortSignal;
  readonly log?: (line: string) => void;
  readonly redact: (text: string) => string;
  /** Told of each request sent and each wait (a run's report); changes nothing the exchange does. */
  readonly observe?: (event: WireEvent) => void;
  /** The contract's count of data calls, when the connection states a contract. */
  readonly meter?: ContractMeter;
  /** For tests: the jitter's source. */
  readonly random?: () => number;
}

export class Exchange {
  private readonly policy: RetryPolicy;
  private readonly pairs = new WeakMap<AbortSignal, WeakMap<AbortSignal, AbortSignal>>();
  private readonly gate: CredentialGate;

  constructor(private readonly o: ExchangeOptions) {
    this.policy = o.policy ?? DEFAULT_RETRY_POLICY;
    this.gate = new CredentialGate(o.endpoints);
  }

  get codes(): CodeBook {
    return this.o.codes ?? BUILT_IN;
  }

  /**
   * `signal` cancels the call, the request on the wire too; `stop` only ends its waits (for the
   * limiter, before a retry): once it is aborted nothing more of this call is sent, but a request
   * already sent is answered (a clean stop of a batch). `signIn`: the request gets a token; it is held
   * to the limits like any call, but tells the limiter nothing of them.
   */
  async run(built: Built, signal: AbortSignal | undefined, t0: number, { stop, signIn = false, ceiling }: RunOptions = {}): Promise<Exchanged | ExchangeFailure> {
    const waits = stop && signal ? this.either(signal, stop) : (stop ?? signal);
    const closed = (): ExchangeFailure => ({ ...failure(t0, 'cancelled', 'The client was closed.', 'Run the lookup again.', built.record), mayHaveReached: false });
    // The last gate before the wire, whichever path built the request: the callers check first, with their own place to say it.
    const refusal = this.gate.refusal(built.wire.origin, built.credentialOf);
    if (refusal) return { ...failure(t0, 'input', refusal, 'Nothing was sent. Correct the URL, or the service addresses.'), mayHaveReached: false };
    const idempotent = built.wire.method === 'GET';
    let throttles = 0;
    let transients = 0;
    for (;;) {
      if (this.o.lifetime.aborted) return closed();
      let permit: Permit;
      try {
        permit = await this.o.limiter.acquire(waits);
      } catch (err) {
        if (err instanceof LimiterDisposedError || this.o.lifetime.aborted) return closed();
        const retried = throttles + transients > 0;
        if (CoordinatorUnavailableError.is(err)) return { ...failure(t0, 'coordinator', err.message, err.advice, built.record), mayHaveReached: retried };
        const text = retried ? 'The call was cancelled while waiting to retry.' : 'The call was cancelled.';
        return { ...failure(t0, 'cancelled', text, 'Run it again when needed.', built.record), mayHaveReached: retried };
      }
      let turn: DataCallTurn | undefined;
      if (!signIn) {
        // A call refused here never leaves: its place is given back as no measure of the limits.
        const begun = await beginDataCall(this.o.meter, ceiling).catch((err: unknown) => {
          permit.release(undefined, true);
          throw err;
        });
        if ('refused' in begun) {
          permit.release(undefined, true);
          const { kind, text, advice } = begun.refused;
          return { ...failure(t0, kind, text, advice, built.record), mayHaveReached: false };
        }
        turn = begun;
      }
      const started = performance.now();
      const sentAt = Date.now();
      let res: WireResponse;
      try {
        res = await this.o.http.send(built.wire, signal);
      } catch (err) {
        permit.release(undefined, signIn);
        if (this.o.lifetime.aborted) return closed();
        const e = err instanceof TransportError ? err : new TransportError(String(err), 'network');
        if (!e.mayHaveReached) await this.settle(turn?.notSent());
        const text = this.o.redact(e.message);
        this.log(`${built.record.method} ${built.record.url} failed: ${text}`);
        this.o.observe?.({ kind: 'sent', at: sentAt, ms: performance.now() - started, signIn, failed: text, ...which(built) });
        if (idempotent && e.retryable && transients < this.policy.maxTransientRetries) {
          const ms = backoffMs(transients, this.policy, this.o.random);
          this.o.observe?.({ kind: 'wait', at: Date.now(), ms, why: 'transient', what: e.kind });
          if (!(await this.pause(ms, `retry ${++transients} of ${this.policy.maxTransientRetries} after: ${text}`, waits))) return closed();
          continue;
        }
        const failed = failure(t0, e.kind, text, transportAdvice(e, built.wire.origin), built.record);
        return { ...failed, mayHaveReached: e.mayHaveReached, ...(e.unreachable ? { unreachable: true } : {}) };
      }
      const service = recogniseBody(res.json, this.codes, res.status);
      await this.settle(turn?.answered(service?.code));
      const wait = retryAfterMs(res.headers);
      this.o.observe?.({ kind: 'sent', at: sentAt, ms: performance.now() - started, signIn, status: res.status, code: service, ...which(built) });
      if (this.o.log) {
        const gzip = res.headers['content-encoding'] === 'gzip' ? ', gzip' : '';
        this.log(`${built.record.method} ${built.record.url} -> ${res.status}${service ? ` ${service.code}` : ''} (${Math.round(performance.now() - started)} ms${gzip})`);
      }
      if (wait !== undefined && wait > this.policy.maxRetryAfterMs) {
        // Longer than the policy waits: the call stops at once and says when to come back. A wait
        // this long is a block, not a measure of the rate: the limiter neither learns from it nor
        // holds every caller for it; each call that meets it stops the same way.
        permit.release(undefined, signIn);
        this.log(`${built.record.method} ${built.record.url}: Retry-After ${Math.round(wait / 1000)} s is longer than the ${this.policy.maxRetryAfterMs / 1000} s the client waits; not retried`);
        return { res, service, comeBackAt: Date.now() + wait };
      }
      if (isThrottle(res.status, service)) {
        // The service blocks the whole customer while over the limit: the limiter holds every caller.
        const held = permit.release({ retryAfterMs: wait }, signIn);
        if (throttles >= this.policy.maxThrottleRetries) return { res, service };
        const what = service?.code === 'SC006' ? 'SC006' : `HTTP ${res.status}${service ? ` (${service.code})` : ''}`;
        this.o.observe?.({ kind: 'wait', at: Date.now(), ms: held, why: wait !== undefined ? 'retry-after' : 'throttle', what });
        this.log(`${what}: every call waits ${held} ms, then retry ${++throttles} of ${this.policy.maxThrottleRetries} with the same token`);
        continue;
      }
      permit.release(undefined, signIn);
      if (idempotent && isTransientStatus(res.status) && transients < this.policy.maxTransientRetries) {
        const ms = Math.max(wait ?? 0, backoffMs(transients, this.policy, this.o.random));
        this.o.observe?.({ kind: 'wait', at: Date.now(), ms, why: wait !== undefined ? 'retry-after' : 'transient', what: `HTTP ${res.status}` });
        if (!(await this.pause(ms, `retry ${++transients} of ${this.policy.maxTransientRetries} after HTTP ${res.status}`, waits))) return closed();
        continue;
      }
      return { res, service };
    }
  }

  /** A change of the contract's count after the call: one that fails is logged (the count errs high, and an SC005 stops this run all the same). */
  private async settle(change: Promise<void> | undefined): Promise<void> {
    try {
      await change;
    } catch (err) {
      this.log(`the contract's count could not be updated: ${errorMessage(err)}`);
    }
  }

  /** Either signal, as one: made once per pair, as a batch gives every call the same two (AbortSignal.any costs more than the rest of a call). */
  private either(signal: AbortSignal, stop: AbortSignal): AbortSignal {
    let withStop = this.pairs.get(signal);
    if (!withStop) this.pairs.set(signal, (withStop = new WeakMap()));
    let both = withStop.get(stop);
    if (!both) withStop.set(stop, (both = AbortSignal.any([signal, stop])));
    return both;
  }

  /** Waits before a retry of this call only; false when the client closed meanwhile (a cancel is seen at the next acquire). */
  private async pause(ms: number, why: string, signal: AbortSignal | undefined): Promise<boolean> {
    this.log(`waiting ${ms} ms, then ${why}`);
    try {
      await sleep(ms, undefined, { signal: signal ? AbortSignal.any([signal, this.o.lifetime]) : this.o.lifetime });
    } catch {
      // Aborted: the caller's cancel or the client's disposal.
    }
    return !this.o.lifetime.aborted;
  }

  private log(line: string): void {
    if (this.o.log) this.o.log(this.o.redact(line));
  }
}

/** Which request a call was, for a run's report: its record's method and URL (no credential in either). */
function which(built: Built): { readonly method: string; readonly url: string } {
  return { method: built.record.method, url: built.record.url };
}

/** What to do after a transport failure: a local sandbox that is not running is the common case of nothing listening. */
function transportAdvice(e: TransportError, origin: string): string {
  if (e.kind === 'cancelled') return 'Run it again when needed.';
  if (e.unreachable && isLoopbackOrigin(origin)) return `Start the local sandbox at ${origin} (or correct the address), then run this again.`;
  if (e.unreachable) return 'Check the service address (and the proxy, if one is used), then try again.';
  return 'Check the network, proxy and service address, then try again.';
}
