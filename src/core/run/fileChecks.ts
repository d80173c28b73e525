// Everything wrong with a request file's text, as plain data with line spans: the parser's problems,
// `# @connection` names that are none, unknown variables (a data file's columns are variables: a
// data-driven file's `{{country}}` is no unknown), and requests the client would refuse (another
// host, a bad header), each checked with stand-ins for a row's values. One function for the editor's
// diagnostics and a run's preflight (preflight.ts), so a file that would be refused says so before
// anyone clicks Send, at the same line with the same words.
import type { Endpoints } from '../model';
import { parseRequestFile, type ParsedRequestFile, type ProblemCode } from '../requests/requestFile';
import { splitLines, type LineSpan } from '../requests/requestText';
import { connectionVariables, unknownReferences } from '../requests/requestVariables';
import { connectionOfRequest, onlyConnection, unknownConnections, type ConnectionChoice } from '../requests/requestConnections';
import { prepareWithoutFiles } from './prepare';

/**
 * What stands in for a value known only when the run is under way (a row's, a prompt's), to check
 * what the file alone decides: the empty text, which moves no URL to another host or port wherever it stands.
 */
export const STAND_IN = '';

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
 * `columns`: the columns of the data file that makes it data-driven, variables of every row.
 */
export function requestFileProblems(text: string, connections: ConnectionChoice | Endpoints, parsed: ParsedRequestFile = parseRequestFile(text), columns: readonly string[] = []): RequestProblem[] {
  const choice = 'names' in connections ? connections : onlyConnection(connections);
  const fileEndpoints = choice.endpoints(parsed.connection?.name || choice.active) ?? choice.endpoints(choice.active);
  const problems: RequestProblem[] = [...parsed.problems, ...unknownConnections(parsed, choice)];
  if (!fileEndpoints) return sorted(problems);
  const row = new Map(columns.map((c) => [c, STAND_IN]));
  problems.push(...unknownReferences(text, parsed, { ...connectionVariables(fileEndpoints), ...Object.fromEntries(row) }));
  const lines = splitLines(text);
  for (const r of parsed.requests) {
    const target = connectionOfRequest(parsed, r, choice);
    if (!target.ok) continue;
    const endpoints = target.endpoints;
    // Without any address the readiness offer says what to set; every request would be "elsewhere".
    if (endpoints.authUrl === '' && endpoints.baseUrl === '' && endpoints.legacyUrl === '') continue;
    const prompts = new Map(r.settings.prompts.map((p) => [p.name, STAND_IN]));
    const prepared = prepareWithoutFiles(parsed, r, endpoints, new Map(), { row, prompts });
    // A missing value is reported where it is written (or, for a chained one, is there once its request is sent);
    // the request's own errors are the parser's, already listed.
    if (prepared.ok || prepared.reason === 'variable' || prepared.reason === 'problem') continue;
    const { message } = prepared;
    const line = lines[r.requestLine] ?? '';
    const start = Math.max(0, line.search(/\S/));
    problems.push({ span: { line: r.requestLine, start, end: Math.max(start + 1, line.trimEnd().length) }, message, severity: 'error', code: 'operation' });
  }
  return sorted(problems);
}

function sorted(problems: RequestProblem[]): RequestProblem[] {
  return problems.sort((a, b) => a.span.line - b.span.line || a.span.start - b.span.start);
}
