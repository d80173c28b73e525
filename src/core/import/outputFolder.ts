// The one place an import writes: new files in one folder, never through a symbolic link (the folder
// and each file are checked with lstat, and each file is opened with O_NOFOLLOW, so a link put there
// meanwhile is refused by the system), and never over a file that is there unless asked to replace
// it; then every file named is refused before any is written.
import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { basename, join } from 'node:path';

export class OutputFolderError extends Error {}

/** Files of these names are in the folder already; nothing was written. */
export class ExistingFilesError extends OutputFolderError {
  constructor(readonly files: readonly string[]) {
    super(
      `${files.length === 1 ? 'A file of that name is' : 'Files of those names are'} in the output folder already: ${files.join(', ')}. ` +
        `Nothing was written: choose another folder, or replace ${files.length === 1 ? 'it' : 'them'} (--force).`,
    );
  }
}

/** Writes each file (UTF-8) into `dir`, made when missing; returns their paths. */
export async function writeFilesInFolder(
  dir: string,
  files: ReadonlyArray<{ readonly name: string; readonly text: string }>,
  replace: boolean,
): Promise<string[]> {
  await folder(dir);
  const existing: string[] = [];
  for (const f of files) {
    if (basename(f.name) !== f.name || f.name.startsWith('.')) throw new OutputFolderError(`"${f.name}" is not a plain file name.`);
    const stat = await lstat(join(dir, f.name)).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
    if (stat?.isSymbolicLink())
      throw new OutputFolderError(
        `${join(dir, f.name)} is a symbolic link: an import never writes through one. Remove the link, or choose another folder.`,
      );
    if (stat && !stat.isFile()) throw new OutputFolderError(`${join(dir, f.name)} is there and is not a file. Choose another folder.`);
    if (stat) existing.push(f.name);
  }
  if (existing.length > 0 && !replace) throw new ExistingFilesError(existing);
  const flags = constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (replace ? constants.O_TRUNC : constants.O_EXCL);
  const written: string[] = [];
  for (const f of files) {
    const path = join(dir, f.name);
    const handle = await open(path, flags, 0o644).catch((err: NodeJS.ErrnoException) => {
      throw new OutputFolderError(
        err.code === 'ELOOP'
          ? `${path} is a symbolic link: an import never writes through one.`
          : err.code === 'EEXIST'
            ? `${path} appeared while writing; nothing of it was replaced.`
            : `Cannot write ${path}: ${err.code ?? err.message}.`,
      );
    });
    try {
      await handle.writeFile(f.text, 'utf8');
    } finally {
      await handle.close();
    }
    written.push(path);
  }
  return written;
}

/** The folder, made when missing; a link or a file there is refused. */
async function folder(dir: string): Promise<void> {
  const stat = await lstat(dir).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
  if (stat?.isSymbolicLink())
    throw new OutputFolderError(
      `The output folder ${dir} is a symbolic link: an import never writes through one. Give the folder it points to, or another.`,
    );
  if (stat && !stat.isDirectory()) throw new OutputFolderError(`The output folder ${dir} is a file. Give a folder.`);
  if (!stat) {
    await mkdir(dir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
      throw new OutputFolderError(`Cannot make the output folder ${dir}: ${err.code ?? err.message}.`);
    });
    if ((await lstat(dir)).isSymbolicLink()) throw new OutputFolderError(`The output folder ${dir} is a symbolic link.`);
  }
}
