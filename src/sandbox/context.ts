// What every handler of one sandbox instance shares.
import { describeCode } from '../core/codes/codes';
import type { BoundedCache } from './cache';
import type { Fixtures } from './fixtures';
import type { FaultSet } from './faults';
import type { DateHeader } from './http';
import type { SandboxStore } from './store';

export interface SandboxContext {
  readonly store: SandboxStore;
  readonly faults: FaultSet;
  readonly fixtures: Fixtures;
  readonly adminKey: string;
  /** The Date header of the virtual clock. */
  readonly date: DateHeader;
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

/** Why a customer-level code was returned, for ResultDescription / errorMessage detail. */
export const CUSTOMER_CODE_DETAIL: Readonly<Record<string, string>> = {
  SC003: 'The API user\'s credentials have expired; support must renew them.',
  SC004: 'The customer\'s subscriber number has expired (subscriberExpires in the sandbox config).',
  SC005: 'The customer has used every data call its contract permits (contractLimit in the sandbox config).',
  SC006: 'The customer is over its queries-per-second or concurrency limit (one budget across all tokens and connections). Wait and retry with the same token.',
};
