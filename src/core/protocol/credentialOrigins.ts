// The one rule of where an interface's credentials may go: its token (A's bearer, B's raw token), A's
// Basic key:secret and B's user and password headers are sent only to the exact origin (scheme, host,
// port) of one of that interface's configured service addresses. The WHATWG URL parser normalises
// both sides (lower case, default port, IPv4 forms such as 127.1, IPv6 forms) and nothing else is
// merged: no loopback aliases, no DNS, no folding of a final dot. Another program may listen on the
// other loopback socket or answer for the other spelling. (The account key merges spellings on
// purpose, so that one account has one guard count and one budget: accounts/session.ts.)
import { withoutUserInfo } from '../http/serviceUrls';
import type { Endpoints, InterfaceId } from '../model';

/** scheme://host[:port] as the URL parser normalises it, or undefined for a URL that is not http(s). */
export function exactOrigin(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
}

/** The origins an interface's credentials may be sent to: A's token and data addresses, B's legacy address. */
export function credentialOrigins(e: Endpoints, id: InterfaceId): string[] {
  const urls = id === 'a' ? [e.authUrl, e.baseUrl] : [e.legacyUrl];
  return [...new Set(urls.map(exactOrigin).filter((o): o is string => o !== undefined))];
}

/** Whether a request to `url` may carry interface `id`'s credentials. */
export function mayCarryCredentials(url: string, e: Endpoints, id: InterfaceId): boolean {
  const origin = exactOrigin(url);
  return origin !== undefined && credentialOrigins(e, id).includes(origin);
}

const EXACTLY = 'the same scheme, host and port; localhost, 127.0.0.1 and [::1] are different hosts, as are a name with and without a final dot';

/** Why a request to `url` may not carry interface `id`'s credentials, or undefined when it may. */
export function credentialRefusal(url: string, e: Endpoints, id: InterfaceId): string | undefined {
  if (mayCarryCredentials(url, e, id)) return undefined;
  const name = id === 'a' ? 'Interface A' : 'Interface B';
  const start = id === 'a' ? '{{baseUrl}}' : '{{legacyUrl}}';
  return (
    `The request goes to ${shownOrigin(url)}, which is not a service host of ${name}: its token goes only to ${listed(credentialOrigins(e, id))} (${EXACTLY}). ` +
    `Correct the URL (start it with ${start}), or the service addresses.`
  );
}

/**
 * credentialRefusal for endpoints fixed for a client's life, asked before every request: an origin
 * once cleared is not parsed again (three URL parses a call, else). Only the few spellings of the
 * configured origins are ever cleared, and no more than a handful are kept.
 */
export class CredentialGate {
  private readonly cleared: Record<InterfaceId, Set<string>> = { a: new Set(), b: new Set() };

  constructor(private readonly endpoints: Endpoints) {}

  refusal(url: string, id: InterfaceId): string | undefined {
    const cleared = this.cleared[id];
    if (cleared.has(url)) return undefined;
    const refusal = credentialRefusal(url, this.endpoints, id);
    if (refusal === undefined && cleared.size < 16) cleared.add(url);
    return refusal;
  }
}

/** Why no interface's token may go with a request to `url` (neither interface's origins hold it). */
export function noServiceHostMessage(url: string, e: Endpoints): string {
  if (!URL.canParse(url)) return `"${withoutUserInfo(url).slice(0, 80)}" is not an absolute URL; start it with {{baseUrl}} (Interface A) or {{legacyUrl}} (Interface B).`;
  const [a, b] = [listed(credentialOrigins(e, 'a')), listed(credentialOrigins(e, 'b'))];
  const where = a === b ? `the tokens go only to ${a}` : `Interface A's token goes only to ${a}, Interface B's only to ${b}`;
  return `The request goes to ${shownOrigin(url)}, which is no configured service host, so no token can be chosen for it: ${where} (${EXACTLY}). Start the URL with {{baseUrl}} (Interface A) or {{legacyUrl}} (Interface B).`;
}

/** The origin a URL names, for messages (never its user name or password). */
function shownOrigin(url: string): string {
  const origin = exactOrigin(url);
  if (origin !== undefined) return origin;
  return URL.canParse(url) ? `${new URL(url).protocol}//${new URL(url).host}` : `"${withoutUserInfo(url).slice(0, 80)}"`;
}

function listed(origins: readonly string[]): string {
  return origins.length > 0 ? origins.join(', ') : 'no address (none is configured)';
}
