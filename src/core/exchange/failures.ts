// Failure classification, pure: what kind of failure an answer is, what to tell the user, and which
// answers call for a new token. No I/O here, so every rule is tested without a server.
import { isSecurityCode, SUCCESS_CODE, TOKEN_EXPIRED_A } from '../codes/codes';
import { flatHeaders, type WireResponse } from '../http/http';
import type { CallFailure, FailureKind, RequestRecord } from '../model';
import { adviceForStatus, asSentence, isObj, shownText, type Recognised } from '../codes/recognise';
import { safeLine } from '../sanitize';

/** Codes about the customer's limits or contract, or the credentials' own expiry: never a wrong password. */
const NOT_CREDENTIAL_CODES: ReadonlySet<string> = new Set(['SC003', 'SC004', 'SC005', 'SC006']);
const LIMIT_CODES: ReadonlySet<string> = new Set(['SC004', 'SC005', 'SC006']);
/** OAuth-style codes (the sandbox's and RFC 6749's) that refuse the client's credentials or token. */
const CREDENTIAL_CODES: ReadonlySet<string> = new Set(['invalid_client', 'invalid_token', 'unauthorized_client', 'access_denied']);

/** A failure built from its parts; `t0` is when the call started (performance.now()). */
export function failure(t0: number, kind: FailureKind, text: string, advice: string, request?: RequestRecord, status?: number): CallFailure {
  return { ok: false, kind, text, advice, durationMs: performance.now() - t0, request, status };
}

/** A 2xx whose body carries no code, the success code, or a code the service marks as information. */
export function isSuccess(res: WireResponse, service: Recognised | undefined): boolean {
  if (res.status < 200 || res.status >= 300) return false;
  return service === undefined || service.code === SUCCESS_CODE || (service.shape === 'transactionResult' && service.severity === 'info');
}

/**
 * A data call refused for its token, so the caller gets a new token and repeats once: a code that
 * means so (00040, SC001, 00041, 00044, invalid_token), or a 401 whose code is unknown or absent.
 */
export function needsNewToken(status: number, service: Recognised | undefined): boolean {
  if (service?.recovery === 'reauthenticate-once' || service?.code === 'invalid_token') return true;
  const s = service?.status ?? status;
  return s === 401 && (service === undefined || !service.known);
}

/**
 * A sign-in refused for its credentials: it counts toward the lockout and is never retried
 * automatically. SC003 (credentials expired), SC004, SC005 and SC006 are not: the password was right.
 */
export function isCredentialFailure(status: number, service: Recognised | undefined): boolean {
  const code = service?.code;
  if (code !== undefined && (NOT_CREDENTIAL_CODES.has(code) || service?.recovery === 'wait-and-retry')) return false;
  if (code === 'SC001' || (code !== undefined && CREDENTIAL_CODES.has(code))) return true;
  if (status === 429) return false;
  return status === 401 || status === 403;
}

export function kindOf(status: number, service: Recognised | undefined): FailureKind {
  const code = service?.code;
  if (code !== undefined) {
    if (LIMIT_CODES.has(code) || service?.recovery === 'wait-and-retry') return 'limit';
    if (code === 'SC001' || code === 'SC003' || code === TOKEN_EXPIRED_A || CREDENTIAL_CODES.has(code) || service?.recovery === 'reauthenticate-once') return 'auth';
    if (isSecurityCode(code)) return status === 401 || status === 403 ? 'auth' : 'api';
  }
  const s = service?.status ?? status;
  if (s === 401 || s === 403) return 'auth';
  if (s === 429 || status === 429) return 'limit';
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
  return adviceForStatus(status);
}

/**
 * The failure an answer stands for: a known code's text as the recogniser chose it (a spec code's
 * text with the service's words beside it, else the service's own words first), sanitised and
 * redacted; for an unknown code the service's own words, else the body's first characters. The
 * catalog's meaning and action for a known code, else advice from the status. `comeBackAt`: the service asked (Retry-After) to be
 * called again later than the client waits by itself, so the advice is when to come back.
 */
export function responseFailure(res: WireResponse, service: Recognised | undefined, record: RequestRecord, t0: number, redact: (s: string) => string, comeBackAt?: number): CallFailure {
  const code = service?.code;
  const said = service?.known ? shownText(service) : (service?.serviceText ?? (res.text ? res.text.slice(0, 200) : undefined));
  const text = said !== undefined ? safeLine(redact(said)) : `The service answered HTTP ${res.status}${code ? ` with code ${safeLine(code)}` : ''}.`;
  return {
    ok: false,
    kind: kindOf(res.status, service),
    code,
    known: code === undefined ? undefined : service?.known,
    status: res.status,
    text,
    ...(service?.meaning !== undefined ? { meaning: service.meaning } : {}),
    advice: comeBackAt !== undefined ? comeBackAdvice(comeBackAt) : service?.known ? service.action : adviceFor(res.status, code),
    ...(comeBackAt !== undefined ? { comeBackAt } : {}),
    body: res.json,
    headers: flatHeaders(res.headers),
    durationMs: performance.now() - t0,
    request: record,
  };
}

/** When to call again, as a time and as a wait: the service's Retry-After was longer than the client waits. */
export function comeBackAdvice(at: number, now: number = Date.now()): string {
  const time = new Date(Math.ceil(at / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  return `Try again after ${time} (${waitText(at - now)}): the service asked to be called again no sooner (Retry-After), which is longer than the client waits by itself.`;
}

/** A wait in words, in a unit that reads naturally: "in 45 seconds", "in 2 minutes", "in 3 hours" (the exact time is beside it). */
export function waitText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const words = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
  if (seconds < 120) return words.format(seconds, 'second');
  if (seconds < 120 * 60) return words.format(Math.round(seconds / 60), 'minute');
  if (seconds < 48 * 3600) return words.format(Math.round(seconds / 3600), 'hour');
  return words.format(Math.round(seconds / 86_400), 'day');
}

/**
 * A failure as one line for people: the code, the text (as responseFailure chose it: a spec code's
 * text with the service's words beside it), the catalog's meaning, and what to do.
 */
export function failureLine(f: Pick<CallFailure, 'code' | 'text' | 'meaning' | 'advice'>): string {
  const meaning = f.meaning !== undefined && f.meaning !== f.text ? ` ${asSentence(f.meaning)}` : '';
  return `${f.code ? `${f.code}: ` : ''}${asSentence(f.text)}${meaning} ${f.advice}`;
}

/**
 * A 2xx whose body is not the JSON object a lookup returns (empty, not JSON, or another JSON value):
 * a failure, never a success, so nothing prints `undefined` and a batch runs it again.
 */
export function notTheAnswer(res: WireResponse, record: RequestRecord, t0: number, redact: (s: string) => string): CallFailure | undefined {
  if (isObj(res.json)) return undefined;
  const what =
    res.json !== undefined ? `JSON ${res.json === null ? 'null' : Array.isArray(res.json) ? 'array' : typeof res.json} instead of an object`
    : res.text.trim() === '' ? 'an empty body'
    : `text that is not JSON ("${safeLine(redact(res.text.trim().slice(0, 60)))}")`;
  return {
    ...failure(t0, 'api', `The service answered HTTP ${res.status} with ${what}; a lookup answer is a JSON object, so the answer was not used.`, 'Try again later; if it persists, report it to the service operator.', record, res.status),
  };
}
