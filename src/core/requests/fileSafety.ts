// Files a request file may read: its body files (`< ./file`) and the `.env` beside it. A request file
// may come from someone else's repository, so it reads only inside its own folder, in the editor and
// on the command line alike, through the one door (core/files/door.ts): links resolved first, a path
// or a link that leads out of that folder is refused, never read.
import { dirname, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { readInside, type FileRead } from '../files/door';
import type { DotenvValues } from './systemVariables';

export type { FileRead } from '../files/door';

/** The largest body file read (REST Client's own limit for a body stream is 10 MB). */
export const MAX_BODY_FILE_BYTES = 10 * 1024 * 1024;

/** Where a request file's body files may come from. */
export interface BodyFileAccess {
  /** Reads a body file named as written (relative to the request file's folder). */
  read(path: string): Promise<FileRead>;
}

/** Body files of `requestFile`, only from inside `root` (links resolved). */
export function bodyFiles(requestFile: string, root: string): BodyFileAccess {
  return {
    read: async (path) => {
      const read = await readInside(resolve(dirname(requestFile), path), root, { what: `The body file ${path}`, maxBytes: MAX_BODY_FILE_BYTES });
      return read.ok || !read.missing ? read : { ok: false, message: `${read.message} Write its path relative to this request file.` };
    },
  };
}

/** The `.env` beside a request file, parsed by the `dotenv` package (as REST Client reads it), links resolved and kept inside `root`. */
export async function dotenvBeside(requestFile: string, root: string): Promise<DotenvValues> {
  const path = join(dirname(requestFile), '.env');
  const read = await readInside(path, root, { what: `The file ${path}`, maxBytes: MAX_BODY_FILE_BYTES });
  if (!read.ok) return { ok: false, path, why: read.missing ? `there is no ${path}. Create it with a line NAME=value.` : read.message };
  return { ok: true, path, values: parseDotenv(Buffer.from(read.bytes)) };
}
