// Service addresses given to the command line that carry a user name or password (user:password@):
// refused before anything else, and never repeated in the message.

interface Addresses {
  readonly 'auth-url'?: string;
  readonly 'base-url'?: string;
  readonly 'legacy-url'?: string;
  readonly sandbox?: string;
}

/** Why the addresses cannot be used, or undefined. */
export function userInfoProblem(values: Addresses, env: NodeJS.ProcessEnv): string | undefined {
  const given: Array<[string, string | undefined]> = [
    ['--auth-url (BIZDATA_AUTH_URL)', values['auth-url'] ?? env.BIZDATA_AUTH_URL],
    ['--base-url (BIZDATA_BASE_URL)', values['base-url'] ?? env.BIZDATA_BASE_URL],
    ['--legacy-url (BIZDATA_LEGACY_URL)', values['legacy-url'] ?? env.BIZDATA_LEGACY_URL],
    ['--sandbox', values.sandbox],
  ];
  const bad = given.find(([, url]) => url !== undefined && /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url));
  return bad && `${bad[0]} contains a user name or password before the host (user:password@). Remove them: credentials come only from the environment or a prompt, never from an address.`;
}
