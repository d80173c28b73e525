// A request of a request file made ready to send: its own lines free of errors, every variable
// replaced (chained ones from the document's earlier responses), its interface decided, and the
// file's credential headers dropped. Plain TypeScript (unit-tested in plain Node).
import type { Endpoints, InterfaceId, OperationRequest } from '../../core/model';
import type { ParsedRequest, ParsedRequestFile } from '../../core/requests/requestFile';
import { replaceReferences } from '../../core/requests/requestText';
import { connectionVariables, inferInterface, resolveRequest, type ChainedResponse, type VariableContext } from '../../core/requests/requestVariables';
import { withoutManagedHeaders } from '../../core/run/prepare';

export type Prepared =
  | { readonly ok: true; readonly request: OperationRequest }
  /** `problem`: the request's lines or the file's variables have an error; `variable`, `interface` and `body` as resolveRequest says. */
  | { readonly ok: false; readonly line: number; readonly message: string; readonly reason: 'problem' | 'variable' | 'interface' | 'body' };

/** Without reading body files, for Copy as curl and the diagnostics; a run prepares with core/run/prepare.ts. `inputs`: the answers to `# @prompt` lines and what system variables may read. */
export function prepareRequest(file: ParsedRequestFile, r: ParsedRequest, endpoints: Endpoints, responses: ReadonlyMap<string, ChainedResponse>, inputs: Pick<VariableContext, 'prompts' | 'system'> = {}): Prepared {
  // Its own lines, and the file's variables, which every request may use.
  const variableLines = new Set(file.variables.map((v) => v.span.line));
  const own = file.problems.find((p) => p.severity === 'error' && ((p.span.line >= r.startLine && p.span.line <= r.endLine) || variableLines.has(p.span.line)));
  if (own) return { ok: false, line: own.span.line, message: own.message, reason: 'problem' };
  const resolved = resolveRequest(file, r, { connection: connectionVariables(endpoints), responses, prompts: inputs.prompts, system: inputs.system }, endpoints);
  return resolved.ok ? { ok: true, request: withoutManagedHeaders(resolved.request) } : resolved;
}

/** The request with that name, or whose block holds a 0-based line, or the file's only request. */
export function findRequest(file: ParsedRequestFile, where: { readonly line?: number; readonly name?: string }): ParsedRequest | undefined {
  const { line, name } = where;
  if (name !== undefined) return file.requests.find((r) => r.name === name);
  if (line === undefined) return file.requests.length === 1 ? file.requests[0] : undefined;
  return file.requests.find((r) => r.startLine <= line && line <= r.endLine);
}

/**
 * The interface whose token a request will carry, as far as it can be told before sending: its
 * `# @interface`, else the host (and, where hosts are shared, the version segment) its URL starts
 * with. Values of requests not sent yet do not matter for that: they stand in as "x".
 */
export function likelyInterface(file: ParsedRequestFile, r: ParsedRequest, endpoints: Endpoints): InterfaceId | undefined {
  if (r.interfaceId) return r.interfaceId;
  const known = new Map<string, string>([...Object.entries(connectionVariables(endpoints)), ...file.variables.map((v) => [v.name, v.value] as const)]);
  let url = r.url;
  // File variables may use others: a few rounds reach any sensible depth.
  for (let round = 0; round < 4 && url.includes('{{'); round++) url = replaceReferences(url, (name) => known.get(name) ?? 'x');
  return URL.canParse(url) ? inferInterface(url, endpoints) : undefined;
}
