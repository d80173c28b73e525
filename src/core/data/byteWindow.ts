// The bytes of a streamed file from the end of the last whole record onward, with the count of line
// feeds before them: enough to give every record the 1-based line it starts at, and to find where an
// unfinished record opened its quote, without ever holding the whole file.

export class ByteWindow {
  private chunks: Buffer[] = [];
  /** The file offset of the first byte held. */
  private base = 0;
  /** The line of the first byte held (1-based). */
  private line = 1;
  private held = 0;

  /** The file offset just past the last byte added. */
  get end(): number {
    return this.base + this.held;
  }

  add(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.held += chunk.length;
  }

  /** The byte at a file offset, or undefined outside what is held. */
  at(offset: number): number | undefined {
    let i = offset - this.base;
    if (i < 0) return undefined;
    for (const c of this.chunks) {
      if (i < c.length) return c[i];
      i -= c.length;
    }
    return undefined;
  }

  /** The first offset at or after `from` that is no line break (where a record starts after blank lines). */
  recordStart(from: number): number {
    let at = from;
    for (let b = this.at(at); b === 0x0a || b === 0x0d; b = this.at(++at));
    return at;
  }

  /** The 1-based line of a file offset at or after the window's start. */
  lineAt(offset: number): number {
    return this.line + this.countLf(this.base, offset);
  }

  /** Forgets the bytes before `offset` (a whole record was read up to there), keeping the line count. */
  dropTo(offset: number): void {
    if (offset <= this.base) return;
    this.line += this.countLf(this.base, offset);
    let drop = Math.min(offset, this.end) - this.base;
    this.base += drop;
    this.held -= drop;
    while (drop > 0 && this.chunks.length > 0) {
      const first = this.chunks[0];
      if (first.length <= drop) {
        drop -= first.length;
        this.chunks.shift();
      } else {
        this.chunks[0] = first.subarray(drop);
        drop = 0;
      }
    }
  }

  /** The bytes held from `offset` to the end (a copy). */
  from(offset: number): Buffer {
    return Buffer.concat(this.chunks).subarray(Math.max(0, offset - this.base));
  }

  private countLf(from: number, to: number): number {
    let n = 0;
    let i = from - this.base;
    let left = Math.min(to, this.end) - from;
    for (const c of this.chunks) {
      if (left <= 0) break;
      if (i >= c.length) {
        i -= c.length;
        continue;
      }
      const part = c.subarray(i, Math.min(c.length, i + left));
      for (let at = part.indexOf(0x0a); at >= 0; at = part.indexOf(0x0a, at + 1)) n++;
      left -= part.length;
      i = 0;
    }
    return n;
  }
}
