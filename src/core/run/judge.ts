// The one judge: what a request's result means, for every host of the run engine (engine.ts). Pure. A request passes when every assertion holds; one without assertions
// passes when the client took its answer for a success (2xx, no failing result code). SC006 and 429
// answers the client waited out and retried never reach here: only the final result is judged.
import { failureLine } from '../exchange/failures';
import { stopOf } from './stops';
import type { CallFailure } from '../model';
import { answerOf, evaluateAssertions, requestPassed, type AssertionOutcome } from '../requests/assertions';
import { sentUrl, type RunStep, type Unsendable } from './step';
import type { ParsedRequest } from '../requests/requestFile';

export type Verdict = 'passed' | 'failed' | 'error';

export interface RequestOutcome {
  readonly request: ParsedRequest;
  /** `@name`, the `###` title, or "request N". */
  readonly name: string;
  readonly verdict: Verdict;
  readonly method: string;
  /** The URL of the request as sent (step.ts's sentUrl), redacted. */
  readonly url?: string;
  readonly status?: number;
  /** The result code the client recognised in the answer (or in the failed sign-in's, which is no answer). */
  readonly code?: string;
  readonly durationMs?: number;
  readonly assertions: readonly AssertionOutcome[];
  /**
   * Why the request failed without an assertion failing (its answer was no success), or why it is
   * an error (no answer, a value missing at its turn, a stop), at `line` (0-based).
   */
  readonly message?: string;
  readonly line: number;
}


/** The name a request goes by in reports. */
export function requestName(r: ParsedRequest): string {
  return r.name ?? `request ${r.index + 1}`;
}

/**
 * What a sent request's result means; `stop` when it ends the run (the failure to report). `redact`
 * is the run's redaction (core/redact.ts): the outcome holds no secret it knows, and an assertion's
 * actual value that holds one is withheld.
 */
export function judgeStep(step: RunStep, redact: (text: string) => string = (t) => t): { readonly outcome: RequestOutcome; readonly stop?: CallFailure } {
  const { request: r, sent, result } = step;
  const answer = answerOf(result);
  const assertions = evaluateAssertions(r.assertions, answer, redact, step.checks);
  const base = { request: r, name: requestName(r), method: sent.method, url: redact(sentUrl(step)), status: answer?.status, code: answer?.code ?? (result.ok ? undefined : result.code), durationMs: result.durationMs, assertions, line: r.requestLine };
  if (result.ok) return { outcome: { ...base, verdict: requestPassed(assertions, true) ? 'passed' : 'failed' } };
  // A failed sign-in is an error of the request, never a verdict on an answer: the request was not sent.
  const message = redact(result.signIn ? `The sign-in failed, so the request was not sent: ${failureLine(result)}` : failureLine(result));
  // A failure that ends the run (stops.ts) is an error of its request, never judged: its answer, if any, is no verdict on the request.
  const stop = stopOf(result);
  if (stop) return { outcome: { ...base, verdict: 'error', message }, stop };
  // No answer (the network failed): nothing to judge, an error of this request only.
  if (answer === undefined) return { outcome: { ...base, verdict: 'error', message } };
  if (assertions.length > 0) return { outcome: { ...base, verdict: requestPassed(assertions, false) ? 'passed' : 'failed' } };
  const head = [answer.status !== undefined ? `HTTP ${answer.status}` : undefined, answer.code].filter(Boolean).join(' ');
  return { outcome: { ...base, verdict: 'failed', message: `The answer is no success (${head}): ${message} To expect this answer, assert it, as "?? status == ${answer.status ?? 400}"${answer.code ? ` or "?? code == ${answer.code}"` : ''}.` } };
}

/** A request that could not be sent at its turn (a chained value its predecessor did not give): an error at its line. */
export function judgeUnsendable(u: Unsendable, redact: (text: string) => string = (t) => t): RequestOutcome {
  return { request: u.request, name: requestName(u.request), verdict: 'error', method: u.request.method, assertions: [], message: redact(u.message), line: u.line };
}
