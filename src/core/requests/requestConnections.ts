// Which connection a request of a request file goes through: its own `# @connection NAME`, else the
// file's (one in the first block, above any request line), else the active one. A name that names no
// connection refuses the whole file at that line, before anything is sent. One rule for every host:
// the run engine (core/run) asks it for each request.
import { SANDBOX_CONNECTION, shownName } from '../connections/connection';
import type { Endpoints } from '../model';
import type { ConnectionMeta, ParsedRequest, ParsedRequestFile, RequestFileProblem } from './requestFile';

/** The `# @connection` that applies to a request, or undefined: the active connection. */
export function requestConnectionMeta(file: ParsedRequestFile, r: ParsedRequest): ConnectionMeta | undefined {
  return r.connection ?? file.connection;
}

/** Every `# @connection` line of the file (the file's first, then each request's). */
export function connectionLines(file: ParsedRequestFile): ConnectionMeta[] {
  return [...(file.connection ? [file.connection] : []), ...file.requests.flatMap((r) => (r.connection ? [r.connection] : []))];
}

/** An error at each `# @connection` line whose name is none of `known` (the user's names and `sandbox`). */
export function connectionProblems(file: ParsedRequestFile, known: readonly string[]): RequestFileProblem[] {
  return connectionLines(file)
    .filter((m) => m.name !== '' && !known.includes(m.name))
    .map((m) => ({
      span: m.span,
      message: `"# @connection ${shownName(m.name)}" names no connection; use one of ${known.join(', ')}, or add "${shownName(m.name)}" to your connections.`,
      severity: 'error',
      code: 'connection',
    }));
}

/** The connections a request file may name, as the host has them (the window's, the command line's). */
export interface ConnectionChoice {
  /** The active connection: requests that name none go there. */
  readonly active: string;
  /** Every name a file may give: the user's connections and `sandbox`. */
  readonly names: readonly string[];
  /** A connection's endpoints; undefined when it is not there now (the sandbox while it is not running). */
  endpoints(name: string): Endpoints | undefined;
}

/** One connection and nothing to choose: what a window without named connections has. */
export function onlyConnection(endpoints: Endpoints, name = 'default'): ConnectionChoice {
  return { active: name, names: [name, SANDBOX_CONNECTION], endpoints: (n) => (n === name ? endpoints : undefined) };
}

export type RequestConnection =
  | { readonly ok: true; readonly name: string; readonly endpoints: Endpoints }
  /** The line of the `# @connection` that cannot be used, and why. */
  | { readonly ok: false; readonly line: number; readonly message: string };

/** The connection a request goes to, or why it cannot go anywhere (a name that is none, the sandbox not running). */
export function connectionOfRequest(file: ParsedRequestFile, r: ParsedRequest, choice: ConnectionChoice): RequestConnection {
  const meta = requestConnectionMeta(file, r);
  const name = meta === undefined || meta.name === '' ? choice.active : meta.name;
  const unknown = meta ? connectionProblems({ ...file, connection: meta, requests: [] }, choice.names)[0] : undefined;
  if (unknown && meta) return { ok: false, line: meta.span.line, message: unknown.message };
  const endpoints = choice.endpoints(name);
  if (endpoints) return { ok: true, name, endpoints };
  const line = meta?.span.line ?? r.requestLine;
  return name === SANDBOX_CONNECTION
    ? { ok: false, line, message: '"# @connection sandbox" names the local sandbox, which is not running: run "Business Data: Start Local Sandbox" first.' }
    : { ok: false, line, message: `The connection "${name}" cannot be used now.` };
}

/** The file's `# @connection` lines that name no connection: errors at their lines. */
export function unknownConnections(file: ParsedRequestFile, choice: ConnectionChoice): RequestFileProblem[] {
  return connectionProblems(file, choice.names);
}
