// Whether a JSON value is longer than a limit once written, found without writing it: the walk stops
// as soon as the limit is passed, so asking about a 50 MB answer costs what 64 KB does.
// Plain TypeScript (unit-tested in plain Node).

/** True when JSON.stringify(value) would be longer than `limit` characters (escapes aside). */
export function jsonLongerThan(value: unknown, limit: number): boolean {
  let budget = limit;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') budget -= v.length + 3;
    else if (typeof v === 'number' || typeof v === 'boolean') budget -= String(v).length + 1;
    else if (Array.isArray(v)) {
      // Brackets and a comma an element: a long array is too long before any element is looked at.
      budget -= 1 + v.length;
      if (budget < 0) return true;
      for (const item of v) stack.push(item);
    } else if (typeof v === 'object' && v !== null) {
      budget -= 1;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        budget -= key.length + 4;
        if (budget < 0) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    } else budget -= 5;
    if (budget < 0) return true;
  }
  return false;
}
