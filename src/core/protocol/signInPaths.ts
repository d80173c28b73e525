// The sign-in addresses belong to the managed token: Interface A's token endpoint ({auth_url}/v1/token)
// and Interface B's authentication (/Authentication/... on the legacy address). A request of a file
// sent there would carry the account's token to the place that issues it, and the answer (a 401 to a
// token it does not expect) would make the client drop its valid token and sign in again. So a
// request to them is refused before anything is sent, whatever the spelling of the path: case,
// percent-encoding, doubled or trailing slashes.
import { VERSION_A } from '../constants';
import type { Endpoints } from '../model';
import { exactOrigin } from './credentialOrigins';

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
