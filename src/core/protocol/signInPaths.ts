// Where in the service a request of a file may go. The sign-in addresses belong to the managed token:
// Interface A's token endpoint ({auth_url}/v1/token) and Interface B's authentication
// (/Authentication/... on the legacy address). A request of a file sent there would carry the
// account's token to the place that issues it, and the answer (a 401 to a token it does not expect)
// would make the client drop its valid token and sign in again. So a request to them is refused
// before anything is sent, whatever the spelling of the path: case, percent-encoding, doubled or
// trailing slashes. And a path is refused where a server or a front end may read it as another path
// than the one checked: a `;` (path parameters, which some strip: /v1/token;x is /v1/token there)
// and an encoded / or \ (%2F, %5C, and encoded again, %252F; some decode them: ..%2F..%2Ftoken).
// One rule for every request sent with a token (serviceUrlRefusal): a request file's at its line,
// with its values (a data row's too) in place, and the client's last check before the wire.
import { VERSION_A } from '../constants';
import type { Endpoints, InterfaceId } from '../model';
import { credentialRefusal, exactOrigin } from './credentialOrigins';

/** Why a request to `url` may not be sent with interface `id`'s token: another host, a sign-in address, a path read two ways. */
export function serviceUrlRefusal(url: string, e: Endpoints, id: InterfaceId): string | undefined {
  return credentialRefusal(url, e, id) ?? signInPathRefusal(url, e) ?? ambiguousPathRefusal(url);
}

/** Why a request to `url` may not be sent (it is a sign-in address of `e`), or undefined when it may. */
export function signInPathRefusal(url: string, e: Endpoints): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const u = new URL(url);
  const path = comparable(u.pathname);
  const at = (base: string): string | undefined => (exactOrigin(base) === u.origin ? comparable(new URL(base).pathname) : undefined);
  const auth = at(e.authUrl);
  if (auth !== undefined && path === `${auth}/${comparable(e.aVersion ?? VERSION_A)}/token`) return refusal('Interface A', `/${e.aVersion ?? VERSION_A}/token`);
  const legacy = at(e.legacyUrl);
  if (legacy !== undefined && (path === `${legacy}/authentication` || path.startsWith(`${legacy}/authentication/`))) return refusal('Interface B', '/Authentication/…');
  return undefined;
}

/**
 * Why the path of `url` may be read as another path than the one checked, or undefined: a `;` in
 * any segment, or a segment that holds a / or \ once percent-decoded, as often as a server might.
 */
export function ambiguousPathRefusal(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  for (const segment of new URL(url).pathname.split('/')) {
    const found = hiddenSeparator(segment);
    if (found === undefined) continue;
    const shown = segment.length > 40 ? `${segment.slice(0, 40)}…` : segment;
    const what = found === ';' ? `a ";" (a path parameter, which servers and front ends strip or read apart)` : `an encoded "${found}" (which a server or front end may decode into a separator)`;
    return (
      `The path segment "${shown}" holds ${what}, so the service could read the path as another one than the client checked, a sign-in address among them. ` +
      `Remove it from the path; a value with "/", "\\" or ";" goes in the query string.`
    );
  }
  return undefined;
}

/** `;`, `/` or `\` in a segment as written or decoded once, twice, … (each round decodes every %XX). */
function hiddenSeparator(segment: string): string | undefined {
  let text = segment;
  for (;;) {
    const found = /[;/\\]/.exec(text);
    if (found) return found[0];
    const decoded = text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === text) return undefined;
    text = decoded;
  }
}

function refusal(name: string, path: string): string {
  return (
    `The request goes to ${name}'s sign-in (${path}), which the client calls by itself with the connection's credentials to get and keep the token; ` +
    'a request file may not call it. Delete this request: "bizdata token" (or Sign In in the editor) signs in and shows the token\'s state.'
  );
}

/** A path as a server may read it: percent-decoded, lower case, no empty segments, no final slash. */
function comparable(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A stray % decodes nothing; the path is compared as written.
  }
  return decoded.toLowerCase().replace(/\/{2,}/g, '/').replace(/\/$/, '');
}
