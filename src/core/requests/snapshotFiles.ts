// The snapshots of `?? snapshot` on disk: `__snapshots__/` beside the request file, one JSON file
// per request (snapshotCheck.ts names them). A request file may come from someone else's repository,
// so a snapshot is read and written only inside the request file's folder (links resolved, as body
// files: fileSafety.ts), and never through a symbolic link: `__snapshots__` and the snapshot must be
// a real folder and a real file (a link is refused, naming it), the snapshot is opened without
// following a link, and written as a new file renamed over the old (core/storage/atomicFile.ts).
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../storage/atomicFile';
import { inside, MAX_BODY_FILE_BYTES } from './fileSafety';

export const SNAPSHOT_FOLDER = '__snapshots__';

/** A snapshot's text, or none yet, or why it may not be read. */
export type SnapshotRead = { readonly ok: true; readonly text?: string } | { readonly ok: false; readonly message: string };
export type SnapshotWrite = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** `__snapshots__/NAME` as the request file names it (relative to its folder). */
export function snapshotPath(name: string): string {
  return `${SNAPSHOT_FOLDER}/${name}`;
}

/** The snapshot NAME (a file name, no folder) of `requestFile`: its text, or `text` absent when there is none yet. */
export async function readSnapshot(requestFile: string, root: string, name: string): Promise<SnapshotRead> {
  const where = await snapshotFolder(requestFile, root, name);
  if (!where.ok) return where;
  if (!where.exists) return { ok: true };
  const file = join(where.folder, name);
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: true };
    if (code === 'ELOOP') return linkRefused(snapshotPath(name));
    return { ok: false, message: `The snapshot ${snapshotPath(name)} cannot be read (${code ?? 'error'}).` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, message: `The snapshot ${snapshotPath(name)} is not a regular file: delete it, and the next run writes it again.` };
    if (info.size > MAX_BODY_FILE_BYTES) return { ok: false, message: `The snapshot ${snapshotPath(name)} is ${info.size} bytes; the limit is ${MAX_BODY_FILE_BYTES}.` };
    return { ok: true, text: await handle.readFile('utf8') };
  } finally {
    await handle.close();
  }
}

/** Writes the snapshot NAME of `requestFile`, creating `__snapshots__` when it is missing. */
export async function writeSnapshot(requestFile: string, root: string, name: string, text: string): Promise<SnapshotWrite> {
  const where = await snapshotFolder(requestFile, root, name);
  if (!where.ok) return where;
  try {
    if (!where.exists) await mkdir(where.folder, { mode: 0o755 });
    const again = await snapshotFolder(requestFile, root, name);
    if (!again.ok) return again;
    const file = join(where.folder, name);
    const existing = await lstat(file).catch(() => undefined);
    if (existing?.isSymbolicLink()) return linkRefused(snapshotPath(name));
    if (existing && !existing.isFile()) return { ok: false, message: `The snapshot ${snapshotPath(name)} is not a regular file, so it is not written: delete it and run again.` };
    // A new file renamed over the old: nothing is written through whatever the old entry was.
    await writeFileAtomic(file, text, { mode: 0o644 });
    return { ok: true };
  } catch (err) {
    return { ok: false, message: `The snapshot ${snapshotPath(name)} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'}).` };
  }
}

type Folder = { readonly ok: true; readonly folder: string; readonly exists: boolean } | { readonly ok: false; readonly message: string };

/** `__snapshots__` beside the request file, if the request file's folder is inside `root` and it is no link. */
async function snapshotFolder(requestFile: string, root: string, name: string): Promise<Folder> {
  const folder = join(dirname(requestFile), SNAPSHOT_FOLDER);
  try {
    const [realDir, realRoot] = await Promise.all([realpath(dirname(requestFile)), realpath(root)]);
    if (!inside(realDir, realRoot)) {
      return { ok: false, message: `The snapshot ${snapshotPath(name)} would be outside ${realRoot} (the request file's folder leads to ${realDir}), and snapshots are kept only inside it.` };
    }
  } catch (err) {
    return { ok: false, message: `The folder of this request file cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}), so no snapshot is read or written.` };
  }
  const info = await lstat(folder).catch(() => undefined);
  if (info === undefined) return { ok: true, folder, exists: false };
  if (info.isSymbolicLink()) return linkRefused(SNAPSHOT_FOLDER);
  if (!info.isDirectory()) return { ok: false, message: `${SNAPSHOT_FOLDER} beside this request file is not a folder: snapshots are kept in a folder of that name. Move the file away.` };
  return { ok: true, folder, exists: true };
}

function linkRefused(what: string): { readonly ok: false; readonly message: string } {
  return {
    ok: false,
    message: `${what} is a symbolic link, and snapshots are never read or written through a link (a request file from someone else's repository could make it point at any file of yours). Replace the link with a real ${what === SNAPSHOT_FOLDER ? 'folder' : 'file'}.`,
  };
}
