// An append-only results file that survives kill -9: each result is written with writeSync as it is
// known, so a result counts as done only once it is in the file, and a later run reads the file back to
// skip what is done. A kill in the middle of a write leaves the last line cut short; readers ignore it
// and the next run starts on a fresh line (JSON Lines) or cuts it off (CSV, resultsCsv.ts).
import { writeSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';

export interface Appender {
  /** Appends the text now: it is in the file (the OS's page cache) when this returns. */
  append(text: string | Buffer): void;
  close(): Promise<void>;
}

/** Opens a file for appending (made if missing). */
export async function openAppender(path: string, readOnly = false): Promise<Appender> {
  // A dry run reads what is done and writes nothing, not even a file that is not there yet.
  if (readOnly) return { append: () => undefined, close: async () => undefined };
  const file = await open(path, 'a');
  return {
    // Written at once, as Node writes stdout to a file: a few microseconds a line cost less than a
    // trip to the thread pool per write at thousands of rows a second (batch.ts measured it).
    append(text) {
      const data = typeof text === 'string' ? Buffer.from(text) : text;
      for (let at = 0; at < data.length; ) at += writeSync(file.fd, data, at);
    },
    close: () => file.close(),
  };
}

/** A file's bytes, or undefined when there is no such file. */
export async function readIfThere(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The JSON values of a JSON Lines file, a line cut short (or any line that is not JSON) left out. */
export async function readJsonLines(path: string): Promise<{ readonly values: unknown[]; readonly endsMidLine: boolean }> {
  const text = (await readIfThere(path))?.toString('utf8') ?? '';
  const values: unknown[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      values.push(JSON.parse(raw));
    } catch {
      // a line cut short by a kill: its row runs again
    }
  }
  return { values, endsMidLine: text !== '' && !text.endsWith('\n') };
}
