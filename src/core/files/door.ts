// The one door for the files a run reads and writes. A request file may come from someone else's pull
// request, and so may every file beside it: a file the run picks up by itself (a body file, the `.env`,
// the data file beside a request file) is read only when its real path, links resolved, is inside the
// request file's folder; and nothing a run writes (results, reports, JUnit, snapshots) is ever written
// through a link, symbolic or hard: the file is opened without following one, and a link is refused
// naming the file. A file the user names on the command line may be anywhere, and is still never
// written through a link.
import { constants } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';

/** Why a file was not read or written, in words for the user (it names the file). */
export class FileRefused extends Error {}

export type FileRead = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly message: string };

/** Whether `path` is `root` or inside it (both already real paths). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** What a refused read says: `what` names the file as the user knows it ("The data file x.csv"). */
export interface Named {
  /** "The body file ./a.json", "The data file k.data.csv": the start of every message. */
  readonly what: string;
}

/** Where a file the run picked up by itself really is, when that is inside `root`; otherwise why not, in words. */
export async function realInside(target: string, root: string, n: Named): Promise<{ readonly ok: true; readonly real: string } | { readonly ok: false; readonly message: string; readonly missing?: boolean }> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, message: `The folder ${root} cannot be read, so ${lower(n.what)} is not read from it.` };
  }
  let real: string;
  try {
    real = await realpath(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, missing: true, message: `${n.what} does not exist (looked for ${target}).` };
    return { ok: false, message: `${n.what} cannot be read (${code ?? 'error'}).` };
  }
  if (!isInside(real, realRoot)) {
    const link = real !== target ? ` (it leads to ${real})` : '';
    return {
      ok: false,
      message:
        `${n.what} is outside ${realRoot}${link}, and a run reads only files inside the request file's own folder: a file from ` +
        `someone else's repository must not send your files. Copy the file into that folder instead of linking to it.`,
    };
  }
  return { ok: true, real };
}

/** Reads a whole file the run picked up by itself, inside `root` only, at most `maxBytes`. */
export async function readInside(target: string, root: string, n: Named & { readonly maxBytes: number }): Promise<FileRead & { readonly missing?: boolean }> {
  const where = await realInside(target, root, n);
  if (!where.ok) return where;
  const opened = await openRegular(where.real, n);
  if (!opened.ok) return opened;
  const { handle } = opened;
  try {
    const { size } = await handle.stat();
    if (size > n.maxBytes) return { ok: false, message: `${n.what} is ${size} bytes; the limit is ${n.maxBytes}.` };
    return { ok: true, bytes: await handle.readFile() };
  } catch (err) {
    return { ok: false, message: `${n.what} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).` };
  } finally {
    await handle.close();
  }
}

/** Opens a file the run picked up by itself for reading as a stream, inside `root` only; the caller closes it. */
export async function openInside(target: string, root: string, n: Named): Promise<{ readonly ok: true; readonly handle: FileHandle; readonly real: string } | { readonly ok: false; readonly message: string; readonly missing?: boolean }> {
  const where = await realInside(target, root, n);
  if (!where.ok) return where;
  const opened = await openRegular(where.real, n);
  return opened.ok ? { ok: true, handle: opened.handle, real: where.real } : opened;
}

/** A regular file opened for reading; the final name must not be a link (it was resolved already: one swapped in since is refused). */
async function openRegular(real: string, n: Named): Promise<{ readonly ok: true; readonly handle: FileHandle } | { readonly ok: false; readonly message: string }> {
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | NOFOLLOW);
  } catch (err) {
    return { ok: false, message: `${n.what} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).` };
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    return { ok: false, message: `${n.what} is not a regular file.` };
  }
  return { ok: true, handle };
}

/** O_NOFOLLOW where the platform has it (not Windows, where `refuseLink` checks the name first). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Opens a file to write, never through a link: a symbolic link at its name (dangling or not) or a
 * file with other hard links is refused naming it, before anything is written. `append` keeps what
 * is there (a results file; `read` to read it back through the same open file); otherwise the file is
 * emptied first (a report). Made with `mode` if missing; `exclusive`: only made, never one that is there.
 */
export async function openToWrite(
  path: string,
  how: { readonly append: boolean; readonly read?: boolean; readonly mode?: number; readonly what: string; readonly exclusive?: boolean },
): Promise<FileHandle> {
  await refuseLink(path, how.what);
  let handle: FileHandle;
  try {
    const access = (how.read ? constants.O_RDWR : constants.O_WRONLY) | (how.append ? constants.O_APPEND : 0) | (how.exclusive ? constants.O_EXCL : 0);
    const flags = access | constants.O_CREAT | NOFOLLOW;
    handle = await open(path, flags, how.mode ?? 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new FileRefused(`${path} appeared while ${how.what} was being written; it was left as it is.`);
    // ELOOP (Linux, macOS) or EMLINK (FreeBSD): a link was put there after the check.
    if (code === 'ELOOP' || code === 'EMLINK') throw linkRefused(path, how.what);
    throw new FileRefused(`Cannot write ${how.what} ${path}: ${code ?? String(err)}.`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new FileRefused(`Cannot write ${how.what} ${path}: it is not a regular file.`);
    if (info.nlink > 1) throw linkRefused(path, how.what);
    if (!how.append) await handle.truncate(0);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Opens a file a run writes (its results) to read it back, never through a link; undefined when there is none yet. The caller closes it. */
export async function openToRead(path: string, what: string): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK') throw linkRefused(path, what);
    throw new FileRefused(`Cannot read ${what} ${path}: ${code ?? String(err)}.`);
  }
  if ((await handle.stat()).nlink > 1) {
    await handle.close();
    throw linkRefused(path, what);
  }
  return handle;
}

/** Writes a whole file (a report, a JUnit file), never through a link. */
export async function writeWhole(path: string, data: string | Uint8Array, what: string): Promise<void> {
  const handle = await openToWrite(path, { append: false, what });
  try {
    await handle.writeFile(data);
  } catch (err) {
    throw new FileRefused(`Cannot write ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  } finally {
    await handle.close();
  }
}

/** Refuses, before a run sends anything, a file it will write at its end: a link there (symbolic or hard) is refused naming it. */
export async function refuseLink(path: string, what: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink() || (info?.isFile() === true && info.nlink > 1)) throw linkRefused(path, what);
}

function linkRefused(path: string, what: string): FileRefused {
  return new FileRefused(
    `${path} is a link, and ${what} is never written through a link: it could lead to any file. ` +
      'Delete the link, or name another file.',
  );
}

const lower = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
