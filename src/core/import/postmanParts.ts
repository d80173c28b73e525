// The parts of a Postman request (Collection format v2.1, and v2.0 where it differs: auth attributes
// as an object instead of a key/value list): its URL, headers, body, auth and scripts, read as the
// collection writes them. Postman's own importers, Bruno's and Insomnia's read the same fields.
import type { FormPart, ImportedAuth, ImportedBody, NameValue, SourceVariable } from './importModel';
import { isRecord, list, record, stringOf, text, type Loose } from './loose';
import { scriptAssertions } from './postmanTests';

/** The URL as Postman sends it (its `raw`, else built from the parts), without a fragment; path variables (`:id`) as `{{id}}`. */
export function postmanUrl(url: unknown): { readonly url: string; readonly variables: SourceVariable[] } {
  if (typeof url === 'string') return { url: withoutFragment(url), variables: [] };
  const u = record(url);
  const raw = stringOf(u.raw) ?? fromParts(u);
  const variables = list(u.variable)
    .map(record)
    .flatMap((v) => {
      const name = stringOf(v.key) ?? stringOf(v.id);
      return name ? [{ name, value: text(v.value), secret: false }] : [];
    });
  let written = withoutFragment(raw);
  for (const v of variables) written = written.replace(new RegExp(`(/):${escapeRegExp(v.name)}(?=[/?]|$)`, 'g'), `$1{{${v.name}}}`);
  return { url: written, variables };
}

function fromParts(u: Loose): string {
  const host = Array.isArray(u.host) ? u.host.map(text).join('.') : text(u.host);
  const path = Array.isArray(u.path) ? u.path.map((p) => (isRecord(p) ? text(p.value) : text(p))).join('/') : text(u.path).replace(/^\//, '');
  const protocol = stringOf(u.protocol);
  const port = text(u.port);
  const query = list(u.query)
    .map(record)
    .filter((q) => q.disabled !== true && q.key !== undefined)
    .map((q) => (q.value === null || q.value === undefined ? text(q.key) : `${text(q.key)}=${text(q.value)}`));
  return `${protocol ? `${protocol}://` : ''}${host}${port ? `:${port}` : ''}${path ? `/${path}` : ''}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

function withoutFragment(url: string): string {
  // A `#` inside {{…}} is no fragment.
  const hash = url.replace(/\{\{[^{}]*\}\}/g, (m) => '_'.repeat(m.length)).indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The enabled headers: a list of `{key, value}` (or of `Key: value` strings), or one string of lines. */
export function postmanHeaders(header: unknown): NameValue[] {
  const items = typeof header === 'string' ? header.split(/\r?\n/).filter((l) => l.trim() !== '') : list(header);
  return items.flatMap((h) => {
    if (typeof h === 'string') {
      const colon = h.indexOf(':');
      return colon > 0 ? [{ name: h.slice(0, colon).trim(), value: h.slice(colon + 1).trim() }] : [];
    }
    const r = record(h);
    return r.disabled === true || stringOf(r.key) === undefined || stringOf(r.key) === '' ? [] : [{ name: text(r.key).trim(), value: text(r.value) }];
  });
}

/** Postman's raw languages as the Content-Type Postman adds for them when the request has none. */
const LANGUAGE_TYPES: Readonly<Record<string, string>> = {
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  javascript: 'application/javascript',
  text: 'text/plain',
};

/** The body of a request, or undefined for none (or a mode this reader does not know, said in `unknown`). */
export function postmanBody(body: unknown): { readonly body?: ImportedBody; readonly unknown?: string } {
  const b = record(body);
  if (b.disabled === true) return {};
  const mode = stringOf(b.mode);
  switch (mode) {
    case undefined:
      return {};
    case 'raw': {
      const raw = text(b.raw);
      if (raw === '') return {};
      const language = stringOf(record(record(b.options).raw).language);
      return {
        body: {
          kind: 'raw',
          text: raw,
          ...(language !== undefined && Object.hasOwn(LANGUAGE_TYPES, language) ? { contentType: LANGUAGE_TYPES[language] } : {}),
        },
      };
    }
    case 'urlencoded':
      return { body: { kind: 'urlencoded', fields: enabled(b.urlencoded).map((f) => ({ name: text(f.key), value: text(f.value) })) } };
    case 'formdata':
      return { body: { kind: 'multipart', parts: enabled(b.formdata).map(formPart) } };
    case 'graphql': {
      const g = typeof b.graphql === 'string' ? safeJson(b.graphql) : record(b.graphql);
      return { body: { kind: 'graphql', query: text(g.query), variables: text(g.variables).trim() } };
    }
    case 'file': {
      const src = text(record(b.file).src);
      return src === '' ? {} : { body: { kind: 'file', file: src } };
    }
    default:
      return { unknown: mode };
  }
}

function enabled(items: unknown): Loose[] {
  return list(items)
    .map(record)
    .filter((f) => f.disabled !== true && (f.key !== undefined || f.value !== undefined));
}

function formPart(f: Loose): FormPart {
  const name = text(f.key);
  const src = Array.isArray(f.src) ? text(f.src[0]) : text(f.src);
  const isFile = f.type === 'file' || (src !== '' && f.type !== 'text');
  if (!isFile) return { name, value: Array.isArray(f.value) ? f.value.map(text).join('') : text(f.value) };
  const contentType = stringOf(f.contentType);
  return { name, file: src, ...(contentType ? { contentType } : {}) };
}

function safeJson(s: string): Loose {
  try {
    return record(JSON.parse(s));
  } catch {
    return {};
  }
}

/**
 * The auth of an item: undefined when it inherits (none written, or `null`), `null` for Postman's
 * "No Auth"; else what it is. Attributes are a list of `{key, value}` in v2.1, an object in v2.0.
 */
export function postmanAuth(auth: unknown): ImportedAuth | null | undefined {
  if (!isRecord(auth)) return undefined;
  const type = stringOf(auth.type);
  if (type === undefined) return undefined;
  if (type === 'noauth') return null;
  const raw = auth[type];
  const attrs: Record<string, string> = {};
  if (Array.isArray(raw)) for (const a of raw.map(record)) attrs[text(a.key)] = text(a.value);
  else for (const [k, v] of Object.entries(record(raw))) attrs[k] = text(v);
  switch (type) {
    case 'bearer':
      return { kind: 'bearer', token: attrs.token ?? '' };
    case 'basic':
      return { kind: 'basic', user: attrs.username ?? '', password: attrs.password ?? '' };
    case 'oauth2':
      return { kind: 'oauth2' };
    case 'apikey':
      return { kind: 'apikey', name: attrs.key || 'x-api-key', value: attrs.value ?? '', in: attrs.in === 'query' ? 'query' : 'header' };
    default:
      return { kind: 'other', scheme: type };
  }
}

export interface Scripts {
  /** Comment lines keeping the scripts, each with a line saying it is not run. */
  readonly comments: string[];
  /** The test script's checks in common forms. */
  readonly assertions: string[];
}

/** An item's (or folder's, or the collection's) `event` list: its scripts kept as comments, its tests read as assertions. */
export function postmanScripts(events: unknown, whose: string): Scripts {
  const comments: string[] = [];
  const assertions: string[] = [];
  for (const e of list(events).map(record)) {
    if (e.disabled === true) continue;
    const script = record(e.script);
    const lines = Array.isArray(script.exec) ? script.exec.map(text) : text(script.exec).split(/\r?\n/);
    while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
    if (lines.every((l) => l.trim() === '')) continue;
    const test = e.listen === 'test';
    const found = test ? scriptAssertions(lines.join('\n')) : [];
    assertions.push(...found);
    comments.push(
      `Postman ${test ? 'test' : 'pre-request'} script of ${whose}, kept as comments: it is not run here (request files run no code).`,
      ...(found.length > 0
        ? [
            `Its checks in common forms are the ?? lines of ${whose === 'the collection' || whose.startsWith('folder') ? 'each request' : 'this request'}.`,
          ]
        : []),
      ...lines.map((l) => `  ${l}`),
    );
  }
  return { comments, assertions };
}
