// Running a request file's requests in order, each with its variables replaced at its turn and the
// answers of named requests kept for the ones after it (`{{login.response.body.$.id}}`). One loop for
// `bizdata send`, `bizdata test` and the Test Explorer; what each does with an answer is its own.
// Sending is the caller's (the client's `send`, with its token, limiter, guard and retries), so
// this room stays below the client.
import type { CallResult, Endpoints, OperationRequest } from '../model';
import { prepareFileRequest } from './fileRequest';
import type { BodyFileAccess } from './fileSafety';
import { MANAGED_HEADERS } from './queries';
import type { ParsedRequest, ParsedRequestFile } from './requestFile';
import { connectionVariables, type ChainedResponse, type VariableContext } from './requestVariables';
import type { SystemContext } from './systemVariables';

/** One request sent and its result. */
export interface RunStep {
  readonly request: ParsedRequest;
  /** What was sent: variables replaced, credential headers of the file dropped (the client adds its own). */
  readonly sent: OperationRequest;
  readonly result: CallResult;
}

/**
 * The URL a step's request went to, for reports: the client's record of it (the wire's spelling), or
 * as prepared when it was never sent (a failed sign-in's record is the sign-in's).
 */
export function sentUrl(step: RunStep): string {
  const { result, sent } = step;
  return (!result.ok && result.signIn) || !result.request ? sent.url : result.request.url;
}

/** A request that cannot be sent: a value missing at its turn, or a URL its token may not go to. */
export interface Unsendable {
  readonly request: ParsedRequest;
  /** 0-based line at fault. */
  readonly line: number;
  readonly message: string;
  readonly reason: 'variable' | 'interface' | 'body';
}

/** What a file's requests may read besides the file: the user's answers, the allowed environment, body files. */
export interface FileInputs {
  /** Answers to the `# @prompt NAME` lines, by name. */
  readonly prompts?: ReadonlyMap<string, string>;
  /** What `{{$dotenv}}` and `{{$processEnv}}` may read. */
  readonly system?: SystemContext;
  /** Where `< ./file` bodies are read: inside the request file's folder only (fileSafety.ts). */
  readonly files: BodyFileAccess;
}

export interface FileRunOptions {
  readonly file: ParsedRequestFile;
  /** The requests to send, in file order (all of the file's, or those picked by name). */
  readonly requests: readonly ParsedRequest[];
  /** The addresses of the run's connection: its variables (`{{baseUrl}}` …) and where its tokens may go. */
  readonly endpoints: Endpoints;
  /** A request's own connection's addresses (`# @connection NAME`), where it has one. */
  endpointsFor?(request: ParsedRequest): Endpoints;
  readonly inputs: FileInputs;
  /** Asked before a request is sent (`# @note`); false skips it, and `onDeclined` is told. */
  confirm?(request: ParsedRequest): Promise<boolean>;
  onDeclined?(request: ParsedRequest): void;
  /** Sends one request: the client of its connection's `send`, with the caller's options (stop signals, confirmations). */
  send(request: OperationRequest, parsed: ParsedRequest): Promise<CallResult>;
  /** After each result; `false` ends the run there. */
  onResult(step: RunStep): boolean | Promise<boolean>;
  /** A request that cannot be sent at its turn; `false` ends the run there, otherwise the next is sent. */
  onUnsendable(u: Unsendable): boolean | Promise<boolean>;
  /** Asked before each request: true ends the run (Ctrl-C, a cancelled test run). */
  stopped?(): boolean;
}

/** Sends the requests one after another, as `onResult` and `onUnsendable` allow. */
export async function runRequestFile(o: FileRunOptions): Promise<void> {
  const responses = new Map<string, ChainedResponse>();
  for (const r of o.requests) {
    if (o.stopped?.()) return;
    const endpoints = o.endpointsFor?.(r) ?? o.endpoints;
    const resolved = await prepareFileRequest(o.file, r, contextOf(endpoints, responses, o.inputs), endpoints, o.inputs.files);
    if (!resolved.ok) {
      if (!(await o.onUnsendable({ request: r, line: resolved.line, message: resolved.message, reason: resolved.reason }))) return;
      continue;
    }
    if (o.confirm && !(await o.confirm(r))) {
      o.onDeclined?.(r);
      continue;
    }
    const sent = { ...resolved.request, headers: withoutManagedHeaders(resolved.request.headers) };
    const result = await o.send(sent, r);
    // A failed answer is kept too: a test may chain on the body of an expected refusal.
    if (r.name && (result.ok || result.status !== undefined)) {
      responses.set(r.name, { body: result.body, text: result.ok ? result.text : undefined, headers: result.headers ?? {} });
    }
    if (!(await o.onResult({ request: r, sent, result }))) return;
  }
}

/**
 * What stops a request, found before the first request is sent: where its token would go, its body
 * and body files, values from outside the file. Only what needs an earlier request's answer (a chained
 * value, a URL built from one) waits for its turn.
 */
export async function unsendableAtStart(file: ParsedRequestFile, requests: readonly ParsedRequest[], endpoints: Endpoints | ((r: ParsedRequest) => Endpoints), inputs: FileInputs): Promise<Unsendable[]> {
  const out: Unsendable[] = [];
  for (const r of requests) {
    const e = typeof endpoints === 'function' ? endpoints(r) : endpoints;
    const resolved = await prepareFileRequest(file, r, contextOf(e, new Map(), inputs), e, inputs.files);
    if (!resolved.ok && !resolved.waiting) out.push({ request: r, line: resolved.line, message: resolved.message, reason: resolved.reason });
  }
  return out;
}

function contextOf(endpoints: Endpoints, responses: ReadonlyMap<string, ChainedResponse>, inputs: FileInputs): VariableContext {
  return { connection: connectionVariables(endpoints), responses, prompts: inputs.prompts, system: inputs.system };
}

/** The file's own Authorization and credential headers never go out: the client adds the managed token. */
function withoutManagedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !MANAGED_HEADERS.has(k.toLowerCase())));
}
