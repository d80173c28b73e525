// Checks of a whole query, of a request to another operation and of the credentials before anything
// is sent (built on validate.ts).
import type { Credentials, Endpoints, LookupQuery, OperationRequest } from '../model';
import { DEFAULT_MATCH_TYPE, DEFAULT_VIEW } from '../constants';
import { credentialRefusal } from '../protocol/credentialOrigins';
import { checkCountry, checkHeaderValue, checkIp, checkName, checkOptionalText } from '../protocol/validate';
import { MAX_BODY_FILE_BYTES } from './fileSafety';
import { methodAdvice, WIRE_METHODS } from './methods';
import { identityHeaderProblem } from './identityHeaders';
import { signInPathRefusal } from '../protocol/signInPaths';

const TOKEN_WORD = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The one identity of a lookup: the same query written differently (spaces, case, a default left out)
 * is the same lookup. A batch resumes by it; the history keeps a saved query once by it.
 */
export function lookupKey(q: LookupQuery): string {
  return q.kind === 'ip'
    ? JSON.stringify(['ip', q.ip.trim().toLowerCase(), q.view ?? DEFAULT_VIEW])
    : JSON.stringify(['org', q.country.trim().toUpperCase(), q.name.trim(), q.territory?.trim() ?? '', q.matchType ?? DEFAULT_MATCH_TYPE]);
}

/** The first problem with a query, or undefined when it may be sent. */
export function checkLookup(q: LookupQuery): string | undefined {
  if (q.kind === 'ip') {
    return (
      checkIp(q.ip) ??
      (q.view !== undefined && !TOKEN_WORD.test(q.view)
        ? `The view "${q.view.slice(0, 40)}" is not a view name; use a single word such as standard.`
        : undefined)
    );
  }
  return (
    checkCountry(q.country) ??
    checkName(q.name) ??
    checkOptionalText('The territory', q.territory) ??
    (q.matchType !== undefined && !TOKEN_WORD.test(q.matchType)
      ? `The match type "${q.matchType.slice(0, 40)}" is not a single word; use for example Advanced.`
      : undefined)
  );
}

/** Credentials go into headers: empty values or line breaks are refused without echoing them. */
export function checkCredentials(c: Credentials): string | undefined {
  if (c.interfaceId === 'a') {
    return (
      checkHeaderValue('The consumer key', c.consumerKey) ??
      // HTTP Basic splits key from secret at the first colon, so a key cannot contain one.
      (c.consumerKey.includes(':') ? 'The consumer key contains a colon, which HTTP Basic cannot carry; check the key.' : undefined) ??
      checkHeaderValue('The consumer secret', c.consumerSecret)
    );
  }
  return checkHeaderValue('The user name', c.user, 'raw') ?? checkHeaderValue('The password', c.password, 'raw');
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the client writes itself: a request never carries a token or a credential of its own. */
export const MANAGED_HEADERS: ReadonlySet<string> = new Set(['authorization', 'x-svc-user', 'x-svc-pwd', 'proxy-authorization']);
const MAX_BODY_CHARS = 1024 * 1024;
/** What servers take in a request line and in one header (8 KiB is the common limit); longer is refused before it is sent. */
export const MAX_URL_CHARS = 8 * 1024;
export const MAX_HEADER_CHARS = 8 * 1024;

/** The first problem with a request to another operation, or undefined when it may be sent with the token. */
export function checkOperation(r: OperationRequest, e: Endpoints): string | undefined {
  if (!WIRE_METHODS.has(r.method)) return methodAdvice(r.method);
  if (!URL.canParse(r.url)) return `"${r.url.slice(0, 80)}" is not an absolute URL; start it with {{baseUrl}}, {{authUrl}} or {{legacyUrl}}.`;
  if (r.url.length > MAX_URL_CHARS) return `The URL is ${r.url.length} characters long; a service takes at most ${MAX_URL_CHARS}. Send long values in the body.`;
  const u = new URL(r.url);
  if (u.username !== '' || u.password !== '') return 'The URL carries a user name or password before the host; remove it: credentials never go into a URL.';
  const foreign = credentialRefusal(r.url, e, r.interfaceId) ?? signInPathRefusal(r.url, e);
  if (foreign) return foreign;
  for (const [name, value] of Object.entries(r.headers)) {
    if (!HEADER_NAME.test(name)) return `"${name.slice(0, 40)}" is not a valid header name.`;
    if (MANAGED_HEADERS.has(name.toLowerCase())) return `The header ${name} is set by the client from the signed-in account; remove it from the request.`;
    const identity = identityHeaderProblem(name);
    if (identity) return identity;
    const bad = checkOptionalText(`The header ${name}`, value);
    if (bad) return bad;
    if (value.length > MAX_HEADER_CHARS) return `The header ${name} is ${value.length} characters long; a service takes at most ${MAX_HEADER_CHARS}.`;
  }
  if (r.bodyBytes !== undefined && r.bodyBytes.length > MAX_BODY_FILE_BYTES) return `The request body is ${r.bodyBytes.length} bytes long; the limit is ${MAX_BODY_FILE_BYTES}.`;
  if (r.bodyBytes === undefined && r.body !== undefined && r.body.length > MAX_BODY_CHARS) return `The request body is ${r.body.length} characters long; the limit is ${MAX_BODY_CHARS}.`;
  return undefined;
}
