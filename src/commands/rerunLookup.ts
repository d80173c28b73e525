// "Business Data: Re-run Lookup": runs a recorded (or saved) lookup again, with the connection it
// went to (not the active one), and opens the new result.
// Accepts a Lookups view element, or { resultUri, forceNewToken?, pauseMs? } (the quick fixes use it).
import { lookUpAndShow } from '../features/results/lookUpAndShow';
import type { Services } from '../features/services';
import { field } from './args';
import { resolveLookupTarget } from './lookupArgs';

/** The longest pause a caller may ask for before the re-run. */
const MAX_PAUSE_MS = 60_000;

export async function rerunLookup(services: Services, arg?: unknown): Promise<string | undefined> {
  const target = resolveLookupTarget(services, arg);
  const pauseMs = field(arg, 'pauseMs');
  const connection = target.connection === undefined ? undefined : services.connections.require(target.connection, 'Cannot re-run this lookup');
  return lookUpAndShow(services, target.query, {
    connection,
    forceNewToken: field(arg, 'forceNewToken') === true,
    pauseMs: typeof pauseMs === 'number' && pauseMs > 0 ? Math.min(pauseMs, MAX_PAUSE_MS) : undefined,
  });
}
