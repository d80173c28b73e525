// Plain data shared by the core, the command line and the extension. No behaviour here.

/** A: OAuth 2.0 client credentials + bearer IP lookups. B: legacy user/password + organizations. */
export type InterfaceId = 'a' | 'b';

export interface CredentialsA {
  readonly interfaceId: 'a';
  readonly consumerKey: string;
  readonly consumerSecret: string;
}

export interface CredentialsB {
  readonly interfaceId: 'b';
  readonly user: string;
  readonly password: string;
}

export type Credentials = CredentialsA | CredentialsB;

export interface Endpoints {
  /** {auth_url}: host of POST /v1/token. */
  readonly authUrl: string;
  /** {base_url}: host of GET /v1/duns-search/ip/{ip}. */
  readonly baseUrl: string;
  /** {legacy_base_url}: host of Interface B. */
  readonly legacyUrl: string;
  /** Value of the Origin header Interface A requires. */
  readonly origin: string;
  /** Version segment of the Interface B authentication path (spec: V2.0). */
  readonly authVersion: string;
  /** Version segment of the organizations path (spec: V4.0). */
  readonly orgVersion: string;
  /** Version segment of Interface A's paths (spec: v1, the default). */
  readonly aVersion?: string;
}

export interface IpQuery {
  readonly ip: string;
  readonly view?: string;
}

export interface OrgQuery {
  readonly country: string;
  readonly name: string;
  readonly territory?: string;
  readonly matchType?: string;
}

export type LookupQuery = ({ readonly kind: 'ip' } & IpQuery) | ({ readonly kind: 'org' } & OrgQuery);

/** A token as stored; the value is a secret and lives only in a TokenStore. */
export interface StoredToken {
  readonly value: string;
  /** Epoch milliseconds. */
  readonly issuedAt: number;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

export type TokenState =
  | 'signed-out'
  | 'none' // signed in, no token fetched yet
  | 'valid'
  | 'refreshing'
  | 'expired'
  | 'invalid' // rejected by the service before its expiry (SC001 / release update)
  | 'locked' // the lockout guard refuses further attempts, or the service reported a locked account
  | 'failed'; // the last authentication failed for another reason (credentials expired, network ...)

export interface TokenStatus {
  readonly interfaceId: InterfaceId;
  readonly state: TokenState;
  /** Masked account: the key or user name with most characters hidden. */
  readonly account?: string;
  readonly issuedAt?: number;
  readonly expiresAt?: number;
  /** Consecutive credential failures seen by the lockout guard for this account. */
  readonly credentialFailures: number;
  /**
   * Set when the guard's record could not be read (it was kept aside): why, naming the files. The
   * account is then treated as one failure away from the lockout until it signs in successfully.
   */
  readonly guardDoubt?: string;
  /** Data calls made through this client since it started. */
  readonly callsMade: number;
  /** Last failure's code and text, when state is not valid. */
  readonly lastError?: { readonly code?: string; readonly text: string };
}

export interface LimiterState {
  /** The rate and concurrency the limiter holds calls to now. */
  readonly qps: number;
  readonly concurrency: number;
  readonly active: number;
  readonly queued: number;
  /** Adaptive limiters: the caps never exceeded (Infinity when `auto`). */
  readonly caps?: { readonly qps: number; readonly concurrency: number };
  /** Adaptive limiters: the account's limits as found so far (exact once the service refused just above). */
  readonly learned?: { readonly qps: number; readonly concurrency: number; readonly exact: boolean };
}

/**
 * A request to any operation of the service (a request file's), sent with the managed token: the
 * client adds Authorization (and Origin for Interface A). It never carries a credential itself.
 */
export interface OperationRequest {
  readonly interfaceId: InterfaceId;
  /** An HTTP method token, upper case (GET, POST, … or another a request file's peers send: requests/methods.ts). */
  readonly method: string;
  /** Absolute URL on one of the interface's configured service hosts. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text; absent for bytes that are not UTF-8. */
  readonly body?: string;
  /** The bytes to send when a body file is part of the body (they win over `body`). */
  readonly bodyBytes?: Uint8Array;
}

/** What was sent, without secrets: for history, logs and "copy as curl". */
export interface RequestRecord {
  readonly method: string;
  readonly url: string;
  /** Header names and values, credentials already replaced by placeholders. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export type FailureKind =
  | 'input' // rejected before any request
  | 'auth' // credentials refused or account locked (exit 3)
  | 'limit' // contract or rate limit (exit 4)
  | 'guard' // the lockout guard refused to try again without confirmation (exit 3)
  | 'api' // the service answered with an error that is neither of the above
  | 'network' // connection, timeout, TLS, malformed response
  | 'coordinator' // the shared coordinator (Redis) could not be reached: nothing was sent (exit 2)
  | 'ceiling' // the run made the data calls its ceiling allows (--max-calls): nothing more was sent (exit 5)
  | 'cancelled';

export interface CallSuccess {
  readonly ok: true;
  readonly status: number;
  /** Parsed JSON body. */
  readonly body: unknown;
  /** CM000 for Interface B; undefined when the body carries no code. */
  readonly code?: string;
  readonly durationMs: number;
  readonly request: RequestRecord;
  /** The response's headers, lower-case names (request files chain on them). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body as text when it is not JSON (operations of request files may answer so). */
  readonly text?: string;
}

export interface CallFailure {
  readonly ok: false;
  readonly kind: FailureKind;
  /** Result or error code from the service (SC001, 00040, ...), passed through intact when unknown. */
  readonly code?: string;
  /** False when the code is not in the catalog: then `text` is the service's own. */
  readonly known?: boolean;
  readonly status?: number;
  /** What went wrong: the service's own words when the answer carries any, else the catalog's text. */
  readonly text: string;
  /** The catalog's meaning of a known code. */
  readonly meaning?: string;
  /** What to do about it. */
  readonly advice: string;
  /**
   * When the service asked to be called again (Retry-After, epoch milliseconds), when that is later
   * than the client waits by itself: the call stopped instead of waiting.
   */
  readonly comeBackAt?: number;
  /** Parsed JSON body of the failing response, when there was one. */
  readonly body?: unknown;
  /** The failing response's headers, lower-case names, when there was a response (request-file assertions read them). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly durationMs: number;
  readonly request?: RequestRecord;
  /**
   * The sign-in that a data call needed failed, so the data call was never sent: `status`, `body`
   * and `request` are the sign-in's, and no answer of the call (request files judge none).
   */
  readonly signIn?: true;
  /**
   * A network failure where nothing answers at the service's address (the connection was refused, or
   * the host name does not resolve): every call to that address would fail the same, so a run stops.
   */
  readonly unreachable?: true;
}

export type CallResult = CallSuccess | CallFailure;

/** How a code the service answered with reads: what `explainLine` (codes/recognise.ts) writes from. */
export interface CodeWords {
  readonly code: string;
  readonly known: boolean;
  readonly text: string;
  readonly meaning?: string;
  readonly action: string;
}

/**
 * What happened on the wire, for a run's report: each request sent (sign-ins too) and each wait
 * before a retry. Observed, never decided on: the client sends and waits the same with or without
 * an observer. Times are epoch milliseconds.
 */
export type WireEvent =
  | {
      readonly kind: 'sent';
      readonly at: number;
      readonly ms: number;
      readonly signIn: boolean;
      readonly status?: number;
      /** The code the answer carried, with its words as the recogniser read them. */
      readonly code?: CodeWords;
      /** The transport failure, redacted, when no answer came. */
      readonly failed?: string;
      /** The request's method and URL, as its record holds them (no credential): which request the call was. */
      readonly method?: string;
      readonly url?: string;
    }
  | {
      readonly kind: 'wait';
      readonly at: number;
      readonly ms: number;
      /** A throttle (SC006, HTTP 429, 00045/00046), a Retry-After the service asked for, or a retry after a transient failure. */
      readonly why: 'throttle' | 'retry-after' | 'transient';
      /** What the answer was: SC006, HTTP 429 … */
      readonly what: string;
    };
