// Before Run with Data or Run Batch sends anything: the run's ceiling of data calls (the command's
// `maxCalls`, else the setting bizdata.batch.maxCalls; 0 is none), and one question when the run would
// make more calls than a connection's contract has left this period. The estimate and the refusal are
// the core's (core/contract/estimate.ts), as the command line's --dry-run and refusal are.
import * as vscode from 'vscode';
import { CallCeiling } from '../../core/contract/ceiling';
import { contractRefusal, estimateLines, estimateRun, type RunRate, type RunSize } from '../../core/contract/estimate';
import { count } from '../../core/contract/usage';
import { runLimit } from '../../core/report/limits';
import { safeLine } from '../../core/sanitize';
import type { Connection } from './connection';

export const RUN_ANYWAY = 'Run Anyway';

/** A run's part on one connection: the rows and how many of their requests go there. */
export interface CostPart {
  readonly connection: Connection;
  readonly size: Omit<RunSize, 'maxCalls'>;
}

/** The parts of a run whose rows send `reached` (one entry per request, its connection): requests per row counted by connection. */
export function costParts(reached: readonly Connection[], rows: number, done: number): CostPart[] {
  const perRow = new Map<Connection, number>();
  for (const c of reached) perRow.set(c, (perRow.get(c) ?? 0) + 1);
  return [...perRow].map(([connection, requestsPerRow]) => ({ connection, size: { rows, done, requestsPerRow } }));
}

/** The run's ceiling: `maxCalls` of the command's argument, else bizdata.batch.maxCalls; none for 0 or unset. */
export function editorCeiling(given: unknown): CallCeiling | undefined {
  const setting = vscode.workspace.getConfiguration('bizdata.batch').get<number>('maxCalls', 0);
  const n = typeof given === 'number' ? given : setting;
  return Number.isSafeInteger(n) && n > 0 ? new CallCeiling(n) : undefined;
}

/**
 * Whether the run goes on, and under which ceiling: nothing is asked when every connection's contract
 * has room for its calls; otherwise one modal names used and remaining and offers to run anyway or to
 * stop at what is left.
 */
export async function confirmRunCost(
  parts: readonly CostPart[],
  ceiling: CallCeiling | undefined,
  what: string,
): Promise<{ readonly go: boolean; readonly ceiling?: CallCeiling }> {
  for (const { connection, size } of parts) {
    const usage = await connection.getClient().contractUsage();
    const e = estimateRun({ ...size, ...(ceiling ? { maxCalls: ceiling.max } : {}) }, rateOf(connection), usage);
    const refusal = contractRefusal(e);
    if (refusal === undefined) continue;
    const left = e.usage?.remaining ?? 0;
    const stopAt = left > 0 ? `Stop After ${count(left)} Call${left === 1 ? '' : 's'}` : undefined;
    const detail = `${estimateLines(e).join('\n')}\n\nIf you go on, the service answers SC005 once the contract is used up.`;
    const answers = [RUN_ANYWAY, ...(stopAt ? [stopAt] : [])];
    const answer = await vscode.window.showWarningMessage(safeLine(`${what}: ${refusal}.`), { modal: true, detail }, ...answers);
    if (answer === RUN_ANYWAY) continue;
    if (answer === undefined || answer !== stopAt) return { go: false };
    // One ceiling for the whole run: the smallest that keeps every contract within what it has left.
    ceiling = new CallCeiling(Math.min(left, ceiling?.max ?? left));
  }
  return { go: true, ...(ceiling ? { ceiling } : {}) };
}

/** The connection's cap or what its limiter learned; the rate `auto` merely starts at is no known limit. */
function rateOf(connection: Connection): RunRate {
  const limit = runLimit(connection.getClient().limiterState());
  if (limit.source === 'unknown') return {};
  return { qps: limit.qps, from: limit.source };
}
