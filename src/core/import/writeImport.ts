// An import source written as request files, by one set of rules whatever the format: variables
// named as a request file reads them (Postman's dynamic ones as system variables), each request
// prepared (importRequest.ts: where it goes, what it may hold, its secrets), then one file per group
// (Postman's folder, OpenAPI's tag) with the variables it uses, checked by the request-file parser
// (importFile.ts). Pure: the command line and the editor write the result through one door.
import type { ImportedBody, ImportedRequest, ImportSource, ReportLine, SourceVariable } from './importModel';
import { renderFile, type FileState } from './importFile';
import { prepareRequest, type PreparedRequest } from './importRequest';
import type { ImportOptions } from './importTarget';
import { exactOrigin } from '../protocol/credentialOrigins';
import { renameReferences, SourceValues, systemForm, variableName } from './importValues';

export type { ImportOptions } from './importTarget';

export interface ImportedFile {
  /** The file's name in the output folder. */
  readonly name: string;
  readonly text: string;
  readonly requests: number;
}

export interface ImportResult {
  readonly files: readonly ImportedFile[];
  /** Bodies that request files send from a file beside them (`< ./NAME`). */
  readonly bodyFiles: ReadonlyArray<{ readonly name: string; readonly text: string }>;
  readonly report: readonly ReportLine[];
}

export const REQUEST_FILE_SUFFIX = '.bizdata.http';
/** Requests to other hosts, kept with --all: a `.http` file for REST Client or httpYac, never a request file of this client. */
export const OTHER_HOSTS_SUFFIX = '.http';

export function writeImport(raw: ImportSource, given: ImportOptions): ImportResult {
  const options = { ...given, hosts: [...given.hosts, ...(raw.serviceHosts ?? [])] };
  const report: ReportLine[] = [...raw.report];
  const source = named(raw, report);
  const values = new SourceValues(source.variables);
  const tainted = new Set<string>();
  const taken = new Set<string>();
  const fileOf = new Map<string, string>();
  const bodyFiles: Array<{ name: string; text: string }> = [];
  const groups = new Map<string, { group: readonly string[]; prepared: PreparedRequest[] }>();
  const others = new Map<string, string[]>();
  for (const r of source.requests) {
    const key = JSON.stringify(r.group);
    if (!fileOf.has(key)) fileOf.set(key, freeName(slug(r.group.length > 0 ? r.group.join('-') : source.baseName), REQUEST_FILE_SUFFIX, taken));
    const file = fileOf.get(key) as string;
    const base = file.slice(0, -REQUEST_FILE_SUFFIX.length);
    const p = prepareRequest(r, { values, options, tainted, report, others, bodyFileName: (ext) => freeName(`${base}.body`, `.${ext}`, taken) });
    if (!p) continue;
    if (p.body?.file) bodyFiles.push(p.body.file);
    // Requests to other hosts (--all) go to a file of their own that no run of this client reads.
    const fileKey = p.elsewhere ? `${key}#elsewhere` : key;
    if (!fileOf.has(fileKey)) fileOf.set(fileKey, freeName(`${base}.other-hosts`, OTHER_HOSTS_SUFFIX, taken));
    const g = groups.get(fileKey) ?? { group: r.group, prepared: [] };
    g.prepared.push(p);
    groups.set(fileKey, g);
  }
  report.push(...otherHosts(others, options));
  const files: ImportedFile[] = [];
  for (const [key, g] of groups) {
    const state: FileState = {
      label: source.label,
      group: g.group,
      groupWord: source.groupWord,
      comments: [...source.comments, ...(source.groupComments.find((c) => JSON.stringify(c.group) === JSON.stringify(g.group))?.comments ?? [])],
    };
    const rendered = renderFile(g.prepared, state, { values, tainted, endpoints: options.endpoints, report });
    const name = fileOf.get(key) as string;
    if (rendered.requests.length === 0) continue;
    files.push({ name, text: rendered.text, requests: rendered.requests.length });
    for (const r of rendered.requests) report.push({ kind: 'imported', where: r.where, message: `→ ${name}` });
  }
  const used = new Set(files.flatMap((f) => [...f.text.matchAll(/^<@? \.\/(.+)$/gm)].map((m) => m[1])));
  return { files, bodyFiles: bodyFiles.filter((b) => used.has(b.name)), report: order(report, source.requests) };
}

/** One line per other host: the requests that go there, and how to keep them. */
function otherHosts(others: ReadonlyMap<string, readonly string[]>, o: ImportOptions): ReportLine[] {
  const own = [...new Set([o.endpoints.authUrl, o.endpoints.baseUrl, o.endpoints.legacyUrl].map(exactOrigin).filter((x) => x !== undefined))];
  const connection = own.length > 0 ? `the connection's addresses (${own.join(', ')})` : "the connection's addresses (none is given)";
  return [...others].map(([origin, wheres]) => ({
    kind: 'left-out' as const,
    where: origin,
    message:
      `${wheres.length === 1 ? '1 request goes' : `${wheres.length} requests go`} there, which is none of ${connection}: ` +
      "a request file sends only to the connection's addresses " +
      `(${wheres.slice(0, 5).join('; ')}${wheres.length > 5 ? `; and ${wheres.length - 5} more` : ''}). ` +
      `If it is the service, import again with --host ${origin}; --all writes ${wheres.length === 1 ? 'it' : 'them'} for another tool (NAME.other-hosts.http).`,
  }));
}

/** The report in the source's order: what the source says first, then each request's lines together. */
function order(report: readonly ReportLine[], requests: readonly ImportedRequest[]): ReportLine[] {
  const rank = new Map(requests.map((r, i) => [r.where, i]));
  return report
    .map((line, i) => ({ line, i, at: rank.get(line.where) ?? -1 }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((x) => x.line);
}

/**
 * The source with every `{{name}}` written as a request file reads names, and Postman's dynamic
 * variables as system variables; one this client cannot make up becomes a plain variable, asked.
 */
function named(source: ImportSource, report: ReportLine[]): ImportSource {
  const said = new Set<string>();
  const rename = (name: string): string => {
    if (!name.startsWith('$')) return variableName(name);
    const system = systemForm(name);
    if (system !== undefined) return system;
    const plain = variableName(name.slice(1));
    if (!said.has(name)) {
      said.add(name);
      report.push({
        kind: 'changed',
        where: source.label,
        message: `{{${name}}} is a value Postman makes up when sending; here it is {{${plain}}}, asked when sending.`,
      });
    }
    return plain;
  };
  const t = (text: string): string => renameReferences(text, rename);
  const variable = (v: SourceVariable): SourceVariable => ({ ...v, name: variableName(v.name), value: t(v.value) });
  const requests = source.requests.map((r): ImportedRequest => ({
    ...r,
    url: t(r.url),
    headers: r.headers.map((h) => ({ name: h.name, value: t(h.value) })),
    ...(r.body ? { body: body(r.body, t) } : {}),
    ...(r.auth ? { auth: auth(r.auth, t) } : {}),
    variables: r.variables.map(variable),
  }));
  return { ...source, requests, variables: source.variables.map(variable) };
}

function body(b: ImportedBody, t: (s: string) => string): ImportedBody {
  switch (b.kind) {
    case 'raw':
      return { ...b, text: t(b.text) };
    case 'urlencoded':
      return { kind: 'urlencoded', fields: b.fields.map((f) => ({ name: f.name, value: t(f.value) })) };
    case 'multipart':
      return { kind: 'multipart', parts: b.parts.map((p) => ('value' in p ? { name: p.name, value: t(p.value) } : p)) };
    case 'graphql':
      return { kind: 'graphql', query: t(b.query), variables: t(b.variables) };
    case 'file':
      return b;
  }
}

function auth(a: NonNullable<ImportedRequest['auth']>, t: (s: string) => string): NonNullable<ImportedRequest['auth']> {
  if (a.kind === 'bearer') return { kind: 'bearer', token: t(a.token) };
  if (a.kind === 'basic') return { kind: 'basic', user: t(a.user), password: t(a.password) };
  if (a.kind === 'apikey') return { ...a, value: t(a.value) };
  return a;
}

/** A file name of letters, digits and dashes made from any text. */
export function slug(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s === '' ? 'requests' : s;
}

/** `base + suffix`, or `base-2 + suffix` … : a name not taken yet (and now taken). */
function freeName(base: string, suffix: string, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const name = `${base}${n === 1 ? '' : `-${n}`}${suffix}`;
    if (!taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      return name;
    }
  }
}
