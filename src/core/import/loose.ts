// Reading JSON (or YAML) that someone else's tool wrote: every field may be missing or of another
// type, so each is read through these, and a source that is not what it claims is one ImportError
// naming what is wrong and what to do.

/** A source that cannot be imported at all; its message names the file's problem and the fix. */
export class ImportError extends Error {}

export type Loose = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object, or an empty one. */
export function record(value: unknown): Loose {
  return isRecord(value) ? value : {};
}

/** The array, or an empty one. */
export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Text of a scalar (numbers and booleans as JSON writes them), JSON of anything else, '' for nothing. */
export function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/** A string field, or undefined. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** JSON text as a value; a document that is not JSON is an ImportError saying what the file should be. */
export function parseJson(source: string, what: string): unknown {
  try {
    return JSON.parse(source.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ImportError(`${what} is not JSON (${(err as Error).message}); export it again as a JSON file.`);
  }
}
