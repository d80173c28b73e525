// The words of a `??` assertion line (assertions.ts), read one at a time; a JSONPath is one word
// whatever spaces its brackets and quotes hold; and the operators of httpYac's that this client does not take.

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

/** httpYac operators this client does not take, with what to write instead. */
export const INSTEAD: Readonly<Record<string, string>> = {
  contains: 'write "includes" instead of "contains"',
  startsWith: 'write "matches /^text/" instead of "startsWith text"',
  endsWith: 'write "matches /text$/" instead of "endsWith text"',
  isTrue: 'write "== true" instead of "isTrue"',
  isFalse: 'write "== false" instead of "isFalse"',
  isNumber: 'write "matches /^-?[0-9.]+$/" to check the value\'s digits, or compare it with "==", "<" or ">"',
  isString: 'write "exists", or compare the value with "==" or "matches /re/"',
  isBoolean: 'write "== true" or "== false"',
};
