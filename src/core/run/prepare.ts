// A request of a request file made ready to send, once, by one rule for every host: its own lines
// and the file's variables free of errors, every variable replaced (prompts, a data row, chained
// answers, the connection's), its body files read inside the file's folder (fileSafety.ts), and the
// file's own credential headers dropped (the client adds the managed token). Or the line that stops it.
import type { Endpoints, OperationRequest } from '../model';
import { prepareFileRequest } from '../requests/fileRequest';
import type { BodyFileAccess } from '../requests/fileSafety';
import { checkOperation, MANAGED_HEADERS } from '../requests/queries';
import type { ParsedRequest, ParsedRequestFile } from '../requests/requestFile';
import { connectionVariables, resolveRequest, type ChainedResponse } from '../requests/requestVariables';
import type { SystemContext } from '../requests/systemVariables';

/** What a file's requests may read besides the file: the user's answers, a data row, the allowed environment, body files. */
export interface FileInputs {
  /** Answers to the `# @prompt NAME` lines, by name. */
  readonly prompts?: ReadonlyMap<string, string>;
  /** A data row's values, by column (`{{country}}`). */
  readonly row?: ReadonlyMap<string, string>;
  /** What `{{$dotenv}}` and `{{$processEnv}}` may read. */
  readonly system?: SystemContext;
  /** Where `< ./file` bodies are read: inside the request file's folder only (fileSafety.ts). */
  readonly files: BodyFileAccess;
  /** Whether a value holds a secret of the run: a chained value that does refuses its request (chain.ts). */
  readonly holdsSecret?: (value: string) => boolean;
}

export type Prepared =
  | { readonly ok: true; readonly request: OperationRequest }
  /**
   * The 0-based line at fault and why: `problem`, the request's lines or the file's variables have an
   * error; `variable`, a value is missing (`waiting`: an earlier request's answer, known at its turn);
   * `interface`, its URL is no address of the connection; `body`, a body file cannot be read;
   * `request`, the client would not send it (a header that cannot carry its value, a URL too long).
   */
  | { readonly ok: false; readonly line: number; readonly message: string; readonly reason: 'problem' | 'variable' | 'interface' | 'body' | 'request'; readonly waiting?: boolean };

export async function prepare(file: ParsedRequestFile, r: ParsedRequest, endpoints: Endpoints, responses: ReadonlyMap<string, ChainedResponse>, inputs: FileInputs): Promise<Prepared> {
  const own = ownProblem(file, r);
  if (own) return own;
  const { prompts, row, system, files, holdsSecret } = inputs;
  const resolved = await prepareFileRequest(file, r, { connection: connectionVariables(endpoints), responses, prompts, row, system, holdsSecret }, endpoints, files);
  return resolved.ok ? checked(r, withoutManagedHeaders(resolved.request), endpoints) : resolved;
}

/** The request as the client may send it, or why not, at its line (the client's own last check, made here so that it is this request's failure, never the run's). */
function checked(r: ParsedRequest, request: OperationRequest, endpoints: Endpoints): Prepared {
  const problem = checkOperation(request, endpoints);
  return problem === undefined ? { ok: true, request } : { ok: false, line: r.requestLine, reason: 'request', message: problem };
}

/**
 * The same preparation without reading body files, for what shows a request without sending it (Copy
 * as curl, the editor's checks): a request with a body file is refused at its line until it is sent.
 */
export function prepareWithoutFiles(file: ParsedRequestFile, r: ParsedRequest, endpoints: Endpoints, responses: ReadonlyMap<string, ChainedResponse>, inputs: Omit<FileInputs, 'files'> = {}): Prepared {
  const own = ownProblem(file, r);
  if (own) return own;
  const { prompts, row, system } = inputs;
  const resolved = resolveRequest(file, r, { connection: connectionVariables(endpoints), responses, prompts, row, system }, endpoints);
  return resolved.ok ? checked(r, withoutManagedHeaders(resolved.request), endpoints) : resolved;
}

/** An error on the request's own lines, or on a file variable's line (any request may use it). */
function ownProblem(file: ParsedRequestFile, r: ParsedRequest): Prepared | undefined {
  const variableLines = new Set(file.variables.map((v) => v.span.line));
  const own = file.problems.find((p) => p.severity === 'error' && ((p.span.line >= r.startLine && p.span.line <= r.endLine) || variableLines.has(p.span.line)));
  return own && { ok: false, line: own.span.line, message: own.message, reason: 'problem' };
}

/** The request without the file's Authorization and credential headers: the client adds its own. */
export function withoutManagedHeaders(r: OperationRequest): OperationRequest {
  return { ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => !MANAGED_HEADERS.has(k.toLowerCase()))) };
}
