// Secrets in the fields of an imported request: a header, query parameter, form field or JSON field
// whose name says it holds a secret (secretNames.ts). Its value never lands in a file: a value written
// out (a HAR's recorded password, a literal API key) becomes a `# @prompt` of the field's name, and
// the variables a value only names become secret themselves, so their values are asked too.
import { looksSecret } from '../secretNames';
import { referencedNames, variableName } from './importValues';

export interface SecretSink {
  /** `value` must be asked: a `# @prompt NAME` on the request; returns the variable to write. */
  prompt(field: string, value: string): string;
  /** A variable the source defines is a secret from now on (asked, never written). */
  taint(variable: string): void;
}

/** What to write for the value of a field named `name`: the value itself when the name says no secret. */
export function fieldValue(name: string, value: string, sink: SecretSink, percent = false): string {
  if (!looksSecret(name) || value === '') return value;
  const names = referencedNames(value);
  // Only references (and spaces): their variables are the secret; the text stays.
  if (value.replace(/\{\{[^{}]*\}\}/g, '').trim() === '' && names.length > 0) {
    for (const n of names) sink.taint(n);
    return value;
  }
  return `{{${percent ? '%' : ''}${sink.prompt(variableName(name), value)}}}`;
}

/** The URL with the values of its secret query parameters as prompts (percent-encoded when sent). */
export function secretQuery(url: string, sink: SecretSink): string {
  const masked = url.replace(/\{\{[^{}]*\}\}/g, (m) => '_'.repeat(m.length));
  const q = masked.indexOf('?');
  if (q < 0) return url;
  const pairs = url.slice(q + 1).split('&');
  const written = pairs.map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = safeDecode(pair.slice(0, eq));
    return `${pair.slice(0, eq)}=${fieldValue(name, pair.slice(eq + 1), sink, true)}`;
  });
  return `${url.slice(0, q + 1)}${written.join('&')}`;
}

/** A JSON body with the values of its secret fields (at any depth) as prompts; other text unchanged. */
export function secretJson(text: string, sink: SecretSink): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, inner]) => {
        if (typeof inner === 'string' && looksSecret(k)) {
          const written = fieldValue(k, inner, sink);
          changed ||= written !== inner;
          return [k, written];
        }
        return [k, walk(inner)];
      }),
    );
  };
  const out = walk(value);
  if (!changed) return text;
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  return JSON.stringify(out, null, indent === undefined ? undefined : indent.startsWith('\t') ? '\t' : indent.length);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
