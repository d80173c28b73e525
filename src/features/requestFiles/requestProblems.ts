// Everything wrong with a request file, as plain data with line spans: the parser's problems, unknown
// variables, and requests the client would refuse (another host, a bad header) — so a file that
// would send the token elsewhere says so before anyone clicks Send. Plain TypeScript (Node-tested).
import type { Endpoints } from '../../core/model';
import { checkOperation } from '../../core/requests/queries';
import { withoutManagedHeaders } from '../../core/run/prepare';
import { parseRequestFile, type ParsedRequestFile, type ProblemCode } from '../../core/requests/requestFile';
import { splitLines, type LineSpan } from '../../core/requests/requestText';
import { connectionVariables, resolveRequest, unknownReferences } from '../../core/requests/requestVariables';
import { connectionOfRequest, onlyConnection, unknownConnections, type ConnectionChoice } from '../../core/requests/requestConnections';

export type RequestProblemCode = ProblemCode | 'operation';

export interface RequestProblem {
  readonly span: LineSpan;
  readonly message: string;
  readonly severity: 'error' | 'warning';
  readonly code: RequestProblemCode;
}

/**
 * The problems of a request file's text, each request against the endpoints of its connection (its
 * `# @connection`, else the active one): a connection name that is none is an error at its line.
 */
export function requestFileProblems(text: string, connections: ConnectionChoice | Endpoints, parsed: ParsedRequestFile = parseRequestFile(text)): RequestProblem[] {
  const choice = 'names' in connections ? connections : onlyConnection(connections);
  const fileEndpoints = choice.endpoints(parsed.connection?.name ?? choice.active) ?? choice.endpoints(choice.active);
  const problems: RequestProblem[] = [...parsed.problems, ...unknownConnections(parsed, choice)];
  if (!fileEndpoints) return sorted(problems);
  problems.push(...unknownReferences(text, parsed, connectionVariables(fileEndpoints)));
  const lines = splitLines(text);
  for (const r of parsed.requests) {
    const target = connectionOfRequest(parsed, r, choice);
    if (!target.ok) continue;
    const endpoints = target.endpoints;
    const connection = connectionVariables(endpoints);
    // Without any address the readiness offer says what to set; every request would be "elsewhere".
    if (endpoints.authUrl === '' && endpoints.baseUrl === '' && endpoints.legacyUrl === '') continue;
    const resolved = resolveRequest(parsed, r, { connection, responses: new Map() }, endpoints);
    // A missing value is reported where it is written (or, for a chained one, is there once its request is sent).
    if (!resolved.ok && resolved.reason === 'variable') continue;
    const message = resolved.ok ? checkOperation(withoutManagedHeaders(resolved.request), endpoints) : resolved.message;
    if (message === undefined) continue;
    const line = lines[r.requestLine] ?? '';
    const start = Math.max(0, line.search(/\S/));
    problems.push({ span: { line: r.requestLine, start, end: Math.max(start + 1, line.trimEnd().length) }, message, severity: 'error', code: 'operation' });
  }
  return sorted(problems);
}

function sorted(problems: RequestProblem[]): RequestProblem[] {
  return problems.sort((a, b) => a.span.line - b.span.line || a.span.start - b.span.start);
}
