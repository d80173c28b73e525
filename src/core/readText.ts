// Reading a file the user named (a CA file, a codes file) with an error that names it and says why.
import { readFileSync } from 'node:fs';
import { errorMessage } from './errors';

/** The file's text; throws an Error such as "Cannot read the codes file x.json: no such file." */
export function readNamedFile(what: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`Cannot read ${what} ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? errorMessage(err))}.`, { cause: err });
  }
}
