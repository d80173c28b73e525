// Service addresses given to the command line (flags and BIZDATA_* variables): one that carries a
// user name or password (user:password@) is refused before anything else, never repeated in the
// message; one that cannot be a service address (no scheme, plain http to another host) is refused
// with what to write instead.
import { checkServiceUrl } from '../core/http/serviceUrls';

interface Addresses {
  readonly 'auth-url'?: string;
  readonly 'base-url'?: string;
  readonly 'legacy-url'?: string;
  readonly sandbox?: string;
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
