// An OpenAPI document (3.0 or 3.1, JSON or YAML; Swagger 2.0 read the same way where it differs) as
// an import source: one request per operation, grouped by its first tag, with its path and query
// parameters as variables (their example, default or first allowed value), its header parameters
// as headers, an example body from its schema, and `?? status == N` for the success it documents.
// A server that is relative (served from wherever the document is) names no host: its operations
// are the service's, written from the connection's addresses by their paths.
import { parse as parseYaml } from 'yaml';
import type { ImportedBody, ImportedRequest, ImportSource, NameValue, ReportLine, SourceVariable } from './importModel';
import { ImportError, isRecord, list, parseJson, record, stringOf, text, type Loose } from './loose';
import { exampleOf, givenExample, type Resolve } from './schemaExample';
import { variableName } from './importValues';

/** The host a relative server stands for: `.invalid` is reserved (RFC 2606); writeImport maps it to the connection's addresses. */
export const RELATIVE_SERVER = 'https://relative-server.invalid';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function readOpenApi(source: string, baseName: string): ImportSource {
  const doc = parseDocument(source);
  const v3 = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.');
  const v2 = doc.swagger === '2.0';
  if (!v3 && !v2)
    throw new ImportError(
      `The document is not OpenAPI 3 or Swagger 2.0 (its "openapi" is ${JSON.stringify(doc.openapi ?? doc.swagger ?? null)}). ` +
        'Give an OpenAPI document in JSON or YAML.',
    );
  const report: ReportLine[] = [];
  const title = text(record(doc.info).title).trim() || baseName;
  const label = `OpenAPI document "${title}"`;
  const resolve = resolver(doc, report, label);
  const requests: ImportedRequest[] = [];
  const secured = new Set<string>();
  for (const [path, rawItem] of Object.entries(record(doc.paths))) {
    const item = resolve(rawItem) ?? {};
    for (const method of METHODS) {
      const op = resolve(item[method]);
      if (!op) continue;
      for (const s of list(op.security ?? doc.security)) for (const k of Object.keys(record(s))) secured.add(k);
      const server = v3 ? serverOf(list(op.servers)[0] ?? list(item.servers)[0] ?? list(doc.servers)[0]) : swaggerServer(doc);
      requests.push(operation({ path, method, op, common: list(item.parameters), server, v2, doc, resolve, report }));
    }
  }
  if (requests.length === 0) report.push({ kind: 'left-out', where: label, message: 'It describes no operation (its "paths" are empty).' });
  if (secured.size > 0)
    report.push({
      kind: 'changed',
      where: label,
      message: `Its security schemes (${[...secured].join(', ')}) are the connection's managed token here: no credential is written.`,
    });
  return {
    label,
    baseName: title,
    comments: [],
    groupWord: 'tag',
    groupComments: [],
    requests,
    variables: [],
    report,
    serviceHosts: [RELATIVE_SERVER],
  };
}

function parseDocument(source: string): Loose {
  const trimmed = source.replace(/^\uFEFF/, '').trimStart();
  let doc: unknown;
  if (trimmed.startsWith('{')) doc = parseJson(trimmed, 'The OpenAPI document');
  else {
    try {
      // A YAML alias bomb stops at yaml's own limit of aliases.
      doc = parseYaml(trimmed, { maxAliasCount: 1000 });
    } catch (err) {
      throw new ImportError(`The OpenAPI document is neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (!isRecord(doc)) throw new ImportError('The OpenAPI document is not an object of fields (openapi, info, paths).');
  return doc;
}

/** Follows `$ref`s inside the document (`#/components/…`, `#/definitions/…`); another file's is reported once and read as nothing. */
function resolver(doc: Loose, report: ReportLine[], label: string): Resolve {
  const said = new Set<string>();
  return (node) => {
    let current = node;
    for (let hops = 0; isRecord(current) && typeof current.$ref === 'string'; hops++) {
      const ref = current.$ref;
      if (!ref.startsWith('#/') || hops > 32) {
        if (!said.has(ref))
          report.push({
            kind: 'left-out',
            where: label,
            message:
              `The reference ${ref.slice(0, 100)} is to another file (or goes round in a circle): what it describes is left out. ` +
              'Bundle the document into one file first.',
          });
        said.add(ref);
        return undefined;
      }
      current = ref
        .slice(2)
        .split('/')
        .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((at, key) => (isRecord(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined), doc);
    }
    return isRecord(current) ? current : undefined;
  };
}

/** A 3.x server's URL with its `{variables}` at their defaults; a relative one on RELATIVE_SERVER. */
function serverOf(server: unknown): string {
  const s = record(server);
  let url = text(s.url) || '/';
  for (const [name, v] of Object.entries(record(s.variables))) url = url.split(`{${name}}`).join(text(record(v).default));
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url)
    ? url.replace(/\/+$/, '')
    : `${RELATIVE_SERVER}${url.startsWith('/') ? '' : '/'}${url}`.replace(/\/+$/, '');
}

function swaggerServer(doc: Loose): string {
  const host = stringOf(doc.host);
  const base = (stringOf(doc.basePath) ?? '').replace(/\/+$/, '');
  return host ? `${text(list(doc.schemes)[0]) || 'https'}://${host}${base}` : `${RELATIVE_SERVER}${base}`;
}

interface Operation {
  readonly path: string;
  readonly method: string;
  readonly op: Loose;
  readonly common: readonly unknown[];
  readonly server: string;
  readonly v2: boolean;
  readonly doc: Loose;
  readonly resolve: Resolve;
  readonly report: ReportLine[];
}

function operation(o: Operation): ImportedRequest {
  const method = o.method.toUpperCase();
  const where = `${method} ${o.path}`;
  const tag = stringOf(list(o.op.tags)[0]);
  const params = new Map<string, Loose>();
  for (const raw of [...o.common, ...list(o.op.parameters)]) {
    const p = o.resolve(raw);
    if (p) params.set(`${text(p.in)}:${text(p.name)}`, p);
  }
  const variables: SourceVariable[] = [];
  const headers: NameValue[] = [];
  const query: string[] = [];
  const optional: string[] = [];
  let url = o.path;
  const formFields: Loose[] = [];
  let bodyParam: Loose | undefined;
  for (const p of params.values()) {
    const name = text(p.name);
    // An optional parameter is sent only with a value the document gives.
    const value = paramExample(p, o.resolve, p.required === true || p.in === 'path');
    const variable = variableName(name);
    const where_ = text(p.in);
    if (where_ === 'path') {
      url = url.split(`{${name}}`).join(`{{${variable}}}`);
      variables.push({ name: variable, value: value ?? '', secret: false });
    } else if (where_ === 'query') {
      if (value === undefined && p.required !== true) optional.push(name);
      else {
        query.push(`${encodeURIComponent(name)}={{%${variable}}}`);
        variables.push({ name: variable, value: value ?? '', secret: false });
      }
    } else if (where_ === 'header') {
      if (value === undefined && p.required !== true) continue;
      headers.push({ name, value: `{{${variable}}}` });
      variables.push({ name: variable, value: value ?? '', secret: false });
    } else if (where_ === 'body') bodyParam = p;
    else if (where_ === 'formData') formFields.push(p);
    else if (where_ === 'cookie') o.report.push({ kind: 'left-out', where, message: `Its cookie parameter ${name}: this client sends no cookies.` });
  }
  const body = o.v2 ? swaggerBody(o, bodyParam, formFields) : requestBody(o.resolve(o.op.requestBody), o.resolve, o.report, where);
  if (body?.contentType) headers.push({ name: 'Content-Type', value: body.contentType });
  const success = Object.keys(record(o.op.responses)).find((code) => /^2\d\d$/.test(code));
  const comments = [
    ...(o.op.deprecated === true ? ['The document marks this operation deprecated.'] : []),
    ...(optional.length > 0 ? [`Optional query parameters without an example, left out: ${optional.join(', ')}.`] : []),
  ];
  const title = text(o.op.summary).split('\n')[0].trim() || text(o.op.operationId) || where;
  return {
    group: tag ? [tag] : [],
    title,
    ...(stringOf(o.op.operationId) ? { name: text(o.op.operationId) } : {}),
    where,
    method,
    url: `${o.server}${url}${query.length > 0 ? `?${query.join('&')}` : ''}`,
    headers,
    ...(body ? { body: body.body } : {}),
    comments,
    assertions: success ? [`status == ${success}`] : [],
    variables,
  };
}

/** A parameter's example as text: its own example(s), else its schema's; `made`: one made up from the schema's type too. */
function paramExample(p: Loose, resolve: Resolve, made = true): string | undefined {
  const examples = Object.values(record(p.examples)).map((e) => resolve(e)?.value);
  const schema = p.schema ?? (p.type !== undefined ? p : undefined);
  const value = p.example ?? examples.find((e) => e !== undefined) ?? (made ? exampleOf(schema, resolve) : givenExample(schema, resolve));
  if (value === undefined) return undefined;
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined ? undefined : text(one);
}

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

/** A 3.x requestBody as an example body and its media type; media this reader makes no example for are reported. */
function requestBody(
  rb: Loose | undefined,
  resolve: Resolve,
  report: ReportLine[],
  where: string,
): { body: ImportedBody; contentType: string } | undefined {
  if (!rb) return undefined;
  const content = record(rb.content);
  const types = Object.keys(content);
  const type =
    types.find((t) => JSON_MEDIA.test(t)) ??
    types.find((t) => t === 'application/x-www-form-urlencoded' || t === 'multipart/form-data' || t.startsWith('text/')) ??
    types[0];
  if (type === undefined) return undefined;
  const media = record(content[type]);
  const examples = Object.values(record(media.examples)).map((e) => resolve(e)?.value);
  const value = media.example ?? examples.find((e) => e !== undefined) ?? exampleOf(media.schema, resolve);
  return exampleBody(type, value, media.schema, resolve, report, where);
}

function swaggerBody(
  o: Operation,
  bodyParam: Loose | undefined,
  formFields: readonly Loose[],
): { body: ImportedBody; contentType: string } | undefined {
  const consumes = list(o.op.consumes ?? o.doc.consumes).map(text);
  if (bodyParam)
    return exampleBody(
      consumes.find((t) => JSON_MEDIA.test(t)) ?? 'application/json',
      exampleOf(bodyParam.schema, o.resolve),
      bodyParam.schema,
      o.resolve,
      o.report,
      `${o.method.toUpperCase()} ${o.path}`,
    );
  if (formFields.length === 0) return undefined;
  const type =
    consumes.includes('multipart/form-data') || formFields.some((f) => f.type === 'file')
      ? 'multipart/form-data'
      : 'application/x-www-form-urlencoded';
  const value = Object.fromEntries(formFields.map((f) => [text(f.name), f.type === 'file' ? undefined : (paramExample(f, o.resolve) ?? '')]));
  const schema = {
    properties: Object.fromEntries(
      formFields.map((f) => [text(f.name), f.type === 'file' ? { type: 'string', format: 'binary' } : { type: 'string' }]),
    ),
  };
  return exampleBody(type, value, schema, o.resolve, o.report, `${o.method.toUpperCase()} ${o.path}`);
}

function exampleBody(
  type: string,
  value: unknown,
  schema: unknown,
  resolve: Resolve,
  report: ReportLine[],
  where: string,
): { body: ImportedBody; contentType: string } | undefined {
  if (JSON_MEDIA.test(type))
    return value === undefined ? undefined : { body: { kind: 'raw', text: JSON.stringify(value, null, 2) }, contentType: type };
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    const props = record(resolve(schema)?.properties);
    const fields = Object.entries(record(value));
    const binary = (name: string): boolean => resolve(props[name])?.format === 'binary';
    if (type === 'application/x-www-form-urlencoded')
      return { body: { kind: 'urlencoded', fields: fields.map(([name, v]) => ({ name, value: text(v) })) }, contentType: type };
    const names = [...new Set([...fields.map(([n]) => n), ...Object.keys(props).filter(binary)])];
    const parts = names.map((name) => (binary(name) ? { name, file: name } : { name, value: text(record(value)[name]) }));
    return { body: { kind: 'multipart', parts }, contentType: type };
  }
  if (typeof value === 'string') return { body: { kind: 'raw', text: value }, contentType: type };
  report.push({
    kind: 'changed',
    where,
    message: `Its body of type ${type.slice(0, 60)} has no example in the document: it is written without a body.`,
  });
  return undefined;
}
