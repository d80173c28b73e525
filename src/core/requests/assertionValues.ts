// How an assertion compares what an answer holds with the value written after its operator
// (assertions.ts): JSON when the value reads as JSON, text otherwise; numbers for the orderings.
import { isDeepStrictEqual } from 'node:util';

/**
 * A value written after an operator: JSON when it reads as JSON (`3`, `true`, `null`, `"a b"`, `[1]`),
 * else the text itself; `text` is the string a text is compared with (a JSON string's content).
 */
export function literal(written: string): { value: unknown; text: string } {
  try {
    const value: unknown = JSON.parse(written);
    return { value, text: typeof value === 'string' ? value : written };
  } catch {
    return { value: written, text: written };
  }
}

/** A text is compared as text (`?? code == 10002` and `?? body $.duns == 804735132` both hold for strings); other values as JSON. */
export function equals(actual: unknown, written: string): boolean {
  const { value, text } = literal(written);
  if (typeof actual === 'string') return actual === text;
  return isDeepStrictEqual(actual, value);
}

export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  return typeof v === 'string' && isNumberText(v) ? Number(v) : undefined;
}

export function isNumberText(s: string): boolean {
  return s.trim() !== '' && Number.isFinite(Number(s));
}

export function compare(op: '<' | '<=' | '>' | '>=', actual: number | undefined, expected: number): boolean {
  if (actual === undefined) return false;
  return op === '<' ? actual < expected : op === '<=' ? actual <= expected : op === '>' ? actual > expected : actual >= expected;
}
