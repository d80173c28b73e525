// `?? schema ./FILE.schema.json`: the answer's JSON body validated against a JSON Schema file
// (draft-07, 2019-09 or 2020-12, by its `$schema`; 2020-12 without one) by ajv (jsonSchema.ts,
// loaded at the first such assertion). The file is read before anything is sent, only inside the
// request file's folder (fileSafety.ts), and compiled once per run; a missing or invalid schema stops
// the request at the assertion's line. Judging is pure: a failure names each value's JSON pointer
// and the rule it breaks, a few at most.
import { dirname, resolve } from 'node:path';
import { readInside } from './fileSafety';
import type { SchemaError } from './jsonSchema';

/** A schema file compiled, or why it cannot be used, said at the assertion's line. */
export type SchemaLoad = { readonly ok: true; readonly validate: (body: unknown) => readonly SchemaError[] } | { readonly ok: false; readonly message: string };

const SHOWN = 3;

/** The schema file of `?? schema PATH` as written, or why the line is refused. */
export function schemaTarget(rest: string): { readonly path: string } | { readonly problem: string } {
  if (rest === '') return { problem: '"?? schema" needs the schema file after it, relative to this request file, as "?? schema ./answer.schema.json".' };
  if (rest.includes('{{')) return { problem: 'Assertions are read as written: variables ({{…}}) are not replaced in them. Write the schema file\'s path itself.' };
  if (/\s/.test(rest)) return { problem: `"?? schema" takes one file, relative to this request file, as "?? schema ./answer.schema.json"; "${rest}" holds a space (a file name with spaces: rename it).` };
  return { path: rest };
}

/** Reads and compiles the schema file `written` of the request file `requestFile`, inside `root`. */
export async function loadSchema(requestFile: string, root: string, written: string): Promise<SchemaLoad> {
  const read = await readInside(resolve(dirname(requestFile), written), written, root, 'schema file');
  if (!read.ok) return read;
  let schema: unknown;
  try {
    schema = JSON.parse(Buffer.from(read.bytes).toString('utf8'));
  } catch (err) {
    return { ok: false, message: `The schema file ${written} is not JSON (${(err as Error).message}). A schema assertion takes a JSON Schema written as JSON.` };
  }
  // ajv and its formats (about 150 KB) are loaded here, at the first schema, never at start.
  const { compileJsonSchema } = await import('./jsonSchema.js');
  const compiled = compileJsonSchema(schema);
  if ('problem' in compiled) return { ok: false, message: `The schema file ${written} cannot be used: ${compiled.problem}` };
  return { ok: true, validate: compiled.validate };
}

/** The verdict of a schema on a body (undefined: the body is not JSON). */
export function judgeSchema(body: unknown, written: string, validate: (body: unknown) => readonly SchemaError[]): { readonly passed: boolean; readonly expected: string; readonly actual: string } {
  const expected = `to match ${written}`;
  if (body === undefined) return { passed: false, expected, actual: '(the body is not JSON)' };
  const errors = validate(body);
  if (errors.length === 0) return { passed: true, expected, actual: '(it does)' };
  const listed = errors.slice(0, SHOWN).map((e) => {
    const rule = `${e.keyword}${e.expected !== undefined ? ` ${e.expected}` : ''} at ${e.schemaPath}`;
    return `${e.instancePath === '' ? '(the body)' : e.instancePath}: ${e.message} (${rule})`;
  });
  const more = errors.length > SHOWN ? `; and ${errors.length - SHOWN} more` : '';
  return { passed: false, expected, actual: `${errors.length} ${errors.length === 1 ? 'error' : 'errors'}: ${listed.join('; ')}${more}` };
}
