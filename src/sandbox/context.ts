// What every handler of one sandbox instance shares, and the checks common to data calls of both
// interfaces (customer conditions and limits apply the same way to A and B).
import type { ServerResponse } from 'node:http';
import { SUCCESS_CODE, describeCode } from '../core/codes';
import type { BoundedCache } from './cache';
import type { Fixtures } from './data';
import type { FaultSet } from './faults';
import type { Customer, SandboxStore } from './store';

export interface SandboxContext {
  readonly store: SandboxStore;
  readonly faults: FaultSet;
  readonly fixtures: Fixtures;
  readonly adminKey: string;
  /** Serialized synthetic data parts by lookup key: the same input always gives the same record. */
  readonly bodies: BoundedCache<string, string>;
  /** A service-generated transaction id, unique within this instance. */
  nextTransactionId(): string;
  /** Waits, but returns at once when the sandbox closes, so no timer outlives it. */
  delay(ms: number): Promise<void>;
}

/** The spec's text for a code from the shared catalog; the sandbox never spells these itself. */
export function codeText(code: string): string {
  return describeCode(code)?.text ?? code;
}

/**
 * Customer-level checks of a data call, in the order the service would apply them: subscriber
 * expiry (SC004), contract usage (SC005), then QPS and concurrency (SC006). On success a slot is
 * held until the response closes. Returns the refusing code, or undefined when admitted.
 */
export function admitDataCall(ctx: SandboxContext, customer: Customer, res: ServerResponse): string | undefined {
  if (ctx.store.isSubscriberExpired(customer)) return 'SC004';
  if (ctx.store.contractExhausted(customer)) return 'SC005';
  if (!customer.limiter.tryAcquire()) return 'SC006';
  // A client that hung up while the request waited (injected latency) already fired 'close':
  // listening for it now would hold the slot for ever.
  if (res.destroyed || res.socket === null || res.socket.destroyed) customer.limiter.release();
  else res.once('close', () => customer.limiter.release());
  if (customer.limiter.active > customer.stats.maxConcurrency) customer.stats.maxConcurrency = customer.limiter.active;
  return undefined;
}

/** Records a finished successful data call: contract usage and the CM000 count. */
export function completeDataCall(ctx: SandboxContext, customer: Customer): void {
  ctx.store.useContract(customer);
  ctx.store.noteCode(customer, SUCCESS_CODE);
}

/** Why a customer-level code was returned, for ResultDescription / errorMessage detail. */
export const CUSTOMER_CODE_DETAIL: Readonly<Record<string, string>> = {
  SC003: 'The API user\'s credentials have expired; support must renew them.',
  SC004: 'The customer\'s subscriber number has expired (subscriberExpires in the sandbox config).',
  SC005: 'The customer has used every data call its contract permits (contractLimit in the sandbox config).',
  SC006: 'The customer is over its queries-per-second or concurrency limit (one budget across all tokens and connections). Wait and retry with the same token.',
};
