// Which re-run a code calls for, decided by the catalog's recovery: the quick fixes on result
// documents and the buttons of a failed lookup's message both offer it. Plain TypeScript.
import { describeCode } from '../../core/codes/codes';
import type { RerunLookupArgs } from './commandIds';

/** How long "Re-run after a pause" waits: the spec says wait and retry with the same token. */
export const RERUN_PAUSE_MS = 2000;

/** The arguments of `bizdata.rerunLookup`, minus the result URI the adapter adds. */
export interface RerunFix {
  readonly title: string;
  readonly forceNewToken?: true;
  readonly pauseMs?: number;
}

/** The quick fix for a code, or undefined when no re-run can help (support must act, or unknown code). */
export function rerunFixFor(code: string): RerunFix | undefined {
  switch (describeCode(code)?.recovery) {
    case 'reauthenticate-once':
      return { title: 'Get a new token and re-run', forceNewToken: true };
    case 'wait-and-retry':
      return { title: 'Re-run after a pause', pauseMs: RERUN_PAUSE_MS };
    default:
      return undefined;
  }
}

/** `bizdata.rerunLookup`'s argument for the fix on a result document (only the fields the fix sets). */
export function rerunArgs(resultUri: string, fix: RerunFix): RerunLookupArgs {
  return {
    resultUri,
    ...(fix.forceNewToken ? { forceNewToken: true } : {}),
    ...(fix.pauseMs !== undefined ? { pauseMs: fix.pauseMs } : {}),
  };
}
