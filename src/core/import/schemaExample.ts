// An example value for a JSON Schema of an OpenAPI document (3.0, 3.1 and Swagger 2.0's subset): the
// schema's own example, default, const or first enum value when it gives one, else a value of its
// type built from its properties, items and format, as Swagger UI and the peers' importers make
// one. References are followed inside the document (refs.ts); a schema that refers to itself ends in
// an empty value rather than going on.
import type { Loose } from './loose';
import { isRecord, list } from './loose';

export type Resolve = (node: unknown) => Loose | undefined;

const MAX_DEPTH = 12;

/** Example values of string formats: the ones a service of this kind takes. */
const FORMATS: Readonly<Record<string, string>> = {
  'date-time': '2025-01-31T12:00:00Z',
  date: '2025-01-31',
  time: '12:00:00Z',
  email: 'user@example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '203.0.113.7',
  ipv6: '2001:db8::1',
  byte: 'U3dhZ2dlcg==',
};

/** The schema's example value; `writing`: for a request, so readOnly properties are left out. */
export function exampleOf(schema: unknown, resolve: Resolve, writing = true, depth = 0, stack: readonly Loose[] = []): unknown {
  const s = resolve(schema);
  if (s === undefined || depth > MAX_DEPTH || stack.includes(s)) return undefined;
  const inner = [...stack, s];
  const given = own(s);
  if (given.found) return given.value;
  const all = list(s.allOf);
  if (all.length > 0) {
    const parts = all.map((p) => exampleOf(p, resolve, writing, depth + 1, inner));
    const base =
      typeOf(s) === 'object' || isRecord(s.properties) ? exampleOf({ ...s, allOf: undefined }, resolve, writing, depth + 1, inner) : undefined;
    const objects = [...parts, base].filter(isRecord);
    return objects.length > 0 ? Object.assign({}, ...objects) : parts.find((p) => p !== undefined);
  }
  const choice = list(s.oneOf)[0] ?? list(s.anyOf)[0];
  if (choice !== undefined) return exampleOf(choice, resolve, writing, depth + 1, inner);
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isRecord(s.properties) ? s.properties : {};
      for (const [name, p] of Object.entries(props)) {
        const prop = resolve(p);
        if (writing && prop?.readOnly === true) continue;
        if (!writing && prop?.writeOnly === true) continue;
        const value = exampleOf(p, resolve, writing, depth + 1, inner);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'array': {
      const item = exampleOf(s.items, resolve, writing, depth + 1, inner);
      return item === undefined ? [] : [item];
    }
    case 'string':
      return typeof s.format === 'string' && Object.hasOwn(FORMATS, s.format) ? FORMATS[s.format] : 'string';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** The example the schema itself gives (example, default, const, an allowed value), never one made up from its type. */
export function givenExample(schema: unknown, resolve: Resolve): unknown {
  const s = resolve(schema);
  return s === undefined ? undefined : own(s).value;
}

/** What the schema gives itself: example (3.0, 2.0), examples (3.1's list), default, const, the first enum value. */
function own(s: Loose): { found: boolean; value?: unknown } {
  if (s.example !== undefined) return { found: true, value: s.example };
  if (Array.isArray(s.examples) && s.examples.length > 0) return { found: true, value: s.examples[0] };
  if (s.default !== undefined) return { found: true, value: s.default };
  if (s.const !== undefined) return { found: true, value: s.const };
  if (Array.isArray(s.enum) && s.enum.length > 0) return { found: true, value: s.enum.find((v) => v !== null) ?? s.enum[0] };
  return { found: false };
}

/** The schema's type: 3.1's list of types gives its first that is not null; an object's or array's parts tell theirs. */
function typeOf(s: Loose): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') as string | undefined;
  if (isRecord(s.properties)) return 'object';
  if (s.items !== undefined) return 'array';
  return undefined;
}
