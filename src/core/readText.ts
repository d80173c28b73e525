// Reading a file the user named (a CA file, a codes file) with an error that names it and says why,
// and the one wording of why a file cannot be read or written, for every message that names a file.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorMessage } from './errors';

/** The file's text; throws an Error such as "Cannot read the codes file x.json: there is no such file (…)." */
export function readNamedFile(what: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`Cannot read ${what} ${file}: ${fileProblem(err, file)}.`, { cause: err });
  }
}

/**
 * Why a file could not be opened, in words (never a bare ENOENT): a missing file is named with where
 * it was looked for, as a relative name is read from the current folder.
 */
export function fileProblem(err: unknown, file: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return `there is no such file (looked for ${resolve(file)})`;
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder';
    case 'ELOOP':
      return 'it is a loop of symbolic links';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many files are open';
    default:
      return code ?? errorMessage(err);
  }
}
