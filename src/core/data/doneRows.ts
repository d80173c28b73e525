// Which rows a results file already holds as done, for resuming, in a few bytes a row: a data file of
// millions of rows is resumed without holding millions of keys. A row is known by its line and a
// digest of its values (so a row edited in the data file runs again); the last result written for a
// line is the one that counts.
import { createHash } from 'node:crypto';
import { MAX_DATA_LINE } from './dataLimits';

const DONE = 1;
const AGAIN = 2;

export class DoneRows {
  private digests = new Float64Array(1024);
  /** Per line: 0 nothing written, DONE or AGAIN (written, worth trying again). */
  private states = new Uint8Array(1024);

  /** Records a row's result as read from the results file, in the order written (the last one counts). */
  add(line: number, values: Readonly<Record<string, string>>, final: boolean): void {
    // No data file has a row past MAX_DATA_LINE: a results file from elsewhere may say otherwise.
    if (!Number.isSafeInteger(line) || line < 1 || line > MAX_DATA_LINE) return;
    this.digests = holding(this.digests, line);
    this.states = holding(this.states, line);
    this.digests[line] = valuesDigest(values);
    this.states[line] = final ? DONE : AGAIN;
  }

  /** Whether the row (same line, same values) was written as done. */
  has(line: number, values: Readonly<Record<string, string>>): boolean {
    if (line >= this.states.length || this.states[line] !== DONE) return false;
    return this.digests[line] === valuesDigest(values);
  }

  /** Lines written as done (for a summary of the whole job). */
  get count(): number {
    let n = 0;
    for (const s of this.states) if (s === DONE) n++;
    return n;
  }
}

/** A table by line: the array itself when it holds `line`, else a copy doubled until it does. */
export function holding<A extends Float64Array | Uint32Array | Uint8Array>(array: A, line: number): A {
  if (line < array.length) return array;
  let size = array.length;
  while (size <= line) size *= 2;
  const grown = new (array.constructor as new (length: number) => A)(size);
  grown.set(array);
  return grown;
}

/** A row's values as one number (52 bits of SHA-256 over them in name order), exact in a double. */
export function valuesDigest(values: Readonly<Record<string, string>>): number {
  const entries = Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const d = createHash('sha256').update(JSON.stringify(entries)).digest();
  // 4 bytes and 20 bits: below 2^52, so every value is an exact integer.
  return d.readUInt32BE(0) * 0x100000 + (d.readUInt32BE(4) >>> 12);
}
