// An append-only results file that survives kill -9: each result is written with writeSync as it is
// known, so a result counts as done only once it is in the file, and a later run reads the file back to
// skip what is done. A kill in the middle of a write leaves the last line cut short; readers ignore it
// and the next run starts on a fresh line (JSON Lines) or cuts it off (CSV, resultsCsv.ts). The file
// is opened by the one door (core/files/door.ts): never through a link, and read back through the
// same open file, as a stream, so a results file of any size is resumed in bounded memory.
import { writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openToWrite } from '../files/door';

export interface Appender {
  /** Appends the text now: it is in the file (the OS's page cache) when this returns. */
  append(text: string | Buffer): void;
  /** Cuts the file to its first `size` bytes (a record cut short by a kill), before anything is appended. */
  truncate(size: number): Promise<void>;
  close(): Promise<void>;
}

/** A results file open to append (made if missing, never through a link), with a way to read back what it holds. */
export interface Journal extends Appender {
  /** The bytes the file held when opened, as they come (read through the same open file). */
  chunks(): AsyncIterable<Buffer>;
  /** Its size when opened. */
  readonly size: number;
}

/** Opens a results file; a link at its name is refused (FileRefused), naming it as `what`. */
export async function openJournal(path: string, what: string): Promise<Journal> {
  const handle = await openToWrite(path, { append: true, read: true, what });
  const { size } = await handle.stat();
  return {
    size,
    chunks: () => readAll(handle, size),
    // Written at once, as Node writes stdout to a file: a few microseconds a line cost less than a
    // trip to the thread pool per write at thousands of rows a second (batch.ts measured it).
    append(text) {
      const data = typeof text === 'string' ? Buffer.from(text) : text;
      for (let at = 0; at < data.length; ) at += writeSync(handle.fd, data, at);
    },
    truncate: (to) => handle.truncate(to),
    close: () => handle.close(),
  };
}

async function* readAll(handle: FileHandle, size: number): AsyncGenerator<Buffer> {
  const buffer = Buffer.alloc(64 * 1024);
  for (let at = 0; at < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - at), at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield Buffer.from(buffer.subarray(0, bytesRead));
  }
}

/**
 * The lines of a JSON Lines file as they come: each whole line (its line feed read), then the last
 * one if the file does not end with a line feed (`cut`: a kill stopped its write).
 */
export async function* jsonLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<{ readonly text: string; readonly cut: boolean }> {
  let pending: Buffer[] = [];
  for await (const chunk of chunks) {
    let rest = chunk;
    for (let lf = rest.indexOf(0x0a); lf >= 0; lf = rest.indexOf(0x0a)) {
      yield { text: Buffer.concat([...pending, rest.subarray(0, lf)]).toString('utf8'), cut: false };
      pending = [];
      rest = rest.subarray(lf + 1);
    }
    if (rest.length > 0) pending.push(rest);
  }
  if (pending.length > 0) yield { text: Buffer.concat(pending).toString('utf8'), cut: true };
}
