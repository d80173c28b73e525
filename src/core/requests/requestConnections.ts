// Which connection a request of a request file goes through: its own `# @connection NAME`, else the
// file's (one in the first block, above any request line), else the active one. A name that names no
// connection refuses the whole file at that line, before anything is sent.
import { findConnection, shownName, UnknownConnectionError, type Connection, type Connections } from '../connections/connection';
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

/**
 * The connection a request goes through: its `# @connection`'s, else `active`. Throws
 * UnknownConnectionError for a name none of `connections` has (connectionProblems refuses those first).
 */
export function connectionForRequest(file: ParsedRequestFile, r: ParsedRequest, connections: Connections | undefined, active: Connection, sandboxUrl?: string): Connection {
  const meta = requestConnectionMeta(file, r);
  if (meta === undefined || meta.name === active.name) return active;
  try {
    return findConnection(connections, meta.name, sandboxUrl);
  } catch (err) {
    if (err instanceof UnknownConnectionError) throw new UnknownConnectionError(`line ${meta.span.line + 1}: ${err.message}`);
    throw err;
  }
}
