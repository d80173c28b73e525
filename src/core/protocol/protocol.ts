// The wire format of both interfaces (service spec sections 2, 4 and 7): request builders that
// return what to send plus a secret-free record of it, and readers of tokens and result codes.
import { randomUUID } from 'node:crypto';
import type { WireRequest, WireResponse } from '../http/http';
import { headerValue } from '../http/http';
import { DEFAULT_MATCH_TYPE, DEFAULT_VIEW, TOKEN_LIFETIME_MS, VERSION_A } from '../constants';
import type { CredentialsA, CredentialsB, Endpoints, InterfaceId, IpQuery, OperationRequest, OrgQuery, RequestRecord } from '../model';
import { PLACEHOLDER } from '../http/curl';
import { basicCredential } from '../redact';
import { findTransactionParts, isObj } from '../codes/recognise';

export interface Built {
  readonly wire: WireRequest;
  readonly record: RequestRecord;
  /** The interface whose credential (token, key and secret, user and password) the request carries: the exchange sends it only to that interface's service origins. */
  readonly credentialOf: InterfaceId;
}

/** ApplicationTransactionID of this client's Interface B sign-ins (caller-defined, spec 2.3). */
export const CLIENT_APPLICATION_ID = 'bizdata-explorer';

const ACCEPT = { accept: 'application/json', 'accept-encoding': 'gzip' } as const;

interface Target {
  readonly origin: string;
  readonly path: string;
}

/**
 * Splits a base address (already checked by checkServiceUrl) plus a path into origin and path by
 * string operations: this runs on every call, and a URL object per call is measurable overhead.
 */
function join(base: string, path: string): Target {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)([^?#]*)/i.exec(base);
  const origin = m ? m[1] : base;
  const prefix = m ? m[2].replace(/\/+$/, '') : '';
  return { origin, path: prefix + path };
}

function build(
  credentialOf: InterfaceId,
  method: string,
  target: Target,
  headers: Record<string, string>,
  shown: Record<string, string>,
  body?: string,
  largeAsText?: true,
  bodyBytes?: Uint8Array,
): Built {
  const sent = Object.assign({}, ACCEPT, headers);
  return {
    wire: { method, origin: target.origin, path: target.path, headers: sent, body: bodyBytes ?? body, largeAsText },
    record: { method, url: target.origin + target.path, headers: Object.assign({}, sent, shown), body },
    credentialOf,
  };
}

/** Interface A's version segment (spec 9: v1), URL-encoded like Interface B's. */
function versionA(e: Endpoints): string {
  return encodeURIComponent(e.aVersion ?? VERSION_A);
}

/** Spec 2.1 / 4.1: POST {auth_url}/v1/token with Basic key:secret, JSON content type and Origin. */
export function tokenRequestA(e: Endpoints, c: CredentialsA): Built {
  return build(
    'a',
    'POST',
    join(e.authUrl, `/${versionA(e)}/token`),
    {
      authorization: `Basic ${basicCredential(c.consumerKey, c.consumerSecret)}`,
      'content-type': 'application/json',
      origin: e.origin,
    },
    { authorization: `Basic ${PLACEHOLDER.basic}` },
    JSON.stringify({ grant_type: 'client_credentials' }),
  );
}

/** Spec 4.1: GET {base_url}/v1/duns-search/ip/{ip}?view=... with Bearer token and Origin. */
export function ipRequest(e: Endpoints, q: IpQuery, token: string): Built {
  // Colons of IPv6 addresses are valid in a path segment; only a zone id's % needs encoding.
  const segment = encodeURIComponent(q.ip.trim()).replace(/%3A/gi, ':');
  const url = join(e.baseUrl, `/${versionA(e)}/duns-search/ip/${segment}?view=${encodeURIComponent(q.view ?? DEFAULT_VIEW)}`);
  return build('a', 'GET', url, { authorization: `Bearer ${token}`, origin: e.origin }, { authorization: `Bearer ${PLACEHOLDER.token}` });
}

export interface TransactionDetail {
  readonly ApplicationTransactionID: string;
  readonly ServiceTransactionID: string;
  readonly TransactionTimestamp: string;
}

export function newTransactionDetail(): TransactionDetail {
  return {
    ApplicationTransactionID: CLIENT_APPLICATION_ID,
    ServiceTransactionID: randomUUID(),
    TransactionTimestamp: new Date().toISOString(),
  };
}

/** Spec 2.3 / 4.2: POST {legacy}/Authentication/{version}/ with user and password headers. */
export function authRequestB(e: Endpoints, c: CredentialsB, txn: TransactionDetail): Built {
  return build(
    'b',
    'POST',
    join(e.legacyUrl, `/Authentication/${encodeURIComponent(e.authVersion)}/`),
    { 'x-svc-user': c.user, 'x-svc-pwd': c.password, 'content-type': 'application/json' },
    { 'x-svc-user': PLACEHOLDER.user, 'x-svc-pwd': PLACEHOLDER.password },
    JSON.stringify({ TransactionDetail: txn }),
  );
}

/** Spec 4.2: GET {legacy}/{version}/organizations with the raw token (no scheme word). */
export function orgRequest(e: Endpoints, q: OrgQuery, token: string): Built {
  const params: Array<[string, string]> = [
    ['CountryISOAlpha2Code', q.country.trim().toUpperCase()],
    ['SubjectName', q.name.trim()],
    ['match', 'true'],
    ['MatchTypeText', q.matchType ?? DEFAULT_MATCH_TYPE],
  ];
  if (q.territory !== undefined && q.territory.trim() !== '') params.push(['TerritoryName', q.territory.trim()]);
  // encodeURIComponent rather than URLSearchParams: spaces as %20, as the spec's "URL-encoded name".
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  const url = join(e.legacyUrl, `/${encodeURIComponent(e.orgVersion)}/organizations?${query}`);
  return build('b', 'GET', url, { authorization: token }, { authorization: PLACEHOLDER.token });
}

/**
 * Any other operation (a request file's): its own headers, plus the token as the interface wants it
 * (Bearer for A, raw for B) and the Origin Interface A requires. The URL was checked by checkOperation,
 * and the exchange checks its origin again before sending (credentialOrigins.ts).
 * Its answer may be large, so it may come back as text (HttpOptions.maxParseBytes).
 */
export function operationRequest(e: Endpoints, r: OperationRequest, token: string): Built {
  const u = new URL(r.url);
  const auth = r.interfaceId === 'a' ? { authorization: `Bearer ${token}`, origin: e.origin } : { authorization: token };
  const shown = { authorization: r.interfaceId === 'a' ? `Bearer ${PLACEHOLDER.token}` : PLACEHOLDER.token };
  return build(r.interfaceId, r.method, { origin: u.origin, path: `${u.pathname}${u.search}` }, Object.assign(lowerCased(r.headers), auth), shown, r.body, true, r.bodyBytes);
}

function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

export type TokenRead = { readonly ok: true; readonly value: string; readonly expiresInMs: number; readonly note?: string } | { readonly ok: false; readonly text: string };

/** Spec 2.2: access_token and expiresIn; expires_in (RFC 6749 spelling) is accepted too. */
export function readTokenA(res: WireResponse): TokenRead {
  const j = res.json;
  if (!isObj(j) || typeof j.access_token !== 'string' || j.access_token === '') {
    return { ok: false, text: 'The token response carried no access_token.' };
  }
  return { ok: true, value: j.access_token, ...lifetime(j.expiresIn ?? j.expires_in) };
}

/**
 * A token's life in ms from the answer's seconds, kept within (0, 24 h]: the spec's tokens last 24
 * hours, and a value out of range (1e13, negative, not a number) must neither crash a date nor keep a
 * token in use past its real end. An out-of-range value gets the spec's 24 hours and a note for the log.
 */
function lifetime(raw: unknown): { expiresInMs: number; note?: string } {
  if (raw === undefined) return { expiresInMs: TOKEN_LIFETIME_MS };
  const seconds = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
  if (Number.isFinite(seconds) && seconds > 0 && seconds * 1000 <= TOKEN_LIFETIME_MS) return { expiresInMs: seconds * 1000 };
  const shown = JSON.stringify(raw).slice(0, 40);
  return { expiresInMs: TOKEN_LIFETIME_MS, note: `the token answer's lifetime ${shown} is out of range (0 to ${TOKEN_LIFETIME_MS / 1000} s); using ${TOKEN_LIFETIME_MS / 1000} s` };
}

/** Spec 2.4: token in the Authorization header, else AuthenticationDetail.Token; echo must match. */
export function readTokenB(res: WireResponse, sent: TransactionDetail): TokenRead {
  const { detail } = findTransactionParts(res.json);
  const ts = detail ? str(detail.TransactionTimestamp) : undefined;
  const echoed =
    detail !== undefined &&
    detail.ApplicationTransactionID === sent.ApplicationTransactionID &&
    detail.ServiceTransactionID === sent.ServiceTransactionID &&
    // Compared as a time, not as text: a service may normalise the format.
    (ts === undefined || Date.parse(ts) === Date.parse(sent.TransactionTimestamp));
  if (!echoed) {
    return { ok: false, text: 'The authentication response did not echo the TransactionDetail that was sent, so it may answer another request; its token was not used.' };
  }
  const header = headerValue(res.headers.authorization)?.trim();
  const body = isObj(res.json) && isObj(res.json.AuthenticationDetail) ? str(res.json.AuthenticationDetail.Token) : undefined;
  const value = header && header.toUpperCase() !== 'INVALID CREDENTIALS' ? header : body;
  if (!value) return { ok: false, text: 'The authentication response carried no token.' };
  return { ok: true, value, expiresInMs: TOKEN_LIFETIME_MS };
}
