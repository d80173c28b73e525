// Files a request file may read: its body files (`< ./file`), the schema files of its assertions
// (`?? schema ./file`) and the `.env` beside it. A request file may come from someone else's
// repository, so it reads only inside the folder it belongs to (the editor's workspace folder, or the
// request file's own folder for the command line), with links resolved first: a path or a link that
// leads out of that folder is refused, never read. Its snapshots: snapshotFiles.ts.
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import type { DotenvValues } from './systemVariables';

/** The largest body file read (REST Client's own limit for a body stream is 10 MB). */
export const MAX_BODY_FILE_BYTES = 10 * 1024 * 1024;
/** The largest schema file read: a schema is compiled before anything is sent, and one this size is already a large one. */
export const MAX_SCHEMA_FILE_BYTES = 1024 * 1024;

export type FileRead = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly message: string };

/** What a file is to its request file, in messages: "The body file ./a.json does not exist". */
export type FileKind = 'body file' | 'schema file';

/** The file `target` (named `written` in the request file) if its real path is inside `root`'s. */
export async function readInside(target: string, written: string, root: string, kind: FileKind = 'body file'): Promise<FileRead> {
  const The = `The ${kind}`;
  const limit = kind === 'schema file' ? MAX_SCHEMA_FILE_BYTES : MAX_BODY_FILE_BYTES;
  let real: string;
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, message: `The folder ${root} of this request file cannot be read, so no ${kind} is read from it.` };
  }
  try {
    real = await realpath(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, message: code === 'ENOENT' ? `${The} ${written} does not exist (looked for ${target}). Write its path relative to this request file.` : `${The} ${written} cannot be read (${code ?? 'error'}).` };
  }
  if (!inside(real, realRoot)) {
    const link = real !== target ? ` (it leads to ${real})` : '';
    return {
      ok: false,
      message: `${The} ${written} is outside ${realRoot}${link}, and a request file reads only files inside its own folder: a file from someone else's repository must not ${kind === 'body file' ? 'send' : 'read'} your files. Copy the file into that folder and name it relative to this request file.`,
    };
  }
  try {
    const info = await stat(real);
    if (!info.isFile()) return { ok: false, message: `${The} ${written} is not a regular file.` };
    if (info.size > limit) return { ok: false, message: `${The} ${written} is ${info.size} bytes; the limit is ${limit}.` };
    return { ok: true, bytes: await readFile(real) };
  } catch (err) {
    return { ok: false, message: `${The} ${written} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).` };
  }
}

export function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** The `.env` beside a request file, parsed by the `dotenv` package (as REST Client reads it), links resolved and kept inside `root`. */
export async function dotenvBeside(requestFile: string, root: string): Promise<DotenvValues> {
  const path = join(dirname(requestFile), '.env');
  const read = await readInside(path, '.env', root);
  if (!read.ok) {
    const missing = read.message.includes('does not exist');
    return { ok: false, path, why: missing ? `there is no ${path}. Create it with a line NAME=value.` : read.message.replace('The body file .env', `The file ${path}`) };
  }
  return { ok: true, path, values: parseDotenv(Buffer.from(read.bytes)) };
}
