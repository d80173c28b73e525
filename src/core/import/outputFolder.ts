// Where an import writes: new files in one folder, through the one door for files (core/files):
// never through a link, symbolic or hard (the folder is checked with lstat, each file by the door),
// and never over a file that is there unless asked to replace it; then every file named is refused
// before any is written, and a file made meanwhile is left as it is.
import { lstat, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { FileRefused, openToWrite, refuseLink } from '../files/door';

export class OutputFolderError extends Error {}

/** Files of these names are in the output folder already; nothing was written. */
export class ExistingFilesError extends OutputFolderError {
  constructor(readonly files: readonly string[]) {
    super(
      `${files.length === 1 ? 'A file of that name is' : 'Files of those names are'} in the output folder already: ${files.join(', ')}. ` +
        `Nothing was written: choose another folder, or replace ${files.length === 1 ? 'it' : 'them'} (--force).`,
    );
  }
}

const WHAT = 'an imported file';

/** Writes each file (UTF-8) into `dir`, made when missing; returns their paths. */
export async function writeFilesInFolder(
  dir: string,
  files: ReadonlyArray<{ readonly name: string; readonly text: string }>,
  replace: boolean,
): Promise<string[]> {
  await folder(dir);
  const existing: string[] = [];
  try {
    for (const f of files) {
      if (basename(f.name) !== f.name || f.name.startsWith('.')) throw new OutputFolderError(`"${f.name}" is not a plain file name.`);
      const path = join(dir, f.name);
      await refuseLink(path, WHAT);
      const stat = await statOf(path);
      if (stat && !stat.isFile()) throw new OutputFolderError(`${path} is there and is not a file. Choose another folder.`);
      if (stat) existing.push(f.name);
    }
    if (existing.length > 0 && !replace) throw new ExistingFilesError(existing);
    const written: string[] = [];
    for (const f of files) {
      const path = join(dir, f.name);
      const handle = await openToWrite(path, { append: false, exclusive: !replace, what: WHAT });
      try {
        await handle.writeFile(f.text, 'utf8');
      } finally {
        await handle.close();
      }
      written.push(path);
    }
    return written;
  } catch (err) {
    if (err instanceof FileRefused) throw new OutputFolderError(err.message);
    throw err;
  }
}

/** The folder, made when missing; a link or a file there is refused. */
async function folder(dir: string): Promise<void> {
  const stat = await statOf(dir);
  if (stat?.isSymbolicLink()) {
    throw new OutputFolderError(
      `The output folder ${dir} is a symbolic link: an import never writes through one. Give the folder it points to, or another.`,
    );
  }
  if (stat && !stat.isDirectory()) throw new OutputFolderError(`The output folder ${dir} is a file. Give a folder.`);
  if (!stat) {
    await mkdir(dir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
      throw new OutputFolderError(`Cannot make the output folder ${dir}: ${err.code ?? err.message}.`);
    });
    if ((await lstat(dir)).isSymbolicLink()) throw new OutputFolderError(`The output folder ${dir} is a symbolic link.`);
  }
}

async function statOf(path: string): Promise<Awaited<ReturnType<typeof lstat>> | undefined> {
  try {
    return await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new OutputFolderError(`Cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
}
