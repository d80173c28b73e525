// A data file as a run reads it: opened once (through the door when the run picked it up by itself:
// core/files/door.ts), then read as a stream as often as the run needs, from the same open file: once
// to check every row before anything is sent (dataCheck.ts), once to run. Memory holds a chunk and a
// row, whatever the file's size.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { openInside } from '../files/door';
import { DATA_LIMITS, type DataItem, type DataLimits, type DataRow } from './dataLimits';
import { dataFormat, dataItems, NOT_A_DATA_FILE, type DataFormat } from './rows';

export interface DataSource {
  /** The file as the user knows it, for `ROWS:LINE` messages. */
  readonly file: string;
  readonly format: DataFormat;
  /** The file's items from its start (columns, then rows); a problem throws DataFileError at its line. */
  items(): AsyncGenerator<DataItem, void>;
  /** Its rows from its start. */
  rows(): AsyncGenerator<DataRow, void>;
  close(): Promise<void>;
}

export type OpenedData = { readonly ok: true; readonly source: DataSource } | { readonly ok: false; readonly message: string };

export interface DataFileOptions {
  /** How messages name the file (a path relative to the workspace, or as typed). */
  readonly named: string;
  /**
   * The request file's folder when the run picked the data file up by itself (NAME.data.csv beside
   * NAME.bizdata.http): it is read only if it is really inside. Absent for a file the user named.
   */
  readonly root?: string;
  readonly limits?: DataLimits;
}

/** Opens a data file for a run; refused (nothing read) for a name that says neither format, a file outside its folder, or no regular file. */
export async function openDataFile(path: string, o: DataFileOptions): Promise<OpenedData> {
  const format = dataFormat(path);
  if (format === undefined) return { ok: false, message: `${o.named}: ${NOT_A_DATA_FILE}` };
  const what = `The data file ${o.named}`;
  let handle: FileHandle;
  if (o.root !== undefined) {
    const opened = await openInside(path, o.root, { what });
    if (!opened.ok) return opened;
    handle = opened.handle;
  } else {
    try {
      handle = await open(path, constants.O_RDONLY);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return { ok: false, message: code === 'ENOENT' ? `${what} does not exist (looked for ${path}).` : `${what} cannot be read (${code ?? String(err)}).` };
    }
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      return { ok: false, message: `${what} is not a regular file.` };
    }
  }
  const limits = o.limits ?? DATA_LIMITS;
  const items = (): AsyncGenerator<DataItem, void> => dataItems(chunksOf(handle), o.named, format, limits);
  return {
    ok: true,
    source: {
      file: o.named,
      format,
      items,
      async *rows() {
        for await (const item of items()) if (item.kind === 'row') yield item.row;
      },
      close: () => handle.close(),
    },
  };
}

/** The file's bytes from its start, a chunk at a time, read at positions (so the same file can be read again). */
async function* chunksOf(handle: FileHandle): AsyncGenerator<Uint8Array> {
  const size = 256 * 1024;
  for (let at = 0; ; ) {
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await handle.read(buffer, 0, size, at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
