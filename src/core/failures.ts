// Failure classification, pure: what kind of failure an answer is, what to tell the user, and which
// codes call for a new token. No I/O here, so every rule is tested without a server.
import { describeCode, isSecurityCode, SUCCESS_CODE, TOKEN_EXPIRED_A } from './codes';
import type { WireResponse } from './http';
import type { CallFailure, FailureKind, RequestRecord } from './model';
import type { ServiceCode } from './protocol';

/** Codes of a data call that mean "this token is no longer good": get a new one once. */
const REAUTH_CODES: ReadonlySet<string> = new Set([TOKEN_EXPIRED_A, 'SC001', 'invalid_token']);
/** Codes that are about the customer's limits or contract, not the credentials. */
const LIMIT_CODES: ReadonlySet<string> = new Set(['SC004', 'SC005', 'SC006']);
const CREDENTIAL_CODES: ReadonlySet<string> = new Set(['invalid_client', 'invalid_token', 'unauthorized_client', 'access_denied']);

/** A failure built from its parts; `t0` is when the call started (performance.now()). */
export function failure(t0: number, kind: FailureKind, text: string, advice: string, request?: RequestRecord, status?: number): CallFailure {
  return { ok: false, kind, text, advice, durationMs: performance.now() - t0, request, status };
}

/** A 2xx whose body carries no code or the success code. */
export function isSuccess(res: WireResponse, service: ServiceCode): boolean {
  return res.status >= 200 && res.status < 300 && (service.code === undefined || service.code === SUCCESS_CODE);
}

/** A data call refused for its token: the caller gets a new token and repeats once. */
export function needsNewToken(service: ServiceCode): boolean {
  return service.code !== undefined && REAUTH_CODES.has(service.code);
}

/** A sign-in refused for its credentials: it counts toward the lockout and is never retried automatically. */
export function isCredentialFailure(status: number, code: string | undefined): boolean {
  if (code !== undefined && LIMIT_CODES.has(code)) return false;
  return status === 401 || status === 403 || (code !== undefined && (CREDENTIAL_CODES.has(code) || code === 'SC001' || code === 'SC003'));
}

export function kindOf(status: number, code: string | undefined): FailureKind {
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
export function adviceFor(status: number, code: string | undefined): string {
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

/** The failure an answer stands for: the catalog's text and action for a known code, else the service's own text. */
export function responseFailure(res: WireResponse, service: ServiceCode, record: RequestRecord, t0: number, redact: (s: string) => string): CallFailure {
  const code = service.code;
  const info = code !== undefined ? describeCode(code) : undefined;
  const serviceText = service.text ?? service.description ?? (res.text ? res.text.slice(0, 200) : undefined);
  const text = info?.text ?? (serviceText ? redact(serviceText) : `The service answered HTTP ${res.status}${code ? ` with code ${code}` : ''}.`);
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
