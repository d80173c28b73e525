// A request of a request file made ready to send, body files included: what REST Client and httpYac
// would send, or the line that stops it. resolveRequest is pure and synchronous; the files a body
// names are known only once its variables are replaced, so they are found by a first pass, read
// (inside the request file's folder, links resolved: fileSafety.ts), and the request resolved again.
import type { Endpoints } from '../model';
import type { ParsedRequest, ParsedRequestFile } from './requestFile';
import { resolveRequest, type Resolved, type VariableContext } from './requestVariables';
import type { RequestFileAccess } from './requestFileAccess';

const NOTHING = new Uint8Array(0);

/** resolveRequest with the request's body files read through `files`; a file that may not or cannot be read refuses the request at its line. */
export async function prepareFileRequest(file: ParsedRequestFile, r: ParsedRequest, ctx: VariableContext, endpoints: Endpoints, files: Pick<RequestFileAccess, 'read'>): Promise<Resolved> {
  const wanted = new Map<string, number>();
  const first = resolveRequest(file, r, { ...ctx, files: (path, line) => (wanted.has(path) || wanted.set(path, line), NOTHING) }, endpoints);
  if (!first.ok || wanted.size === 0) return first;
  const read = new Map<string, Uint8Array>();
  for (const [path, line] of wanted) {
    const got = await files.read(path);
    if (!got.ok) return { ok: false, line, reason: 'body', message: got.message };
    read.set(path, got.bytes);
  }
  return resolveRequest(file, r, { ...ctx, files: (path) => read.get(path) }, endpoints);
}
