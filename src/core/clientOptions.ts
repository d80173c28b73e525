// What a host gives the client (src/core/client.ts) when it makes one, and with each call: the
// addresses, where credentials, tokens and guard counts come from, the limits, the run's secrets, the
// contract's count and the run's ceiling of data calls.
import type { CodeBook } from './codes/codes';
import type { HttpOptions } from './http/http';
import type { Limits } from './limits/budget';
import type { Endpoints, WireEvent } from './model';
import type { AccountLocks, CredentialProvider, GuardStore, Limiter, TokenStore } from './ports';
import type { SecretRegistry } from './redact';
import type { RetryOptions } from './http/retry';
import type { CallCeiling } from './contract/ceiling';
import type { ContractMeter } from './contract/meter';

export interface ClientOptions {
  readonly endpoints: Endpoints;
  readonly credentials: CredentialProvider;
  readonly tokenStore: TokenStore;
  readonly guardStore: GuardStore;
  /** Where sign-ins of one account wait for each other; this process only, unless a shared implementation is given. */
  readonly locks?: AccountLocks;
  readonly limits?: Limits;
  readonly http?: HttpOptions;
  readonly refreshMarginMs?: number;
  /** Receives one line per request and token event, already redacted. */
  readonly log?: (line: string) => void;
  /** Clock for token lifetimes (epoch ms); tests move it forward. */
  readonly now?: () => number;
  /** A limiter shared with other clients of the same customer; otherwise the client makes its own from `limits`. */
  readonly limiter?: Limiter;
  readonly retry?: RetryOptions;
  /** The catalog of result codes: the built-in one unless a host adds the user's codes file. */
  readonly codes?: CodeBook;
  /** Where this client keeps the secrets it sees; a host shares one among a run's clients, so one redaction knows them all. */
  readonly secrets?: SecretRegistry;
  /** Told of each request sent and each wait before a retry (a run's report); changes nothing the client does. */
  readonly observe?: (event: WireEvent) => void;
  /** The contract's count of data calls (the connection states a contract): every data call counted, SC005 marked. */
  readonly contract?: ContractMeter;
}

export interface CallOptions {
  /** Cancels the call, a request on the wire too. */
  readonly signal?: AbortSignal;
  /** Sends nothing more once aborted: a call still waiting (limiter, retry, new token) ends as cancelled; one sent is answered. */
  readonly stop?: AbortSignal;
  /** The user accepted that one more failed sign-in may lock the account. */
  readonly confirmRisk?: boolean;
  /** Get a new token before the call instead of reusing the cached one. */
  readonly forceNewToken?: boolean;
  /** The run's ceiling of data calls (--max-calls): a call past it is not sent, and ends the run (kind `ceiling`). */
  readonly ceiling?: CallCeiling;
}
