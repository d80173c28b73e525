// Credentials for the command line: the environment first, otherwise a prompt on a terminal (hidden
// for secrets), never flags. They belong to one connection: BIZDATA_CONSUMER_KEY and the others are
// the run's connection's; any connection's own are BIZDATA_<NAME>_CONSUMER_KEY and so on (the name
// upper-cased, every other character as "_"), so a request file that names another connection never
// carries the run's credentials there.
import { CREDENTIAL_SUFFIXES, credentialVariables } from '../core/connections/environmentNames';
import type { Credentials, InterfaceId } from '../core/model';
import type { CredentialProvider } from '../core/ports';
import { UsageError, type CliIo } from './io';
import { promptHidden, promptVisible } from './prompt';

export const CREDENTIALS_HELP = `Credentials come only from the environment or, in a terminal, a hidden prompt:
  Interface A: BIZDATA_CONSUMER_KEY, BIZDATA_CONSUMER_SECRET
  Interface B: BIZDATA_USER, BIZDATA_PASSWORD
  These are the run's connection's only. A connection's own credentials are the same names with
  its name after BIZDATA_, upper-cased, other characters as "_": for a connection "eu-prod",
  BIZDATA_EU_PROD_CONSUMER_KEY, BIZDATA_EU_PROD_CONSUMER_SECRET, BIZDATA_EU_PROD_USER and
  BIZDATA_EU_PROD_PASSWORD. They win over the plain ones for the run's connection, and are the only
  ones a request sent through another connection ("# @connection NAME") may use: without them (or a
  terminal to ask in), such a request is refused at its line and nothing is sent.`;

/** Whose credentials a provider gives: a connection's name (undefined: flags and variables alone), and whether it is the run's own. */
export interface CredentialOwner {
  readonly connection?: string;
  readonly own: boolean;
}

/** Whether the environment gives the connection's own credentials of interface `id`, both parts. */
export function hasNamedCredentials(env: NodeJS.ProcessEnv, connection: string, id: InterfaceId): boolean {
  return credentialVariables(id, connection).every((v) => (env[v] ?? '') !== '');
}

/** Environment first; otherwise ask once on a terminal. Memoised so concurrent calls ask once. */
export function credentialsFromEnvOrPrompt(io: CliIo, owner: CredentialOwner = { own: true }): CredentialProvider {
  const cache = new Map<InterfaceId, Promise<Credentials | undefined>>();
  return (id) => {
    let p = cache.get(id);
    if (!p) {
      p = resolveCredentials(id, io, owner);
      cache.set(id, p);
    }
    return p;
  };
}

/**
 * Every pair of credentials the environment gives in full, the plain ones and every connection's own
 * (BIZDATA_<NAME>_CONSUMER_KEY …), without asking: a run registers them all as secrets before anything
 * is printed, also for an interface or a connection none of its requests reaches.
 */
export function environmentCredentials(env: NodeJS.ProcessEnv): Credentials[] {
  const out: Credentials[] = [];
  for (const [variable, name] of Object.entries(env)) {
    const m = /^(BIZDATA_(?:\w+_)?)(CONSUMER_KEY|USER)$/.exec(variable);
    if (!m || !name) continue;
    const id: InterfaceId = m[2] === 'USER' ? 'b' : 'a';
    const secret = env[m[1] + CREDENTIAL_SUFFIXES[id][1]];
    if (secret) out.push(asCredentials(id, name, secret));
  }
  return out;
}

/** The variables read for `owner`, first wins: its own, then (for the run's connection) the plain ones. */
function candidates(id: InterfaceId, owner: CredentialOwner): Array<readonly [string, string]> {
  return [...(owner.connection !== undefined ? [credentialVariables(id, owner.connection)] : []), ...(owner.own ? [credentialVariables(id)] : [])];
}

/** What the environment gives for `owner`: the first pair of variables with any part set (a part may be missing). */
function fromEnv(id: InterfaceId, env: NodeJS.ProcessEnv, owner: CredentialOwner): { name?: string; secret?: string } {
  const given = candidates(id, owner).find(([n, s]) => env[n] || env[s]);
  return { name: (given && env[given[0]]) || undefined, secret: (given && env[given[1]]) || undefined };
}

/** The credentials the environment gives `owner`, complete, without asking; undefined otherwise. */
export function credentialsInEnv(id: InterfaceId, env: NodeJS.ProcessEnv, owner: CredentialOwner): Credentials | undefined {
  const { name, secret } = fromEnv(id, env, owner);
  return name && secret ? asCredentials(id, name, secret) : undefined;
}

function asCredentials(id: InterfaceId, name: string, secret: string): Credentials {
  return id === 'a' ? { interfaceId: 'a', consumerKey: name, consumerSecret: secret } : { interfaceId: 'b', user: name, password: secret };
}

async function resolveCredentials(id: InterfaceId, io: CliIo, owner: CredentialOwner): Promise<Credentials | undefined> {
  // A part the environment lacks is asked for on a terminal.
  let { name, secret } = fromEnv(id, io.env, owner);
  if ((name === undefined || secret === undefined) && io.stdin.isTTY) {
    const of = owner.own || owner.connection === undefined ? '' : ` for connection "${owner.connection}"`;
    if (id === 'a') {
      name ??= await promptHidden(`Consumer key${of} (hidden): `, io.stdin, io.stderr);
      if (name !== undefined) secret ??= await promptHidden(`Consumer secret${of} (hidden): `, io.stdin, io.stderr);
    } else {
      name ??= await promptVisible(`User name${of}: `, io.stdin, io.stderr);
      if (name !== undefined) secret ??= await promptHidden(`Password${of} (hidden): `, io.stdin, io.stderr);
    }
  }
  if (!name || !secret) throw new UsageError(missingCredentials(id, owner));
  return asCredentials(id, name, secret);
}

function missingCredentials(id: InterfaceId, owner: CredentialOwner): string {
  const [[n, s], ...rest] = candidates(id, owner);
  const also = rest.map(([rn, rs]) => ` (or ${rn} and ${rs})`).join('');
  const whose = owner.own ? '' : ` for the connection "${owner.connection}": the run's own credentials (${credentialVariables(id).join(', ')}) never go to another connection`;
  return `Set ${n} and ${s}${also} in the environment${whose}, or run in a terminal to be asked for them. Credentials are never taken from flags.`;
}
