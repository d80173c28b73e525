// What ends a run, one table for every way of sending requests: `bizdata send`, `bizdata test`,
// `bizdata batch`, data runs, the editor's Send, the Test Explorer and Run Batch. A failure here
// would be the same for every request after it, or would risk the account; any other failure is
// the request's own (judged when an answer came, an error when none did), and the run goes on; of
// the network failures, only nothing answering at the address ends it.
import type { CallFailure, CallResult, FailureKind } from '../model';

/** Why each kind ends the run (docs/request-files.md quotes this table). */
export const STOPPING: Readonly<Partial<Record<FailureKind, string>>> = {
  guard: 'the lockout guard refused: another sign-in could lock the account',
  auth: 'the credentials or the token were refused (SC001–SC003, 401/403): every request would be, and signing in again counts toward the lockout',
  limit: "a contract limit (SC004, SC005, or the period's contract marked reached by an SC005 before) or a wait longer than the client takes (Retry-After): every request would get the same answer",
  coordinator: 'the shared coordinator (Redis) cannot be reached: nothing may be sent outside the shared budget',
  ceiling: 'the run made the data calls its ceiling allows (--max-calls): the rest runs next time',
  input: "the connection's setup was refused (no address, no credentials, a request the client may not send)",
  cancelled: 'the run was cancelled',
};

/** Why the one network failure that ends a run does (the others are their request's own). */
export const UNREACHABLE_STOPS =
  "nothing answers at the service's address (the connection was refused, or the host name does not resolve): every request to it would fail the same";

/** Why `failure` ends a run, in the table's words; undefined when it does not. */
export function stopReason(failure: CallFailure): string | undefined {
  if (failure.kind === 'network') return failure.unreachable === true ? UNREACHABLE_STOPS : undefined;
  return STOPPING[failure.kind];
}

/**
 * The failure that ends the run, or undefined when the run goes on. SC006 is the one limit that does
 * not: the client has already waited out the rate window (and stopped sending for it), so the next
 * request is sent in a window that is open again. An answer of any kind that asks (Retry-After) to be
 * called again later than the client waits does: every request would meet the same wait.
 */
export function stopOf(result: CallResult): CallFailure | undefined {
  if (result.ok) return undefined;
  if (result.comeBackAt !== undefined) return result;
  if (result.kind === 'network' && result.unreachable === true) return result;
  if (STOPPING[result.kind] === undefined) return undefined;
  if (result.kind === 'limit' && result.code === 'SC006' && result.comeBackAt === undefined) return undefined;
  return result;
}
