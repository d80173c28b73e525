// Completion in request files, as plain data: what to offer at a line and column, and which columns
// it replaces. The adapter (registerRequestFiles.ts) turns suggestions into CompletionItems.
// Plain TypeScript (unit-tested in plain Node).
import { COUNTRIES } from '../../core/protocol/countries';
import { MANAGED_HEADERS } from '../../core/requests/queries';
import { HTTP_METHODS, type ParsedRequest, type ParsedRequestFile } from '../../core/requests/requestFile';
import { splitLines } from '../../core/requests/requestText';
import { SYSTEM_VARIABLES } from '../../core/requests/requestVariables';
import { KNOWN_OPERATIONS, operationOf, REQUEST_HEADERS, type QueryParameter } from './knownOperations';

export type SuggestionKind = 'variable' | 'method' | 'request' | 'path' | 'parameter' | 'value' | 'header' | 'meta' | 'assertion';

export interface Suggestion {
  readonly label: string;
  readonly kind: SuggestionKind;
  /** Replaces the line's columns [start, end); a snippet (`$1`, `${1:x}`) when `snippet`. */
  readonly insertText: string;
  readonly snippet?: boolean;
  readonly start: number;
  readonly end: number;
  readonly detail?: string;
  readonly documentation?: string;
  /** Ask for completion again after inserting (a header name: then its value). */
  readonly retrigger?: boolean;
}

/** What a line of a request file is, for completion. */
type Role =
  | { readonly kind: 'meta' }
  | { readonly kind: 'requestLine' }
  | { readonly kind: 'query'; readonly request: ParsedRequest }
  | { readonly kind: 'header' }
  | { readonly kind: 'other' };

const SEPARATOR = /^###/;
const PREAMBLE = /^\s*(?:$|#|\/\/|@[A-Za-z_])/;

/** Suggestions at a 0-based line and column of a request file's text; `file` is what the parser read of it. */
export function completeRequestFile(text: string, file: ParsedRequestFile, line: number, character: number, connection: Readonly<Record<string, string>>): Suggestion[] {
  const lines = splitLines(text);
  // A position the text does not have (a stale one) has nothing to offer.
  if (!(line >= 0 && line < lines.length)) return [];
  const lineText = lines[line];
  const before = lineText.slice(0, character);
  const open = before.lastIndexOf('{{');
  if (open >= 0 && !before.slice(open).includes('}}')) return variables(file, line, lineText, open + 2, character, connection);
  if (/^\s*\?\?/.test(lineText)) return assertionLine(before);
  const role = roleOf(lines, file, line);
  switch (role.kind) {
    case 'meta':
      return metaLine(before);
    case 'requestLine':
      return requestLine(before, character, connection);
    case 'query':
      return queryPart(before, character, role.request.url);
    case 'header':
      return headerLine(before, character);
    default:
      return [];
  }
}

function roleOf(lines: readonly string[], file: ParsedRequestFile, line: number): Role {
  const text = lines[line] ?? '';
  if (SEPARATOR.test(text)) return { kind: 'other' };
  if (/^\s*(?:#|\/\/)\s*@/.test(text)) return { kind: 'meta' };
  if (/^\s*(?:#|\/\/|@)/.test(text)) return { kind: 'other' };
  let start = line;
  while (start > 0 && !SEPARATOR.test(lines[start - 1])) start--;
  const request = file.requests.find((r) => r.startLine === start);
  if (!request || line <= request.requestLine) {
    // Before the request line only comments, variables and blank lines: this line is the request line.
    for (let i = start; i < line; i++) if (!PREAMBLE.test(lines[i])) return { kind: 'other' };
    return text.trim() === '' && request !== undefined ? { kind: 'other' } : { kind: 'requestLine' };
  }
  for (let i = request.requestLine + 1; i < line; i++) if (lines[i].trim() === '') return { kind: 'other' };
  if (/^\s*[?&]/.test(text)) return { kind: 'query', request };
  return { kind: 'header' };
}

function variables(file: ParsedRequestFile, line: number, lineText: string, from: number, character: number, connection: Readonly<Record<string, string>>): Suggestion[] {
  const start = from + (lineText.slice(from, character).length - lineText.slice(from, character).trimStart().length);
  const closed = /^[^{}\s]*\s*\}\}/.exec(lineText.slice(character));
  const end = closed ? character + closed[0].length : character;
  const item = (label: string, detail: string, documentation?: string): Suggestion => ({ label, kind: 'variable', insertText: `${label}}}`, start, end, detail, documentation });
  const out: Suggestion[] = [];
  for (const [name, value] of Object.entries(connection)) out.push(item(name, value === '' ? '(not set)' : value, 'From the active connection (settings or the local sandbox).'));
  const seen = new Set<string>();
  for (const v of file.variables) {
    if (seen.has(v.name)) continue;
    seen.add(v.name);
    out.push(item(v.name, v.value, `Defined in this file (line ${v.span.line + 1}).`));
  }
  const system: Readonly<Record<string, string>> = { $guid: 'a new random UUID', $timestamp: 'seconds since 1970, now', $isoTimestamp: 'the time now, ISO 8601' };
  for (const name of SYSTEM_VARIABLES) out.push(item(name, system[name] ?? ''));
  const current = file.requests.find((r) => r.startLine <= line && line <= r.endLine);
  for (const r of file.requests) {
    if (!r.name || r === current || !/^[A-Za-z_][\w-]*$/.test(r.name)) continue;
    const doc = `From the last response of the request "${r.name}" in this file: send it first.`;
    out.push(item(`${r.name}.response.body.$`, 'the whole JSON body, or a JSONPath such as $.a.b[0]', doc));
    out.push(item(`${r.name}.response.body.*`, 'the body as text', doc));
    out.push(item(`${r.name}.response.headers.Content-Type`, 'a response header', doc));
  }
  return out;
}

function metaLine(before: string): Suggestion[] {
  const m = /^(\s*(?:#|\/\/)\s*@)([A-Za-z]*)$/.exec(before);
  if (m) {
    const start = m[1].length;
    return [
      { label: 'name', kind: 'meta', insertText: 'name ', start, end: before.length, detail: 'name the request (for chaining and --name)' },
      { label: 'interface', kind: 'meta', insertText: 'interface ', start, end: before.length, detail: "whose token to send: a or b", retrigger: true },
      {
        label: 'snapshot-ignore',
        kind: 'meta',
        insertText: 'snapshot-ignore \\$.${1:path}',
        snippet: true,
        start,
        end: before.length,
        detail: 'leave a value out of this request\'s ?? snapshot (a JSONPath)',
        documentation: 'Values that change on every call: the service\'s transaction ids and timestamps are left out already.',
      },
    ];
  }
  const i = /^(\s*(?:#|\/\/)\s*@interface\s+)(\w*)$/i.exec(before);
  if (!i) return [];
  const start = i[1].length;
  return [
    { label: 'a', kind: 'value', insertText: 'a', start, end: before.length, detail: 'Interface A: the consumer key\'s bearer token, and Origin' },
    { label: 'b', kind: 'value', insertText: 'b', start, end: before.length, detail: 'Interface B: the user name\'s raw token' },
  ];
}

/** What a `??` line can check (core/requests/assertions.ts), as snippets. */
const ASSERTIONS: readonly { readonly label: string; readonly snippet: string; readonly detail: string }[] = [
  { label: 'status', snippet: 'status == ${1:200}', detail: 'the HTTP status' },
  { label: 'header', snippet: 'header ${1:content-type} ${2:includes} ${3:json}', detail: 'a response header' },
  { label: 'body', snippet: 'body \\$.${1:path} ${2:exists}', detail: 'the body, or what a JSONPath selects' },
  { label: 'code', snippet: 'code == ${1:CM000}', detail: 'the result code in the answer' },
  { label: 'duration', snippet: 'duration < ${1:2000}', detail: 'milliseconds, retries included' },
  { label: 'schema', snippet: 'schema ./${1:answer}.schema.json', detail: 'the body is valid against a JSON Schema file beside this one' },
  { label: 'snapshot', snippet: 'snapshot', detail: 'the body equals its snapshot in __snapshots__/ (the first run writes it)' },
];

function assertionLine(before: string): Suggestion[] {
  const m = /^(\s*\?\?\s*)([A-Za-z]*)$/.exec(before);
  if (!m) return [];
  return ASSERTIONS.map((a) => ({ label: a.label, kind: 'assertion', insertText: a.snippet, snippet: true, start: m[1].length, end: before.length, detail: a.detail }));
}

const HOSTS = ['baseUrl', 'legacyUrl', 'authUrl'] as const;

function requestLine(before: string, character: number, connection: Readonly<Record<string, string>>): Suggestion[] {
  const lead = before.length - before.trimStart().length;
  if (/^\s*[A-Za-z]*$/.test(before)) {
    const methods: Suggestion[] = HTTP_METHODS.map((m, i) => ({ label: m, kind: 'method', insertText: `${m} `, start: lead, end: character, detail: i === 0 ? 'read' : undefined }));
    const requests: Suggestion[] = KNOWN_OPERATIONS.map((o) => ({
      label: `GET {{${o.host}}}${o.path}`,
      kind: 'request',
      insertText: `GET {{${o.host}}}${o.snippet}`,
      snippet: true,
      start: lead,
      end: character,
      detail: o.title,
    }));
    return [...requests, ...methods];
  }
  const url = /^(\s*(?:[A-Za-z]+\s+)?)(\S*)$/.exec(before);
  if (!url) return [];
  const [, head, typed] = url;
  if (typed.includes('?')) return queryPart(before, character, typed);
  if (!/^(?:\{\{|https?:|$)/.test(typed) && !'{{'.startsWith(typed)) return [];
  // The host as its variable, or as the address it stands for (a sandbox serves all three on one).
  const written = HOSTS.find((h) => typed.startsWith(`{{${h}}}`));
  const literal = written ? [] : HOSTS.filter((h) => connection[h] && typed.startsWith(connection[h]));
  if (!written && literal.length === 0) {
    return HOSTS.map((h) => ({ label: `{{${h}}}`, kind: 'variable', insertText: `{{${h}}}`, start: head.length, end: character, detail: connection[h] || '(not set)', retrigger: true }));
  }
  const prefix = written ? `{{${written}}}`.length : connection[literal[0]].length;
  return KNOWN_OPERATIONS.filter((o) => (written ? o.host === written : literal.includes(o.host))).map((o) => ({
    label: o.path,
    kind: 'path',
    insertText: o.snippet,
    snippet: true,
    start: head.length + prefix,
    end: character,
    detail: o.title,
  }));
}

/** Parameter names after `?` or `&`, values after `name=`, for the known operation `url` calls. */
function queryPart(before: string, character: number, url: string): Suggestion[] {
  const operation = operationOf(url);
  if (!operation) return [];
  const sep = Math.max(before.lastIndexOf('?'), before.lastIndexOf('&'));
  if (sep < 0) return [];
  const segment = before.slice(sep + 1);
  const eq = segment.indexOf('=');
  if (eq < 0) {
    const present = new Set([...`${url}&${before}`.matchAll(/[?&]([^=&\s]+)=/g)].map((m) => m[1]));
    return operation.parameters
      .filter((p) => !present.has(p.name))
      .map((p) => ({ label: p.name, kind: 'parameter', insertText: `${p.name}=`, start: sep + 1, end: character, detail: operation.title, documentation: p.description, retrigger: p.values !== undefined }));
  }
  const parameter = operation.parameters.find((p) => p.name === segment.slice(0, eq));
  return parameter ? parameterValues(parameter, sep + 2 + eq, character) : [];
}

function parameterValues(p: QueryParameter, start: number, end: number): Suggestion[] {
  if (p.values === 'countries') {
    return COUNTRIES.map((c) => ({ label: c.code, kind: 'value', insertText: c.code, start, end, detail: c.name }));
  }
  return (p.values ?? []).map((v) => ({ label: v.value, kind: 'value', insertText: v.value, start, end, detail: v.description }));
}

function headerLine(before: string, character: number): Suggestion[] {
  const colon = before.indexOf(':');
  if (colon < 0) {
    if (!/^\s*[\w-]*$/.test(before)) return [];
    return REQUEST_HEADERS.filter((h) => !MANAGED_HEADERS.has(h.name.toLowerCase())).map((h) => ({
      label: h.name,
      kind: 'header',
      insertText: `${h.name}: `,
      start: before.length - before.trimStart().length,
      end: character,
      documentation: h.description,
      retrigger: h.values !== undefined,
    }));
  }
  const header = REQUEST_HEADERS.find((h) => h.name.toLowerCase() === before.slice(0, colon).trim().toLowerCase());
  const start = colon + 1 + (before.slice(colon + 1).length - before.slice(colon + 1).trimStart().length);
  return (header?.values ?? []).map((v) => ({ label: v, kind: 'value', insertText: v, start, end: character, detail: header?.name }));
}
