// A customer (a contract): its limits, its subscriber number's expiry and its statistics.
import type { SandboxCustomerConfig } from './config';
import { DEFAULT_CONCURRENCY, DEFAULT_QPS } from './defaults';
import { parseIsoTime } from './isoTime';
import { CustomerLimiter } from './limits';

export interface CustomerStats {
  tokenRequests: number;
  authSuccesses: number;
  authFailures: number;
  dataCalls: number;
  /** Count of each result or error code returned to this customer; successes count as CM000. */
  resultCodes: Record<string, number>;
  /** Highest number of data calls in flight at once. */
  maxConcurrency: number;
  /** Successful data calls counted against contractLimit. */
  contractUsed: number;
}

export interface SandboxStats {
  /** Every non-admin request, attributed to a customer or not. */
  requests: number;
  customers: Record<string, CustomerStats>;
}

export interface Customer {
  readonly id: string;
  /** Successful data calls the contract permits; support may change it (the admin API) until a restart. */
  contractLimit: number | undefined;
  readonly subscriberExpiresAt: number | undefined;
  readonly responseDelayMs: number;
  readonly limiter: CustomerLimiter;
  readonly stats: CustomerStats;
}

export function emptyStats(): CustomerStats {
  return { tokenRequests: 0, authSuccesses: 0, authFailures: 0, dataCalls: 0, resultCodes: {}, maxConcurrency: 0, contractUsed: 0 };
}

export function makeCustomer(c: SandboxCustomerConfig): Customer {
  return {
    id: c.id,
    contractLimit: c.contractLimit,
    subscriberExpiresAt: c.subscriberExpires === undefined ? undefined : parseIsoTime(c.subscriberExpires),
    responseDelayMs: c.responseDelayMs ?? 0,
    limiter: new CustomerLimiter(c.qps ?? DEFAULT_QPS, c.concurrency ?? DEFAULT_CONCURRENCY),
    stats: emptyStats(),
  };
}

export function subscriberExpired(customer: Customer, now: number): boolean {
  return customer.subscriberExpiresAt !== undefined && now >= customer.subscriberExpiresAt;
}
