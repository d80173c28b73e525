// Files a request file may read: its body files (`< ./file`), the schema files of its assertions
// (`?? schema ./file`) and the `.env` beside it. A request file may come from someone else's
// repository, so it reads only inside its own folder, in the editor and on the command line alike,
// through the one door (core/files/door.ts): links resolved first, a path or a link that leads out of
// that folder is refused, never read. Its snapshots: snapshotFiles.ts. Bound to one request file and
// run: requestFileAccess.ts.
import { dirname, join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { readInside as readThroughDoor, type FileRead } from '../files/door';
import type { DotenvValues } from './systemVariables';

export type { FileRead } from '../files/door';
export { isInside as inside } from '../files/door';

/** The largest body file read (REST Client's own limit for a body stream is 10 MB). */
export const MAX_BODY_FILE_BYTES = 10 * 1024 * 1024;
/** The largest schema file read: a schema is compiled before anything is sent, and one this size is already a large one. */
export const MAX_SCHEMA_FILE_BYTES = 1024 * 1024;

/** What a file is to its request file, in messages: "The body file ./a.json does not exist". */
export type FileKind = 'body file' | 'schema file';

/** The file `target` (named `written` in the request file) if its real path is inside `root`'s. */
export async function readInside(target: string, written: string, root: string, kind: FileKind = 'body file'): Promise<FileRead> {
  const maxBytes = kind === 'schema file' ? MAX_SCHEMA_FILE_BYTES : MAX_BODY_FILE_BYTES;
  const read = await readThroughDoor(target, root, { what: `The ${kind} ${written}`, maxBytes });
  return read.ok || !read.missing ? read : { ok: false, message: `${read.message} Write its path relative to this request file.` };
}

/** The `.env` beside a request file, parsed by the `dotenv` package (as REST Client reads it), links resolved and kept inside `root`. */
export async function dotenvBeside(requestFile: string, root: string): Promise<DotenvValues> {
  const path = join(dirname(requestFile), '.env');
  const read = await readThroughDoor(path, root, { what: `The file ${path}`, maxBytes: MAX_BODY_FILE_BYTES });
  if (!read.ok) return { ok: false, path, why: read.missing ? `there is no ${path}. Create it with a line NAME=value.` : read.message };
  return { ok: true, path, values: parseDotenv(Buffer.from(read.bytes)) };
}
