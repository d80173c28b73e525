// One request under the shared limiter: send it, read the service's code, and retry what the service
// asks to be retried. SC006 is answered by waiting (every caller is held by the limiter) and sending
// the same request again, with the same token, a bounded number of times.
import { failure } from './failures';
import { TransportError, type HttpTransport, type WireResponse } from './http';
import { LimiterDisposedError } from './limiter';
import type { CallFailure } from './model';
import { CoordinatorUnavailableError, type Limiter, type Permit } from './ports';
import { readServiceCode, type Built, type ServiceCode } from './protocol';

export interface Exchanged {
  readonly res: WireResponse;
  readonly service: ServiceCode;
}

/** A transport failure, with whether the service may have seen the request (the lockout guard counts those). */
export type ExchangeFailure = CallFailure & { readonly mayHaveReached: boolean };

export interface ExchangeOptions {
  readonly http: HttpTransport;
  readonly limiter: Limiter;
  /** SC006 retries per request before the failure reaches the caller. */
  readonly maxRetries: number;
  /** Aborts every wait when the client is disposed. */
  readonly lifetime: AbortSignal;
  readonly log?: (line: string) => void;
  readonly redact: (text: string) => string;
}

export class Exchange {
  constructor(private readonly o: ExchangeOptions) {}

  async run(built: Built, signal: AbortSignal | undefined, t0: number): Promise<Exchanged | ExchangeFailure> {
    const closed = (): ExchangeFailure => ({ ...failure(t0, 'cancelled', 'The client was closed.', 'Run the lookup again.', built.record), mayHaveReached: false });
    for (let attempt = 0; ; attempt++) {
      if (this.o.lifetime.aborted) return closed();
      let permit: Permit;
      try {
        permit = await this.o.limiter.acquire(signal);
      } catch (err) {
        if (err instanceof LimiterDisposedError || this.o.lifetime.aborted) return closed();
        if (CoordinatorUnavailableError.is(err)) return { ...failure(t0, 'coordinator', err.message, CoordinatorUnavailableError.advice, built.record), mayHaveReached: attempt > 0 };
        const text = attempt === 0 ? 'The call was cancelled.' : 'The call was cancelled while waiting to retry after SC006.';
        return { ...failure(t0, 'cancelled', text, 'Run it again when needed.', built.record), mayHaveReached: attempt > 0 };
      }
      const started = performance.now();
      let res: WireResponse;
      try {
        res = await this.o.http.send(built.wire, signal);
      } catch (err) {
        permit.release();
        if (this.o.lifetime.aborted) return closed();
        const e = err instanceof TransportError ? err : new TransportError(String(err), 'network');
        const text = this.o.redact(e.message);
        this.log(`${built.record.method} ${built.record.url} failed: ${text}`);
        const advice = e.kind === 'cancelled' ? 'Run it again when needed.' : 'Check the network, proxy and service address, then try again.';
        return { ...failure(t0, e.kind, text, advice, built.record), mayHaveReached: e.mayHaveReached };
      }
      const service = readServiceCode(res.json);
      if (this.o.log) {
        const gzip = res.headers['content-encoding'] === 'gzip' ? ', gzip' : '';
        this.log(`${built.record.method} ${built.record.url} -> ${res.status}${service.code ? ` ${service.code}` : ''} (${Math.round(performance.now() - started)} ms${gzip})`);
      }
      if (service.code !== 'SC006') {
        permit.release();
        return { res, service };
      }
      // The service blocks the whole customer while over the limit: the limiter holds every caller.
      const held = permit.release({});
      if (attempt >= this.o.maxRetries) return { res, service };
      this.log(`SC006: waiting ${held} ms, then retry ${attempt + 1} of ${this.o.maxRetries} with the same token`);
    }
  }

  private log(line: string): void {
    if (this.o.log) this.o.log(this.o.redact(line));
  }
}
