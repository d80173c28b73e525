// Which connection each request of a request file goes to: its `# @connection NAME` (or the file's,
// core/requests/requestConnections.ts decides), else the active one; and what its variables and the
// "only to the service" check are read against. Plain TypeScript (unit-tested in plain Node).
import { SANDBOX_CONNECTION } from '../../core/connections/connection';
import type { Endpoints } from '../../core/model';
import { connectionProblems, requestConnectionMeta } from '../../core/requests/requestConnections';
import type { ParsedRequest, ParsedRequestFile, RequestFileProblem } from '../../core/requests/requestFile';

/** The connections a request file may name, as the window has them. */
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
