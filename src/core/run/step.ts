// A request's way through the engine, in plain types: the route (connection) it takes, what was sent
// and what came back, or why it could not be sent.
import type { CallResult, Endpoints, OperationRequest } from '../model';
import type { ParsedRequest } from '../requests/requestFile';

/** A connection's way out: its addresses and its client's send. */
export interface Route {
  readonly name: string;
  readonly endpoints: Endpoints;
  /** Sends through the connection's client (its token, limiter, guard and retries), with the host's stop and cancel signals. */
  send(request: OperationRequest, r: ParsedRequest): Promise<CallResult>;
}

/** One request sent and its result, as the client returned it (hosts redact what they show with the run's `redact`). */
export interface RunStep {
  readonly request: ParsedRequest;
  /** What was sent: variables replaced, credential headers of the file dropped (the client adds its own). */
  readonly sent: OperationRequest;
  readonly result: CallResult;
  readonly route: Route;
}

/**
 * The URL a step's request went to, for reports: the client's record of it (the wire's spelling), or
 * as prepared when it was never sent (a failed sign-in's record is the sign-in's).
 */
export function sentUrl(step: Pick<RunStep, 'sent' | 'result'>): string {
  const { result, sent } = step;
  return (!result.ok && result.signIn) || !result.request ? sent.url : result.request.url;
}

/** A request that cannot be sent: its connection, a value missing at its turn, a URL its token may not go to, its body. */
export interface Unsendable {
  readonly request: ParsedRequest;
  /** 0-based line at fault. */
  readonly line: number;
  readonly message: string;
  readonly reason: 'connection' | 'problem' | 'variable' | 'interface' | 'body' | 'request';
}
