// Which request of a request file a command means, and which interface's token it will likely carry,
// before it is prepared (core/run/prepare.ts prepares every request, for every host). Plain TypeScript.
import type { Endpoints, InterfaceId } from '../../core/model';
import type { ParsedRequest, ParsedRequestFile } from '../../core/requests/requestFile';
import { replaceReferences } from '../../core/requests/requestText';
import { connectionVariables, inferInterface } from '../../core/requests/requestVariables';

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
