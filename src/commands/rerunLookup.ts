// "Business Data: Re-run Lookup": runs a recorded (or saved) lookup again and opens the new result.
// Accepts a Lookups view element, or { resultUri, forceNewToken?, pauseMs? } (the quick fixes use it).
import type { Services } from '../features/services';
import { runLookup } from '../features/results/runLookup';
import { resolveLookupTarget } from './lookupArgs';

export interface RerunLookupArgs {
  readonly resultUri: string;
  readonly forceNewToken?: boolean;
  readonly pauseMs?: number;
}

export async function rerunLookup(services: Services, arg?: unknown): Promise<string | undefined> {
  const target = resolveLookupTarget(services, arg);
  const options = typeof arg === 'object' && arg !== null ? (arg as Partial<RerunLookupArgs>) : {};
  return runLookup(services, target.query, {
    forceNewToken: options.forceNewToken === true,
    pauseMs: typeof options.pauseMs === 'number' && options.pauseMs > 0 ? Math.min(options.pauseMs, 60_000) : undefined,
  });
}
