// What a run will cost before it runs, decided once for every host (the CLI's --dry-run and its
// refusal, the editor's Run with Data and Run Batch, the run's preflight): the data calls it would
// make (rows × requests, minus the rows already done, at most its ceiling), how long at the
// connection's configured or learned limit, and what share of the contract's remaining calls; and
// whether it would go over what is left, named with the used and remaining counts. Pure.
import { periodWord } from './contract';
import { count, percent, type ContractUsage } from './usage';

export interface RunSize {
  /** Rows of the data file or inputs of the batch (1 for a request file run without data). */
  readonly rows: number;
  /** Rows an earlier run finished (they are skipped). */
  readonly done: number;
  /** Data calls one row makes: the enabled requests of a request file, 1 for a lookup. */
  readonly requestsPerRow: number;
  /** The run's ceiling (--max-calls), when it has one. */
  readonly maxCalls?: number;
}

/** The rate calls go out at: the connection's cap, else what the limiter learned; unknown under `auto` before any run. */
export interface RunRate {
  readonly qps?: number;
  readonly from?: 'configured' | 'learned';
}

export interface RunEstimate {
  readonly rows: number;
  readonly done: number;
  readonly requestsPerRow: number;
  /** The calls of the rows not done, before the ceiling. */
  readonly wanted: number;
  /** The calls the run would make: `wanted`, at most the ceiling. */
  readonly calls: number;
  readonly maxCalls?: number;
  readonly qps?: number;
  readonly qpsFrom?: 'configured' | 'learned';
  /** At the rate: `calls / qps`. */
  readonly seconds?: number;
  /** The contract's usage before the run, when the connection states a contract. */
  readonly usage?: ContractUsage;
  /** The run's calls as a share of what the contract has left (1 = all of it). */
  readonly share?: number;
  /** The run would make more calls than the contract has left this period. */
  readonly exceeds: boolean;
}

export function estimateRun(size: RunSize, rate: RunRate, usage: ContractUsage | undefined): RunEstimate {
  const rows = Math.max(0, size.rows - size.done);
  const wanted = rows * Math.max(0, size.requestsPerRow);
  const calls = size.maxCalls === undefined ? wanted : Math.min(wanted, size.maxCalls);
  const qps = rate.qps !== undefined && Number.isFinite(rate.qps) && rate.qps > 0 ? rate.qps : undefined;
  return {
    rows: size.rows,
    done: size.done,
    requestsPerRow: size.requestsPerRow,
    wanted,
    calls,
    ...(size.maxCalls !== undefined ? { maxCalls: size.maxCalls } : {}),
    ...(qps !== undefined ? { qps, qpsFrom: rate.from ?? 'configured', seconds: calls / qps } : {}),
    ...(usage ? { usage, share: usage.remaining > 0 ? calls / usage.remaining : calls > 0 ? Infinity : 0 } : {}),
    exceeds: usage !== undefined && calls > usage.remaining,
  };
}

/**
 * Why the run is refused before anything is sent (it would go over what the contract has left),
 * naming used and remaining; undefined when it fits.
 */
export function contractRefusal(e: RunEstimate): string | undefined {
  const u = e.usage;
  if (!u || !e.exceeds) return undefined;
  const sc005 = u.reachedAt !== undefined ? ` (the service answered SC005 at ${u.reachedAt})` : '';
  const left = `whose contract has ${count(u.remaining)} left ${periodWord(u.period)}${sc005}`;
  const used = `${count(u.used)} of ${count(u.maxCalls)} used since ${u.periodStart}, resetting on ${u.resetsOn}`;
  return `this run would make ${count(e.calls)} data calls on the connection "${u.connection}", ${left}: ${used}`;
}

/** What to do instead of a refused run, for a command line. */
export function refusalAdvice(e: RunEstimate): string {
  const left = e.usage?.remaining ?? 0;
  const cap = left > 0 ? ` --max-calls ${left} to stop at what is left,` : '';
  return `Add${cap} --yes to run it anyway (the service answers SC005 once the contract is used up), or --dry-run to see the cost.`;
}

/** A duration as people read it: "0.4 s", "12 s", "4 min 10 s", "1 h 7 min", "2 d 3 h". */
export function durationText(seconds: number): string {
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  // The larger unit and, when not 0, the next one down: "1 h 7 min", "3 d".
  const two = (big: number, bigName: string, small: number, smallName: string): string => `${big} ${bigName}${small ? ` ${small} ${smallName}` : ''}`;
  if (s < 86_400) return two(Math.floor(s / 3600), 'h', Math.floor((s % 3600) / 60), 'min');
  return two(Math.floor(s / 86_400), 'd', Math.floor((s % 86_400) / 3600), 'h');
}

/** The estimate as lines for people: calls (rows × requests), time, share of the contract. */
export function estimateLines(e: RunEstimate): string[] {
  const rows = e.done > 0 ? `${count(e.rows)} rows, ${count(e.done)} done before: ${count(e.rows - e.done)}` : count(e.rows);
  const capped = e.calls < e.wanted ? `; the ceiling (--max-calls ${count(e.maxCalls ?? e.calls)}) stops it after ${count(e.calls)}` : '';
  const lines = [`data calls: ${rows} rows × ${e.requestsPerRow} request${e.requestsPerRow === 1 ? '' : 's'} = ${count(e.wanted)}${capped}`];
  if (e.seconds !== undefined) {
    const from = e.qpsFrom === 'learned' ? 'limit learned for this account' : "connection's configured limit";
    lines.push(`time: about ${durationText(e.seconds)} at ${Math.round((e.qps ?? 0) * 10) / 10} calls per second (the ${from})`);
  } else {
    lines.push('time: unknown: no limit is configured (--qps, "qps") and none was learned yet (auto finds it during the first run)');
  }
  const u = e.usage;
  if (u) {
    const left = count(u.remaining);
    const share = u.remaining > 0 ? `${percent(e.calls, u.remaining)} of the ${left} calls left` : `more than the ${left} calls left`;
    const over = e.exceeds ? ': more than the contract has left' : '';
    const used = `${count(u.used)} of ${count(u.maxCalls)} used since ${u.periodStart}; resets on ${u.resetsOn}`;
    lines.push(`contract "${u.connection}": ${share} ${periodWord(u.period)}${over} (${used})`);
  } else {
    lines.push('contract: none stated for the connection ("contract" in its connection counts its calls and shows what is left)');
  }
  return lines;
}
