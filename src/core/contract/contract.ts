// A connection's contract with the service: at most `maxCalls` data calls per period (a day, a month
// or a year, in UTC) counted from `startsOn`, the way the operator's agreement states it. Here: the
// contract's shape and checks (schemas/connections.schema.json "contract"), and which period a moment
// falls in, pure, so every host, store and test agrees on when a period starts and resets.
import { didYouMean } from '../closest';

export const CONTRACT_PERIODS = ['day', 'month', 'year'] as const;
export type ContractPeriod = (typeof CONTRACT_PERIODS)[number];
export const CONTRACT_FIELDS = ['maxCalls', 'period', 'startsOn'] as const;
/** The most calls a contract may state (the sandbox's contractLimit has the same bound). */
export const MAX_CONTRACT_CALLS = 1_000_000_000_000;

export interface Contract {
  /** Data calls the contract permits per period; sign-ins are not data calls. */
  readonly maxCalls: number;
  readonly period: ContractPeriod;
  /** The first day of the first period, `YYYY-MM-DD` (UTC); periods repeat from it, before it too. */
  readonly startsOn: string;
}

/** One period of a contract: epoch milliseconds of its start (inclusive) and end (the reset), and its name. */
export interface ContractSpan {
  readonly start: number;
  readonly end: number;
  /** The start as `YYYY-MM-DD`: the name its count is kept under. */
  readonly key: string;
}

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The date `YYYY-MM-DD` as epoch ms of its UTC midnight; undefined for anything that is not a real date. */
export function parseDate(text: string): number | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = Date.UTC(y, mo - 1, d);
  const back = new Date(at);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? at : undefined;
}

export function dateText(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The anchor's day `months` months later, on the month's last day when it has fewer (Jan 31 → Feb 28). */
function addMonths(anchor: Date, months: number): number {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(anchor.getUTCDate(), last));
}

/** The period of `contract` that holds `now` (epoch ms). `startsOn` must be a date (checkContract). */
export function periodAt(contract: Contract, now: number): ContractSpan {
  const anchorMs = parseDate(contract.startsOn) ?? 0;
  if (contract.period === 'day') {
    const n = Math.floor((now - anchorMs) / DAY_MS);
    const start = anchorMs + n * DAY_MS;
    return { start, end: start + DAY_MS, key: dateText(start) };
  }
  const step = contract.period === 'month' ? 1 : 12;
  const anchor = new Date(anchorMs);
  const at = new Date(now);
  let n = Math.floor(((at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth())) / step);
  while (addMonths(anchor, n * step) > now) n--;
  while (addMonths(anchor, (n + 1) * step) <= now) n++;
  const start = addMonths(anchor, n * step);
  return { start, end: addMonths(anchor, (n + 1) * step), key: dateText(start) };
}

/** "today", "this month", "this year": the period now, as a sentence names it. */
export function periodWord(period: ContractPeriod): string {
  return period === 'day' ? 'today' : `this ${period}`;
}

/** A problem of a contract: the field it is about (undefined: the whole value), and `key` when it is the field's name. */
export interface ContractProblem {
  readonly field?: string;
  readonly message: string;
  readonly key?: boolean;
}

/**
 * Why a value cannot be a contract, one message per problem with the field it is about; none when it
 * is one. `who` names it: `connection "prod", field "contract"`.
 */
export function contractProblems(raw: unknown, who: string): ContractProblem[] {
  const example = '{"maxCalls": 100000, "period": "month", "startsOn": "2025-01-01"}';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [{ message: `${who} must be an object such as ${example}.` }];
  const c = raw as Record<string, unknown>;
  const out: ContractProblem[] = [];
  for (const k of Object.keys(c)) {
    if ((CONTRACT_FIELDS as readonly string[]).includes(k)) continue;
    const fields = `its fields are ${CONTRACT_FIELDS.join(', ')}`;
    out.push({ field: k, key: true, message: `${who} has an unknown field "${shown(k)}"; ${fields}.${didYouMean(k, CONTRACT_FIELDS)}` });
  }
  for (const k of CONTRACT_FIELDS) if (c[k] === undefined) out.push({ message: `${who} needs "${k}": write it as ${example}.` });
  const max = c.maxCalls;
  if (max !== undefined && !(typeof max === 'number' && Number.isInteger(max) && max >= 1 && max <= MAX_CONTRACT_CALLS)) {
    const message = `${who}, "maxCalls" must be a whole number of data calls from 1 to ${MAX_CONTRACT_CALLS}, not ${shownValue(max)}.`;
    out.push({ field: 'maxCalls', message });
  }
  const period = c.period;
  if (period !== undefined && !(typeof period === 'string' && (CONTRACT_PERIODS as readonly string[]).includes(period))) {
    const hint = typeof period === 'string' ? didYouMean(period, CONTRACT_PERIODS) : '';
    out.push({ field: 'period', message: `${who}, "period" must be "day", "month" or "year", not ${shownValue(period)}.${hint}` });
  }
  const starts = c.startsOn;
  if (starts !== undefined && !(typeof starts === 'string' && parseDate(starts) !== undefined)) {
    const message = `${who}, "startsOn" must be the first day of a period as YYYY-MM-DD (UTC), such as "2025-01-01", not ${shownValue(starts)}.`;
    out.push({ field: 'startsOn', message });
  }
  return out;
}

function shown(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);
}

function shownValue(v: unknown): string {
  return shown(typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v)));
}
