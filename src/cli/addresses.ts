// The service addresses a command works with: each from its flag (or the connection's field standing
// for it), else --sandbox, else the BIZDATA_* variable. One that carries a user name or password
// (user:password@) is refused before anything else, never repeated in the message; one that cannot be
// a service address (no scheme, plain http to another host) is refused with what to write instead.
import type { Connection } from '../core/connections/connection';
import { AUTH_VERSION_B, ORG_VERSION_B } from '../core/constants';
import { checkServiceUrl } from '../core/http/serviceUrls';
import type { Endpoints } from '../core/model';
import { UsageError } from './io';

interface Addresses {
  readonly 'auth-url'?: string;
  readonly 'base-url'?: string;
  readonly 'legacy-url'?: string;
  readonly origin?: string;
  readonly sandbox?: string;
}

/** The addresses and Origin of a run, from `values` (flags over the connection's fields: withConnectionFields) and `env`. */
export function givenAddresses(values: Addresses, env: NodeJS.ProcessEnv): { authUrl?: string; baseUrl?: string; legacyUrl?: string; origin?: string } {
  const sandbox = values.sandbox;
  const pick = (flag: string | undefined, name: string): string | undefined => flag ?? sandbox ?? (env[name] || undefined);
  let origin = values.origin ?? (env.BIZDATA_ORIGIN || undefined);
  if (origin === undefined && sandbox !== undefined && URL.canParse(sandbox)) origin = new URL(sandbox).origin;
  return {
    authUrl: pick(values['auth-url'], 'BIZDATA_AUTH_URL'),
    baseUrl: pick(values['base-url'], 'BIZDATA_BASE_URL'),
    legacyUrl: pick(values['legacy-url'], 'BIZDATA_LEGACY_URL'),
    origin,
  };
}

/** The run's endpoints from its addresses, the connection's version segments (or the spec's) and Interface A's version. */
export function endpointsOf(a: ReturnType<typeof givenAddresses>, connection: Connection | undefined, aVersion: string | undefined): Endpoints {
  return {
    authUrl: a.authUrl ?? '',
    baseUrl: a.baseUrl ?? '',
    legacyUrl: a.legacyUrl ?? '',
    origin: a.origin ?? '',
    authVersion: connection?.endpoints.authVersion ?? AUTH_VERSION_B,
    orgVersion: connection?.endpoints.orgVersion ?? ORG_VERSION_B,
    ...(aVersion !== undefined ? { aVersion } : {}),
  };
}

/** Why the addresses cannot be used, or undefined. */
export function userInfoProblem(values: Addresses, env: NodeJS.ProcessEnv): string | undefined {
  const given = addressesGiven(values, env);
  const bad = given.find(([, url]) => url !== undefined && /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url));
  const where = 'credentials come only from the environment or a prompt, never from an address';
  if (bad) return `${bad[0]} contains a user name or password before the host (user:password@). Remove them: ${where}.`;
  for (const [label, url] of given) {
    const problem = url === undefined ? undefined : checkServiceUrl(label, url.trim());
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** `--sandbox URL` as given: why it cannot be the sandbox's address, or undefined. */
export function sandboxUrlProblem(url: string): string | undefined {
  return userInfoProblem({ sandbox: url }, {});
}

function addressesGiven(values: Addresses, env: NodeJS.ProcessEnv): Array<[string, string | undefined]> {
  return [
    ['--auth-url (BIZDATA_AUTH_URL)', values['auth-url'] ?? (env.BIZDATA_AUTH_URL || undefined)],
    ['--base-url (BIZDATA_BASE_URL)', values['base-url'] ?? (env.BIZDATA_BASE_URL || undefined)],
    ['--legacy-url (BIZDATA_LEGACY_URL)', values['legacy-url'] ?? (env.BIZDATA_LEGACY_URL || undefined)],
    ['--sandbox', values.sandbox],
  ];
}

/** Interface A's version segment from --a-version or BIZDATA_A_VERSION; one that is not a path segment is a usage error. */
export function aVersionFrom(values: { 'a-version'?: string }, env: NodeJS.ProcessEnv): string | undefined {
  const aVersion = values['a-version'] ?? (env.BIZDATA_A_VERSION || undefined);
  if (aVersion !== undefined && !/^[A-Za-z0-9._-]{1,16}$/.test(aVersion)) {
    throw new UsageError('--a-version (BIZDATA_A_VERSION) must be one path segment of letters, digits, dots or dashes, such as v1.');
  }
  return aVersion;
}
