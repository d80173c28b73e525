// Running a request file's requests in order, each with its variables replaced at its turn and the
// answers of named requests kept for the ones after it (`{{login.response.body.$.id}}`). One loop for
// `bizdata send`, `bizdata test` and the Test Explorer; what each does with an answer is its own.
// Sending is the caller's (the client's `send`, with its token, limiter, guard and retries), so
// this room stays below the client.
import type { CallResult, Endpoints, OperationRequest } from '../model';
import { MANAGED_HEADERS } from './queries';
import type { ParsedRequest, ParsedRequestFile } from './requestFile';
import { connectionVariables, resolveRequest, type ChainedResponse } from './requestVariables';

/** One request sent and its result. */
export interface RunStep {
  readonly request: ParsedRequest;
  /** What was sent: variables replaced, credential headers of the file dropped (the client adds its own). */
  readonly sent: OperationRequest;
  readonly result: CallResult;
}

/** A request that cannot be sent: a value missing at its turn, or a URL its token may not go to. */
export interface Unsendable {
  readonly request: ParsedRequest;
  /** 0-based line at fault. */
  readonly line: number;
  readonly message: string;
  readonly reason: 'variable' | 'interface';
}

export interface FileRunOptions {
  readonly file: ParsedRequestFile;
  /** The requests to send, in file order (all of the file's, or those picked by name). */
  readonly requests: readonly ParsedRequest[];
  readonly endpoints: Endpoints;
  /** Variables of the connection; by default the endpoints' (`{{baseUrl}}` …). */
  readonly connection?: Readonly<Record<string, string>>;
  /** Sends one request: the client's `send`, with the caller's options (stop signals, confirmations). */
  send(request: OperationRequest): Promise<CallResult>;
  /** After each result; `false` ends the run there. */
  onResult(step: RunStep): boolean | Promise<boolean>;
  /** A request that cannot be sent at its turn; `false` ends the run there, otherwise the next is sent. */
  onUnsendable(u: Unsendable): boolean | Promise<boolean>;
  /** Asked before each request: true ends the run (Ctrl-C, a cancelled test run). */
  stopped?(): boolean;
}

/** Sends the requests one after another, as `onResult` and `onUnsendable` allow. */
export async function runRequestFile(o: FileRunOptions): Promise<void> {
  const connection = o.connection ?? connectionVariables(o.endpoints);
  const responses = new Map<string, ChainedResponse>();
  for (const r of o.requests) {
    if (o.stopped?.()) return;
    const resolved = resolveRequest(o.file, r, { connection, responses }, o.endpoints);
    if (!resolved.ok) {
      if (!(await o.onUnsendable({ request: r, line: resolved.line, message: resolved.message, reason: resolved.reason }))) return;
      continue;
    }
    const sent = { ...resolved.request, headers: withoutManagedHeaders(resolved.request.headers) };
    const result = await o.send(sent);
    // A failed answer is kept too: a test may chain on the body of an expected refusal.
    if (r.name && (result.ok || result.status !== undefined)) {
      responses.set(r.name, { body: result.body, text: result.ok ? result.text : undefined, headers: result.headers ?? {} });
    }
    if (!(await o.onResult({ request: r, sent, result }))) return;
  }
}

/**
 * Requests whose token would go where it may not, found before the first request is sent: every
 * URL that needs no answer of an earlier request is checked at once (one built from an answer, at its turn).
 */
export function unsendableAtStart(file: ParsedRequestFile, requests: readonly ParsedRequest[], endpoints: Endpoints, connection: Readonly<Record<string, string>> = connectionVariables(endpoints)): Unsendable[] {
  return requests.flatMap((r) => {
    const resolved = resolveRequest(file, r, { connection, responses: new Map() }, endpoints);
    return !resolved.ok && resolved.reason === 'interface' ? [{ request: r, line: resolved.line, message: resolved.message, reason: resolved.reason }] : [];
  });
}

/** The file's own Authorization and credential headers never go out: the client adds the managed token. */
function withoutManagedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !MANAGED_HEADERS.has(k.toLowerCase())));
}
