// What every command is given and may end with: the process's streams, the files the user names,
// the exit statuses, and the error that means the user's input is wrong (exit 2).
import { readFile } from 'node:fs/promises';
import { FileRefused } from '../core/files/door';
import { safeText } from '../core/sanitize';

/** The process's streams and environment, passed in so commands hold no global state. */
export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
}

export const EXIT = { ok: 0, other: 1, usage: 2, auth: 3, limit: 4 } as const;

export class UsageError extends Error {}

/** Runs a command; its UsageError becomes one line on stderr (made safe for the terminal) and exit 2. */
export async function withUsage(command: string, io: CliIo, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    // A file refused by the door (a link, a file outside its folder) is the user's input too.
    if (!(err instanceof UsageError || err instanceof FileRefused)) throw err;
    // Usage messages may quote file names and values from files.
    io.stderr.write(`${safeText(`bizdata ${command}: ${err.message}`)}\n`);
    return EXIT.usage;
  }
}

/** A file named on the command line, as text; a file that cannot be read is a usage error. */
export async function readInputFile(file: string): Promise<string> {
  return (await readInputBytes(file)).toString('utf8');
}

/** The bytes of a file the user named; one that cannot be read is a usage error naming it. */
export async function readInputBytes(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
}
