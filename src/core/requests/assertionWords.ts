// The words of a `??` assertion line (assertions.ts), read one at a time; a JSONPath is one word
// whatever spaces its brackets and quotes hold.

/** Words of an assertion, a JSONPath as one word whatever spaces its brackets and quotes hold. */
export class Words {
  private pos = 0;
  constructor(private readonly text: string) {}

  peek(): string | undefined {
    const at = this.pos;
    const word = this.next();
    this.pos = at;
    return word;
  }

  next(): string | undefined {
    this.skipSpace();
    if (this.pos >= this.text.length) return undefined;
    const start = this.pos;
    while (this.pos < this.text.length && !/\s/.test(this.text[this.pos])) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** A path ends at the first space outside brackets and quotes (`$['a b'][?@.n > 1]` is one path). */
  nextPath(): string {
    this.skipSpace();
    const start = this.pos;
    let depth = 0;
    let quote: string | undefined;
    for (; this.pos < this.text.length; this.pos++) {
      const ch = this.text[this.pos];
      if (quote !== undefined) {
        if (ch === '\\') this.pos++;
        else if (ch === quote) quote = undefined;
      } else if (ch === "'" || ch === '"') quote = ch;
      else if (ch === '[' || ch === '(') depth++;
      else if (ch === ']' || ch === ')') depth--;
      else if (depth <= 0 && /\s/.test(ch)) break;
    }
    return this.text.slice(start, this.pos);
  }

  rest(): string {
    return this.text.slice(this.pos).trim();
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }
}
