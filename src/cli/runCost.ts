// What a run will cost, before it sends anything (send, test, batch and data runs): the estimate is
// the core's (core/contract/estimate.ts: rows × requests minus the rows done, the time at the
// connection's limit, the share of its contract); this file only shows it (--dry-run), asks at a
// terminal, or refuses in a script (exit 2, naming used and remaining) a run that would go over what a
// contract has left, unless --yes. --max-calls becomes the run's one ceiling of data calls.
import { CallCeiling } from '../core/contract/ceiling';
import { contractRefusal, estimateLines, estimateRun, refusalAdvice, type RunEstimate, type RunSize } from '../core/contract/estimate';
import { CoordinatorUnavailableError } from '../core/ports';
import type { ParsedRequest } from '../core/requests/requestFile';
import { safeLine } from '../core/sanitize';
import { EXIT, UsageError, type CliIo } from './io';
import type { Setup } from './makeClient';
import { printJson } from './output';
import { promptVisible } from './prompt';

export const COST_OPTIONS = { 'dry-run': { type: 'boolean' }, 'max-calls': { type: 'string' } } as const;

export const COST_HELP = `Cost:
  --dry-run            say what the run would cost and send nothing, not even a sign-in: the data
                       calls (rows × requests, minus the rows already done), how long at the
                       connection's configured or learned limit, and what share of what its
                       contract has left this period ("contract" in the connection; bizdata usage)
  --max-calls N        stop cleanly after N data calls (a retry is a call too): rows not done run
                       with the same command next time; exit status 5 when it stopped the run
  A run that would make more data calls than its connection's contract has left is refused before
  anything is sent (exit status 2, naming used and remaining), unless --yes; a terminal asks.`;

export interface CostValues {
  readonly 'dry-run'?: boolean;
  readonly 'max-calls'?: string;
  readonly yes?: boolean;
  readonly json?: boolean;
}

/** The run's part on one connection: its client, and the size of what it sends there. */
export interface CostPart {
  readonly setup: Pick<Setup, 'meter' | 'rate' | 'connection'>;
  readonly size: Omit<RunSize, 'maxCalls'>;
}

/** Go on, or stop here: a dry run said what the run would cost. */
export type CostVerdict = { readonly dryRun: true; readonly status: number } | { readonly dryRun: false };

/** --max-calls as a whole number of calls, 1 or more; a usage error otherwise. */
export function maxCallsOf(values: CostValues): number | undefined {
  const v = values['max-calls'];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`--max-calls must be a whole number of data calls, 1 or more, not "${v}".`);
  }
  return n;
}

/** The run's one ceiling of data calls, from --max-calls; undefined without it. */
export function ceilingOf(values: CostValues): CallCeiling | undefined {
  const max = maxCallsOf(values);
  return max === undefined ? undefined : new CallCeiling(max);
}

/** A request file's requests as parts, one per connection they go to, each row sending that connection's requests. */
export function requestParts(setupOf: (r: ParsedRequest) => Setup, requests: readonly ParsedRequest[], rows: number, done: number): CostPart[] {
  const perSetup = new Map<Setup, number>();
  for (const r of requests) if (!r.settings.disabled) perSetup.set(setupOf(r), (perSetup.get(setupOf(r)) ?? 0) + 1);
  return [...perSetup].map(([setup, requestsPerRow]) => ({ setup, size: { rows, done, requestsPerRow } }));
}

/** Weighs the run before anything is sent; see the file's first comment. `what` names it: "bizdata send rows.http". */
export async function weighRun(parts: readonly CostPart[], values: CostValues, io: CliIo, what: string): Promise<CostVerdict> {
  const maxCalls = maxCallsOf(values);
  const estimates: Array<{ readonly name: string; readonly e: RunEstimate }> = [];
  try {
    for (const p of parts) {
      const e = estimateRun({ ...p.size, ...(maxCalls !== undefined ? { maxCalls } : {}) }, await p.setup.rate(), await p.setup.meter?.usage());
      estimates.push({ name: p.setup.connection?.name ?? 'default', e });
    }
  } catch (err) {
    if (CoordinatorUnavailableError.is(err)) throw new UsageError(`nothing was sent: the contract's count cannot be read: ${err.message}`);
    throw err;
  }
  if (values['dry-run']) {
    if (values.json) printJson({ dryRun: true, connections: estimates.map(({ name, e }) => ({ connection: name, ...e })) }, io);
    else {
      const lines = [`Dry run of ${what}: nothing was sent, not even a sign-in.`];
      for (const { name, e } of estimates) {
        const refusal = contractRefusal(e);
        lines.push(`connection "${name}":`, ...estimateLines(e).map((l) => `  ${l}`));
        if (refusal) lines.push(`  without --yes the run is refused: ${refusal}`);
      }
      io.stdout.write(lines.map((l) => `${safeLine(l)}\n`).join(''));
    }
    return { dryRun: true, status: EXIT.ok };
  }
  for (const { e } of estimates) {
    const refusal = contractRefusal(e);
    if (refusal === undefined || values.yes === true) continue;
    if (io.stdin.isTTY && io.stderr.isTTY) {
      const answer = await promptVisible(`${what}: ${refusal}. Type yes to run it anyway: `, io.stdin, io.stderr);
      if (answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)) continue;
      throw new UsageError(`Not confirmed; nothing was sent: ${refusal}.`);
    }
    throw new UsageError(`nothing was sent: ${refusal}. ${refusalAdvice(e)}`);
  }
  return { dryRun: false };
}
