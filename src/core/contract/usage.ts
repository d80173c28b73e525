// How much of a contract's period is used, read from the one count every process keeps (a UsageStore:
// the state directory, or Redis with a coordinator): used, remaining, the period's start and reset,
// and whether the service said SC005. Pure apart from the one read; the words are the same in
// `bizdata usage`, the dry run and the editor's status bar and Connections view.
import type { UsageStore } from '../ports';
import { type Contract, type ContractPeriod, type ContractSpan, dateText, periodAt, periodWord } from './contract';

/** The usage thresholds the editor warns at, in per cent of `maxCalls`. */
export const USAGE_WARNINGS = [80, 95] as const;

/** A contract's usage now: what `bizdata usage --json` prints. */
export interface ContractUsage {
  /** The connection whose contract it is. */
  readonly connection: string;
  readonly used: number;
  /** Calls left this period: 0 once used up or after SC005. */
  readonly remaining: number;
  readonly maxCalls: number;
  readonly period: ContractPeriod;
  /** The period's first day and the day it resets (the next period's first), `YYYY-MM-DD` (UTC). */
  readonly periodStart: string;
  readonly resetsOn: string;
  /** When the service answered SC005 in this period (ISO 8601): no data call is sent until the reset or `bizdata usage --reset`. */
  readonly reachedAt?: string;
}

/** How long a period's record is kept: to its end, then a month more for a late reader. */
export function keepMsOf(span: ContractSpan, now: number): number {
  return Math.max(0, span.end - now) + 31 * 86_400_000;
}

export async function readUsage(store: UsageStore, scope: string, connection: string, contract: Contract, now: number): Promise<ContractUsage> {
  const span = periodAt(contract, now);
  const record = await store.read(scope, span.key);
  const reached = record.reachedAt !== undefined;
  return {
    connection,
    used: record.used,
    remaining: reached ? 0 : Math.max(0, contract.maxCalls - record.used),
    maxCalls: contract.maxCalls,
    period: contract.period,
    periodStart: span.key,
    resetsOn: dateText(span.end),
    ...(reached ? { reachedAt: new Date(record.reachedAt ?? 0).toISOString() } : {}),
  };
}

/** Lifts the period's SC005 mark (the operator raised the limit); the count stays. Returns the usage after. */
export async function resetReached(store: UsageStore, scope: string, connection: string, contract: Contract, now: number): Promise<ContractUsage> {
  await store.clearReached(scope, periodAt(contract, now).key);
  return readUsage(store, scope, connection, contract, now);
}

/** The highest warning threshold the usage is at (80, 95), 100 once used up or after SC005, else 0. */
export function usageLevel(u: ContractUsage): number {
  if (u.reachedAt !== undefined || u.used >= u.maxCalls) return 100;
  const percent = (u.used / u.maxCalls) * 100;
  return [...USAGE_WARNINGS].reverse().find((t) => percent >= t) ?? 0;
}

/** A number as people read it: 1,234,567. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A share in per cent, to one decimal below 10 %: "0.4 %", "81 %". */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return part > 0 ? '∞ %' : '0 %';
  const p = (part / whole) * 100;
  return `${p < 10 ? Math.round(p * 10) / 10 : Math.round(p)} %`;
}

/** "812 of 1,000 data calls used this month (81 %), 188 left; resets on 2025-07-01", and SC005 when the service said it. */
export function usageLine(u: ContractUsage): string {
  const share = `${count(u.used)} of ${count(u.maxCalls)} data calls used ${periodWord(u.period)} (${percent(u.used, u.maxCalls)})`;
  const used = `${share}, ${count(u.remaining)} left; resets on ${u.resetsOn}`;
  if (u.reachedAt === undefined) return used;
  return `${used}. The service answered SC005 (contract limit reached) at ${u.reachedAt}: no data call is sent until then`;
}

/** The warning at a threshold (usageLevel): once used up, or at 80 % and 95 % of the period. */
export function usageWarning(u: ContractUsage): string {
  const who = `the connection "${u.connection}"`;
  const when = periodWord(u.period);
  if (u.reachedAt !== undefined) {
    const until = `no data call is sent until ${u.resetsOn}, or until "bizdata usage --reset" once the operator raised the limit`;
    return `${who} reached its contract's limit ${when} (the service answered SC005): ${until}.`;
  }
  if (u.used >= u.maxCalls) {
    const until = `it resets on ${u.resetsOn}, and the service may answer SC005 until then`;
    return `${who} has used all ${count(u.maxCalls)} data calls of its contract ${when}; ${until}.`;
  }
  const used = `${count(u.used)} of ${count(u.maxCalls)} data calls`;
  return `${who} has used ${percent(u.used, u.maxCalls)} of its contract ${when} (${used}); ${count(u.remaining)} left, resets on ${u.resetsOn}.`;
}
