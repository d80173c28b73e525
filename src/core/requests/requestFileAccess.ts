// What a request file may read and write besides its own text, for one run: its body files, the
// schema files of its assertions (read and compiled once per run), and its snapshots. Every rule of
// where such a file may be is in fileSafety.ts (reading inside the request file's folder) and
// snapshotFiles.ts (never through a link); this only binds them to one request file and run.
import { basename, dirname, resolve } from 'node:path';
import { readInside, type FileRead } from './fileSafety';
import { loadSchema, type SchemaLoad } from './schemaCheck';
import type { SnapshotWriting } from './snapshotCheck';
import { readSnapshot, writeSnapshot, type SnapshotRead, type SnapshotWrite } from './snapshotFiles';

export interface RequestFileAccess {
  /** Reads a body file named as written (relative to the request file's folder). */
  read(path: string): Promise<FileRead>;
  /** The schema file of `?? schema PATH`, compiled; each path once per run. */
  schema(path: string): Promise<SchemaLoad>;
  /** The request file's own name (`orders.bizdata.http`), which its snapshots are named from. */
  readonly requestFileName: string;
  readSnapshot(name: string): Promise<SnapshotRead>;
  writeSnapshot(name: string, text: string): Promise<SnapshotWrite>;
  /** What the run may write of snapshots (snapshotCheck.ts). */
  readonly snapshots: SnapshotWriting;
}

/** The files of `requestFile`, only from inside `root` (links resolved). */
export function requestFileAccess(requestFile: string, root: string, snapshots: SnapshotWriting = 'missing'): RequestFileAccess {
  const schemas = new Map<string, Promise<SchemaLoad>>();
  return {
    read: (path) => readInside(resolve(dirname(requestFile), path), path, root),
    schema: (path) => {
      const known = schemas.get(path);
      if (known) return known;
      const loading = loadSchema(requestFile, root, path);
      schemas.set(path, loading);
      return loading;
    },
    requestFileName: basename(requestFile),
    readSnapshot: (name) => readSnapshot(requestFile, root, name),
    writeSnapshot: (name, text) => writeSnapshot(requestFile, root, name, text),
    snapshots,
  };
}

/** A request file that is in no folder yet (an editor's unsaved text): every file refused, saying why. */
export function noFileAccess(why: string): RequestFileAccess {
  const refused = { ok: false as const, message: `A file of a request file is read relative to it, and ${why}.` };
  return {
    read: () => Promise.resolve(refused),
    schema: () => Promise.resolve(refused),
    requestFileName: 'untitled',
    readSnapshot: () => Promise.resolve(refused),
    writeSnapshot: () => Promise.resolve(refused),
    snapshots: 'none',
  };
}
