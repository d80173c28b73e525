// Which account a call is made for: the credentials of an interface, the key that names the account
// at its service (the lockout guard, locks and the rate budget are kept under it), the key its token
// is kept under (the exact origin it was issued at) and the masked form the hosts show.
import type { Credentials, Endpoints, InterfaceId } from '../model';
import type { TokenOwner } from '../ports';
import { checkServiceUrl } from '../http/serviceUrls';
import { exactOrigin } from '../protocol/credentialOrigins';
import { checkHeaderValue } from '../protocol/validate';
import { keyFingerprint, maskAccount, type SecretRegistry } from '../redact';

export interface Session {
  readonly id: InterfaceId;
  readonly credentials: Credentials;
  /** `<a|b>|<normalised service host>|<consumer key or user>`: names an account, so stores outside SecretStorage hash it. */
  readonly key: string;
  readonly account: string;
  /**
   * Whose token the session's is, keyed by the exact origin it was issued at (tokenOwner): stores
   * that keep it at rest seal it with the account's own secret.
   */
  readonly owner: TokenOwner;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * The service host as one spelling, for the account key only: lower case, no default port, and every
 * loopback name as one, so that `localhost`, `127.0.0.1` and `[::1]` (or `HOST` and `host:443`) never
 * count apart in the guard or the budget. Never for where credentials may go: that is the exact
 * origin (protocol/credentialOrigins.ts), as another program may listen on the other loopback socket.
 */
export function normaliseHost(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '?';
  }
  const host = LOOPBACK.has(u.hostname.toLowerCase()) ? 'loopback' : u.hostname.toLowerCase();
  const port = u.port !== '' && u.port !== DEFAULT_PORTS[u.protocol] ? `:${u.port}` : '';
  return `${host}${port}`;
}

/** Whether an account is on this machine (a local sandbox): its key's host is a loopback name. */
export function isLocalAccount(s: Pick<Session, 'key'>): boolean {
  return /^loopback(:|$)/.test(s.key.split('|')[1] ?? '');
}

/** The service an interface signs in at: the token host of A, the legacy host of B. */
export function accountKey(endpoints: Endpoints, credentials: Credentials): string {
  const c = credentials;
  return c.interfaceId === 'a' ? `a|${normaliseHost(endpoints.authUrl)}|${c.consumerKey}` : `b|${normaliseHost(endpoints.legacyUrl)}|${c.user}`;
}

/**
 * Whose contract a connection's data calls count against: `contract|<connection name>|<hosts>`, the
 * connection's name (two accounts at one service, a test and a production one, are two connections)
 * and its service hosts as the account key spells them (a moved address is another service). Every
 * process that names the same connection at the same addresses keeps one count; stores hash it.
 */
export function contractScope(connection: string, endpoints: Endpoints): string {
  const hosts = [endpoints.authUrl, endpoints.baseUrl, endpoints.legacyUrl].map((u) => (u === '' ? '-' : normaliseHost(u)));
  return `contract|${connection}|${hosts.join('|')}`;
}

/**
 * Where a token is kept: `<a|b>|<exact origin of the sign-in address>|<consumer key or user>` and the
 * account's secret. Unlike the account key, nothing is merged: `localhost`, `127.0.0.1` and `[::1]`
 * (or two ports) are three places, so a token kept for one is never read for, nor sent to, another.
 * The `v2` marks the exact form: tokens kept under the merged key of earlier versions are never read.
 */
export function tokenOwner(endpoints: Endpoints, credentials: Credentials): TokenOwner {
  return tokenOwnerAt(signInOrigin(endpoints, credentials.interfaceId), credentials);
}

/** tokenOwner for a sign-in origin already known (a host finding the token kept for an earlier address). */
export function tokenOwnerAt(origin: string | undefined, credentials: Credentials): TokenOwner {
  const c = credentials;
  const [name, secret] = c.interfaceId === 'a' ? [c.consumerKey, c.consumerSecret] : [c.user, c.password];
  return { key: `v2|${c.interfaceId}|${origin ?? '?'}|${name}`, secret };
}

/** The exact origin an interface's credentials are sent to when it signs in: A's token address, B's legacy address. */
export function signInOrigin(endpoints: Endpoints, id: InterfaceId): string | undefined {
  return exactOrigin(id === 'a' ? endpoints.authUrl : endpoints.legacyUrl);
}

/** Sessions per credentials object (hosts usually hand out the same object every call), secrets registered once. */
export class Sessions {
  private readonly known = new WeakMap<Credentials, Session>();

  constructor(
    private readonly endpoints: Endpoints,
    private readonly secrets: SecretRegistry,
  ) {}

  of(credentials: Credentials): Session {
    const known = this.known.get(credentials);
    if (known) return known;
    const c = credentials;
    const name = c.interfaceId === 'a' ? c.consumerKey : c.user;
    this.secrets.addCredentials(c);
    const account = c.interfaceId === 'a' ? keyFingerprint(name) : maskAccount(name);
    const key = accountKey(this.endpoints, c);
    const session: Session = { id: c.interfaceId, credentials: c, key, account, owner: tokenOwner(this.endpoints, c) };
    this.known.set(credentials, session);
    return session;
  }
}

/** Why an interface's endpoints cannot be used, or undefined. */
export function checkEndpoints(e: Endpoints, id: InterfaceId): string | undefined {
  const checks: Array<[string, string]> =
    id === 'a'
      ? [
          ['The token service address', e.authUrl],
          ['The data service address', e.baseUrl],
        ]
      : [['The legacy service address', e.legacyUrl]];
  for (const [label, url] of checks) {
    const problem = checkServiceUrl(label, url);
    if (problem) return problem;
  }
  if (id === 'a') {
    if (e.origin === '') return 'Set the Origin value Interface A requires (a web origin such as https://example.com).';
    const bad = checkHeaderValue('The Origin value', e.origin, 'raw');
    if (bad) return `${bad} Interface A requires a web origin such as https://example.com.`;
  }
  const version = id === 'a' ? e.aVersion : undefined;
  if (version !== undefined && !/^[A-Za-z0-9._-]{1,16}$/.test(version)) {
    return `The Interface A version segment "${version.slice(0, 20).replace(/[^\x20-\x7e]/g, '?')}" is not a path segment; use letters, digits, dots or dashes, such as v1.`;
  }
  return undefined;
}
