// Where an imported request goes. A request file sends only to the connection's service addresses
// (credentialOrigins.ts), so an imported URL is written from the connection variable of the address
// it starts with ({{baseUrl}}, {{legacyUrl}}, {{authUrl}}: requestConversion.ts decides which); an
// origin the user names with --host counts as the service too, its paths deciding the variable as
// on the sandbox's one origin. Any other host is not the service's; the sign-in addresses are the
// managed token's.
import type { Endpoints } from '../model';
import { exactOrigin } from '../protocol/credentialOrigins';
import { signInPathRefusal } from '../protocol/signInPaths';
import { withServiceVariables } from '../requests/requestConversion';
import type { SourceValues } from './importValues';

export interface ImportOptions {
  /** The connection's addresses (an address may be ''). */
  readonly endpoints: Endpoints;
  /** Origins the user names as the service's too (`--host`), for sources written for another deployment of it. */
  readonly hosts: readonly string[];
  /** Write requests to other hosts too, into `NAME.other-hosts.http` files for another tool (never sent from here). */
  readonly all: boolean;
}

export type Target =
  /** `url`: as written, starting with a connection variable. */
  | { readonly kind: 'service'; readonly url: string; readonly interfaceA: boolean }
  | { readonly kind: 'sign-in'; readonly message: string }
  /** `origin`: where it goes, for the report; `url`: the source's URL, kept as it is. */
  | { readonly kind: 'other'; readonly origin: string; readonly url: string }
  | { readonly kind: 'unknown'; readonly message: string };

const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Where a URL of the source goes, with the URL to write when it is the service. */
export function targetOf(url: string, values: SourceValues, o: ImportOptions): Target {
  const masked = url.replace(/\{\{[^{}]*\}\}/g, (m) => '_'.repeat(m.length));
  const scheme = SCHEME.exec(masked);
  // The part that names the host: up to the first "/" or "?" after it, variables and all.
  const end = masked.slice(scheme ? scheme[0].length : 0).search(/[/?]/);
  const split = end < 0 ? url.length : end + (scheme ? scheme[0].length : 0);
  const lead = values.expand(url.slice(0, split));
  const rest = url.slice(split);
  if (!lead.ok)
    return {
      kind: 'unknown',
      message:
        `Its host comes from {{${lead.missing}}}, which neither the source nor an environment gives a value: ` +
        'import it again with the environment (--environment), or write the URL with {{baseUrl}}.',
    };
  const withScheme = SCHEME.test(lead.text) ? lead.text : `http://${lead.text}`;
  const resolvedRest = values.expand(rest);
  const concrete = withScheme + (resolvedRest.ok ? resolvedRest.text : rest.replace(/\{\{[^{}]*\}\}/g, 'x'));
  const origin = exactOrigin(concrete);
  if (origin === undefined)
    return { kind: 'unknown', message: `"${withScheme.replace(/\/\/[^/@]*@/, '//').slice(0, 80)}" is not an http(s) address.` };
  const partial = withScheme + rest;
  for (const e of candidates(o)) {
    const mapped = withServiceVariables(concrete, e);
    const variable = /^\{\{(baseUrl|authUrl|legacyUrl)\}\}/.exec(mapped)?.[1] as 'baseUrl' | 'authUrl' | 'legacyUrl' | undefined;
    if (variable === undefined) continue;
    const signIn = signInPathRefusal(concrete, e);
    if (signIn !== undefined) return { kind: 'sign-in', message: signIn };
    const addressPath = new URL(e[variable]).pathname.replace(/\/+$/, '');
    const afterAuthority = partial.slice(AUTHORITY.exec(partial)?.[0].length ?? 0);
    const written = afterAuthority.startsWith(addressPath) ? `{{${variable}}}${afterAuthority.slice(addressPath.length)}` : mapped;
    return { kind: 'service', url: written, interfaceA: variable !== 'legacyUrl' };
  }
  return { kind: 'other', origin, url };
}

/** The connection's addresses, then each --host as all three addresses at once (as on the sandbox's one origin). */
function candidates(o: ImportOptions): Endpoints[] {
  const own = o.endpoints;
  return [own, ...o.hosts.map((h) => ({ ...own, authUrl: h, baseUrl: h, legacyUrl: h }))];
}
