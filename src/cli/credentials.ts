// Credentials for the command line: the environment first, otherwise a prompt on a terminal (hidden
// for secrets), never flags. Moved out of common.ts to keep it under 300 lines.
import type { Credentials, InterfaceId } from '../core/model';
import type { CredentialProvider } from '../core/ports';
import { UsageError, type CliIo } from './io';
import { promptHidden, promptVisible } from './prompt';

/** Environment first; otherwise ask once on a terminal. Memoised so concurrent calls ask once. */
export function credentialsFromEnvOrPrompt(io: CliIo): CredentialProvider {
  const cache = new Map<InterfaceId, Promise<Credentials | undefined>>();
  return (id) => {
    let p = cache.get(id);
    if (!p) {
      p = resolveCredentials(id, io);
      cache.set(id, p);
    }
    return p;
  };
}

/**
 * The credentials the environment gives in full, without asking: a run registers them as secrets
 * before anything is printed, also for an interface none of its requests signs in to.
 */
export function environmentCredentials(env: NodeJS.ProcessEnv): Credentials[] {
  const out: Credentials[] = [];
  if (env.BIZDATA_CONSUMER_KEY && env.BIZDATA_CONSUMER_SECRET) out.push({ interfaceId: 'a', consumerKey: env.BIZDATA_CONSUMER_KEY, consumerSecret: env.BIZDATA_CONSUMER_SECRET });
  if (env.BIZDATA_USER && env.BIZDATA_PASSWORD) out.push({ interfaceId: 'b', user: env.BIZDATA_USER, password: env.BIZDATA_PASSWORD });
  return out;
}

async function resolveCredentials(id: InterfaceId, io: CliIo): Promise<Credentials | undefined> {
  const env = io.env;
  const [nameVar, secretVar] = id === 'a' ? ['BIZDATA_CONSUMER_KEY', 'BIZDATA_CONSUMER_SECRET'] : ['BIZDATA_USER', 'BIZDATA_PASSWORD'];
  let name = env[nameVar] || undefined;
  let secret = env[secretVar] || undefined;
  if ((name === undefined || secret === undefined) && io.stdin.isTTY) {
    if (id === 'a') {
      name ??= await promptHidden('Consumer key (hidden): ', io.stdin, io.stderr);
      if (name !== undefined) secret ??= await promptHidden('Consumer secret (hidden): ', io.stdin, io.stderr);
    } else {
      name ??= await promptVisible('User name: ', io.stdin, io.stderr);
      if (name !== undefined) secret ??= await promptHidden('Password (hidden): ', io.stdin, io.stderr);
    }
  }
  if (!name || !secret) {
    throw new UsageError(`Set ${nameVar} and ${secretVar} in the environment, or run in a terminal to be asked for them. Credentials are never taken from flags.`);
  }
  return id === 'a' ? { interfaceId: 'a', consumerKey: name, consumerSecret: secret } : { interfaceId: 'b', user: name, password: secret };
}
