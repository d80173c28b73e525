// "Business Data: Re-run Lookup": runs a recorded (or saved) lookup again, with the connection it
// went to (not the active one), and opens the new result.
// Accepts a Lookups view element, or { resultUri, forceNewToken?, pauseMs? } (the quick fixes use it).
import { REDACTED } from '../core/redact';
import { lookUpAndShow } from '../features/results/lookUpAndShow';
import { UserError } from '../features/shared/userError';
import type { Services } from '../features/services';
import { field } from './args';
import { resolveLookupTarget } from './lookupArgs';

/** The longest pause a caller may ask for before the re-run. */
const MAX_PAUSE_MS = 60_000;

export async function rerunLookup(services: Services, arg?: unknown): Promise<string | undefined> {
  const target = resolveLookupTarget(services, arg);
  if (target.query.kind === 'request' && JSON.stringify(target.query).includes(REDACTED)) {
    throw new UserError('This request held a secret (a value typed at a secret-looking # @prompt, or a password or token), which the history does not keep; send it again from its request file.');
  }
  const pauseMs = field(arg, 'pauseMs');
  const connection = target.connection === undefined ? undefined : services.connections.require(target.connection, 'Cannot re-run this lookup');
  return lookUpAndShow(services, target.query, {
    connection,
    forceNewToken: field(arg, 'forceNewToken') === true,
    pauseMs: typeof pauseMs === 'number' && pauseMs > 0 ? Math.min(pauseMs, MAX_PAUSE_MS) : undefined,
  });
}
