// The retry policy, pure: which answers and transport failures are worth sending again, and how long
// to wait first. Exchange applies it; every attempt still goes through the limiter and the guard.
import { headerValue } from './http';
import type { Recognised } from '../codes/recognise';

export interface RetryPolicy {
  /** Retries of a throttled request (SC006, HTTP 429, 00045/00046) with the same token. */
  readonly maxThrottleRetries: number;
  /** Retries of an idempotent request (GET) after a reset, refused connection, timeout, 502, 503 or 504. */
  readonly maxTransientRetries: number;
  /** First backoff ceiling; doubled per retry up to `maxDelayMs` (full jitter: a random wait below it). */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest Retry-After honoured by waiting; a longer one ends the call at once, with the time to come back. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxThrottleRetries: 8,
  maxTransientRetries: 2,
  baseDelayMs: 250,
  maxDelayMs: 4000,
  maxRetryAfterMs: 60_000,
};

/** Statuses of a gateway or an overloaded service: the same GET may well succeed a moment later. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The service asked this caller (and every other of the customer) to slow down. */
export function isThrottle(status: number, r: Recognised | undefined): boolean {
  return status === 429 || r?.code === 'SC006' || r?.recovery === 'wait-and-retry';
}

export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUSES.has(status);
}

/**
 * Retry-After as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 10.2.3).
 * Undefined when absent or unreadable; a date in the past is 0.
 */
export function retryAfterMs(headers: Readonly<Record<string, string | string[] | undefined>>, now: number = Date.now()): number | undefined {
  const raw = headerValue(headers['retry-after'])?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+$/.test(raw)) return Math.min(Number(raw), 86_400) * 1000;
  const at = Date.parse(raw);
  if (!Number.isFinite(at) || !/[a-z]/i.test(raw)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff with full jitter: a random wait in [0, min(max, base * 2^retry)). */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

export interface RetryOptions {
  /** Throttle retries (SC006, HTTP 429) per request before the failure reaches the caller. */
  readonly maxRetries?: number;
  /** Retries of a lookup (GET) after a reset, refused connection, timeout, 502, 503 or 504. */
  readonly maxTransientRetries?: number;
  /** The pause after a throttled call without Retry-After, doubled per throttle (used when the client makes its own limiter). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}
