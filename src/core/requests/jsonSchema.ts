// JSON Schema for `?? schema ./FILE.schema.json` (schemaCheck.ts): a schema compiled by ajv, the
// validator the JSON Schema organisation lists first for JavaScript, with ajv-formats for `format`
// (date-time, email, uri …). Loaded apart (dist/jsonSchema.js, esbuild.mjs) at the first schema
// assertion, never at activation or for a run without one.
//
// A schema file may come from someone else's repository, so: its `pattern` and `patternProperties`
// run on RE2, as `matches` does (assertionPattern.ts), so no pattern can hang a run; `$ref` reaches
// only inside the file (ajv fetches nothing without a loader, and none is given); ajv writes nothing
// to the console. Keywords a draft does not know are ignored, as JSON Schema says (schemas made from
// OpenAPI documents carry `example` and `x-…`).
import Ajv, { type AnySchemaObject, type ErrorObject, type Options } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { compileSource } from './assertionPattern';

/** One way the body breaks a schema: where (a JSON pointer into the body), which rule, and ajv's words. */
export interface SchemaError {
  /** JSON pointer (RFC 6901) of the value in the body; '' for the body itself. */
  readonly instancePath: string;
  readonly keyword: string;
  /** Where the rule is in the schema, as a URI fragment (`#/properties/a/type`). */
  readonly schemaPath: string;
  /** ajv's sentence, as "must be string" or "must have required property 'ResultID'". */
  readonly message: string;
  /** What the rule expects, when it says more than the sentence (allowed values, a constant, a pattern). */
  readonly expected?: string;
}

export type CompiledSchema = { readonly validate: (body: unknown) => readonly SchemaError[] } | { readonly problem: string };

const DRAFTS: Readonly<Record<string, 'draft-07' | '2019-09' | '2020-12'>> = {
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
};

/** RE2 for the schema's patterns: a pattern RE2 cannot take refuses the schema, with what to write instead. */
const re2Engine: RegExpEngine = Object.assign(
  (pattern: string, u: string) => {
    const compiled = compileSource(pattern, u);
    if ('problem' in compiled) throw new Error(`its pattern ${compiled.problem}`);
    return compiled.regex;
  },
  { code: 're2' },
);

/** The schema compiled for its draft (`$schema`: draft-07, 2019-09 or 2020-12, the default), or why it cannot be. */
export function compileJsonSchema(schema: unknown): CompiledSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { problem: typeof schema === 'boolean' ? 'it is the schema `' + String(schema) + '`, which checks nothing worth a test; write an object schema.' : 'a JSON Schema is a JSON object.' };
  }
  const declared = (schema as AnySchemaObject).$schema;
  const draft = declared === undefined ? '2020-12' : DRAFTS[String(declared).replace(/#$/, '')];
  if (draft === undefined) {
    return { problem: `its "$schema" is ${JSON.stringify(declared)}; schema assertions take draft-07 ("http://json-schema.org/draft-07/schema#"), 2019-09 and 2020-12 (the default, without "$schema").` };
  }
  const options: Options = { allErrors: true, strict: false, logger: false, code: { regExp: re2Engine } };
  const ajv = draft === 'draft-07' ? new Ajv(options) : draft === '2019-09' ? new Ajv2019(options) : new Ajv2020(options);
  addFormats(ajv);
  try {
    const validate = ajv.compile(schema);
    return { validate: (body) => (validate(body) ? [] : (validate.errors ?? []).map(schemaError)) };
  } catch (err) {
    // A schema that breaks its draft's own rules, a `$ref` to another file, a pattern RE2 refuses, one nested too deep.
    const missing = (err as { missingRef?: unknown }).missingRef;
    const message =
      err instanceof RangeError
        ? 'it is nested too deeply to compile'
        : typeof missing === 'string'
          ? `it refers to ${missing}, which is not in this file: a schema assertion reads its one file and fetches nothing. Put the definition under "$defs" and refer to it as "#/$defs/NAME"`
          : (err as Error).message.replace(/^schema is invalid: /, "it breaks its draft's rules: ");
    return { problem: `${message} (JSON Schema ${draft}).` };
  }
}

function schemaError(e: ErrorObject): SchemaError {
  const p = e.params as Record<string, unknown>;
  const expected =
    e.keyword === 'enum' ? JSON.stringify(p.allowedValues) : e.keyword === 'const' ? JSON.stringify(p.allowedValue) : e.keyword === 'additionalProperties' ? `no property "${String(p.additionalProperty)}"` : undefined;
  return { instancePath: e.instancePath, keyword: e.keyword, schemaPath: e.schemaPath, message: e.message ?? e.keyword, ...(expected !== undefined ? { expected } : {}) };
}
