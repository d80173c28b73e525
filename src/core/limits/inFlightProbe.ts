// How many calls may be in flight before the service first refuses one (issue 27), as a pure
// reducer: one refusal closes the service's window, so the start is shaped for the limit that wastes
// nothing to be found first. A refusal for the rate comes when the window is used in full; one for
// the concurrency closes it after a few calls. So calls in flight start at START's and grow by one
// at most per round trip (an accepted answer of a call started after the last step with all the
// calls allowed in flight shows the level works), and only as far as the rate needs (Little's law):
// - with fast answers and a given rate not yet seen at work, the rate the service has accepted, not
//   the cap: a few calls in flight fill a window of fast answers long before the concurrency binds;
// - with slow answers, no further than answers have shown the service takes, plus one.
import { inFlightFor, START } from './adaptive';

export interface InFlightProbe {
  /** Calls that may be in flight at once now. */
  readonly allowed: number;
  /** When `allowed` last grew (epoch ms): only an answer to a call started since shows it works. */
  readonly raisedAt: number;
}

export function startProbe(now: number): InFlightProbe {
  return { allowed: START.concurrency, raisedAt: now };
}

/** What the calls need in flight: `rate` × round trip with headroom; Infinity while answers are slow (then only what they showed bounds it). */
export function probeNeed(rate: number, roundTripMs: number, slow: boolean): number {
  return slow ? Infinity : inFlightFor(rate, roundTripMs);
}

/**
 * A call was accepted that started at `startedAt` with `level` calls in flight, itself included:
 * one more may be in flight when it started since the last step with all the calls allowed in
 * flight (the service took that many, a round trip at that level has passed), and `need` is higher.
 */
export function onProbeAnswer(p: InFlightProbe, call: { readonly startedAt: number; readonly level: number }, now: number, need: number): InFlightProbe {
  if (call.startedAt < p.raisedAt || call.level < p.allowed || need <= p.allowed) return p;
  return { allowed: p.allowed + 1, raisedAt: now };
}
