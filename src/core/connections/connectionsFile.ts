// Reading connections: from a file's text (the command line's connections.json) or from a value
// already parsed (the extension's `bizdata.connections` setting). Both go through the same checks,
// which follow schemas/connections.schema.json (a unit test holds the two together), and every
// problem names the connection and the field, and where it is: FILE:LINE:COLUMN for a file, the
// path inside the setting for a value. Nothing is used until all of it is right. A name whose
// credential variables are the client's own (environmentNames.ts) is refused like a reserved one.
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { checkServiceUrl } from '../http/serviceUrls';
import { checkHeaderValue } from '../protocol/validate';
import { contractProblems } from '../contract/contract';
import { didYouMean } from '../closest';
import { variableClash } from './environmentNames';
import { CONNECTION_NAME, connectionFromFields, connectionKey, RESERVED_CONNECTION_NAMES, SANDBOX_CONNECTION, shownName, type ConnectionFields, type Connections } from './connection';

export interface ConnectionsProblem {
  readonly message: string;
  /** Where in the document: `["connections", "test", "baseUrl"]`. */
  readonly path: ReadonlyArray<string | number>;
  /** 1-based, for a text. */
  readonly line?: number;
  readonly column?: number;
}

/** The connections cannot be used; `message` holds one line per problem, each with its place. */
export class ConnectionsError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly ConnectionsProblem[],
  ) {
    super(
      `${source} cannot be used (${problems.length === 1 ? 'a problem' : `${problems.length} problems`}); nothing was sent:\n` +
        problems.map((p) => `${p.line !== undefined ? `${source}:${p.line}:${p.column}` : `${source} ${p.path.length > 0 ? p.path.join('.') : '(top)'}`}: ${p.message}`).join('\n'),
    );
    this.name = 'ConnectionsError';
  }
}

const ADDRESS_FIELDS = ['authUrl', 'baseUrl', 'legacyUrl'] as const;
const SEGMENT_FIELDS = ['aVersion', 'authVersion', 'orgVersion'] as const;
export const CONNECTION_FIELDS = [...ADDRESS_FIELDS, 'origin', ...SEGMENT_FIELDS, 'qps', 'concurrency', 'coordinator', 'proxy', 'caFile', 'production', 'contract'] as const;
const TOP_FIELDS = ['$schema', 'active', 'connections'];

type Path = ReadonlyArray<string | number>;
/** Where a path is: its value, or (`key`) the property's name. */
type Locate = (path: Path, key?: boolean) => { line: number; column: number } | undefined;

/** Connections from a file's text; throws ConnectionsError with FILE:LINE:COLUMN for invalid JSON or any problem. */
export function parseConnectionsText(text: string, source: string): Connections {
  const errors: ParseError[] = [];
  const body = text.replace(/^\uFEFF/, '');
  const root = parseTree(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const place = (offset: number): { line: number; column: number } => {
    const before = body.slice(0, offset).split(/\r\n|\r|\n/);
    return { line: before.length, column: before[before.length - 1].length + 1 };
  };
  if (errors.length > 0 || root === undefined) {
    const e = errors[0];
    const at = e ? place(e.offset) : { line: 1, column: 1 };
    const what = e ? printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : 'no content';
    throw new ConnectionsError(source, [{ message: `not valid JSON (${what}). Write it as {"active": "NAME", "connections": {"NAME": {"baseUrl": "https://…", …}}}.`, path: [], ...at }]);
  }
  const locate: Locate = (path, key) => {
    const node = findNodeAtLocation(root, [...path]);
    if (!node) return undefined;
    const target = key && node.parent?.type === 'property' ? (node.parent.children?.[0] ?? node) : node;
    return place(target.offset);
  };
  const duplicates = duplicateNames(root).map((n): ConnectionsProblem => ({
    message: sameKey(n.name, n.first),
    path: ['connections', n.name],
    ...place(n.node.offset),
  }));
  return checkDocument(getNodeValue(root), source, locate, duplicates, false);
}

function sameKey(name: string, first: string): string {
  const also = first !== name ? ` (as "${shownName(first)}" too: names that differ only in case or in ".", "-" and "_" are one name, with one set of credential variables)` : '';
  return `connection "${shownName(name)}" is defined twice${also}; keep one of them or rename this one.`;
}

/** Connections from a value already parsed (the extension's setting); problems name their path inside it. */
export function readConnectionsValue(value: unknown, source: string): Connections {
  return checkDocument(value, source, () => undefined, [], true);
}

/** The names under "connections" written more than once (JSON.parse would keep the last silently), or with one `connectionKey`. */
function duplicateNames(root: Node): Array<{ name: string; first: string; node: Node }> {
  const conns = root.type === 'object' ? root.children?.find((p) => p.children?.[0]?.value === 'connections')?.children?.[1] : undefined;
  if (conns?.type !== 'object') return [];
  const seen = new Map<string, string>();
  const out: Array<{ name: string; first: string; node: Node }> = [];
  for (const prop of conns.children ?? []) {
    const key = prop.children?.[0];
    if (typeof key?.value !== 'string') continue;
    const first = seen.get(connectionKey(key.value));
    if (first !== undefined) out.push({ name: key.value, first, node: key });
    else seen.set(connectionKey(key.value), key.value);
  }
  return out;
}

function checkDocument(doc: unknown, source: string, locate: Locate, early: readonly ConnectionsProblem[], checkKeys: boolean): Connections {
  const problems: ConnectionsProblem[] = [...early];
  const add = (path: Path, message: string, key = false): void => void problems.push({ message, path, ...locate(path, key) });
  if (!isRecord(doc)) {
    add([], 'must be an object: {"active": "NAME", "connections": {"NAME": {"baseUrl": "https://…", …}}}.');
    throw new ConnectionsError(source, problems);
  }
  for (const k of Object.keys(doc)) if (!TOP_FIELDS.includes(k)) add([k], `unknown field "${shownName(k)}"; the fields at the top are "active" and "connections".`, true);
  const raw = doc.connections;
  const fieldsByName = new Map<string, ConnectionFields>();
  if (!isRecord(raw)) {
    add(raw === undefined ? [] : ['connections'], '"connections" must be an object of connections by name: {"NAME": {"baseUrl": "https://…", …}}.');
  } else {
    const keys = new Map<string, string>();
    for (const [name, fields] of Object.entries(raw)) {
      const at = ['connections', name];
      const first = keys.get(connectionKey(name));
      if (checkKeys && first !== undefined) add(at, sameKey(name, first), true);
      keys.set(connectionKey(name), first ?? name);
      const badName = connectionNameProblem(name);
      if (badName) add(at, badName, true);
      const checked = checkConnection(name, fields, (field, message, key) => add(field === undefined ? at : [...at, ...[field].flat()], message, key));
      if (checked && !fieldsByName.has(name)) fieldsByName.set(name, checked);
    }
  }
  const active = doc.active;
  if (active !== undefined) {
    if (typeof active !== 'string') add(['active'], '"active" must be the name of a connection, as text.');
    else if (isRecord(raw) && active !== SANDBOX_CONNECTION && !Object.hasOwn(raw, active)) {
      add(['active'], `"active" names "${shownName(active)}", which is no connection here; use one of ${[...Object.keys(raw).map(shownName), SANDBOX_CONNECTION].join(', ')}.`);
    }
  }
  if (problems.length > 0) {
    const order = (p: ConnectionsProblem): number => (p.line ?? 0) * 1e6 + (p.column ?? 0);
    throw new ConnectionsError(source, problems.sort((a, b) => order(a) - order(b)));
  }
  const list = [...fieldsByName].map(([name, fields]) => connectionFromFields(name, fields));
  return { list, source, ...(typeof active === 'string' ? { active } : {}) };
}

/** Why a connection may not be named so (the sandbox's name, a character no name has, credential variables of the client's own), or undefined. */
export function connectionNameProblem(name: string): string | undefined {
  if (RESERVED_CONNECTION_NAMES.includes(name)) return `"${name}" is the name of the local sandbox, which is always a connection of its own; give this connection another name.`;
  if (!CONNECTION_NAME.test(name)) return `"${shownName(name)}" is not a connection name: use 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.`;
  return variableClash(name);
}

/** A problem at a field of the connection (a path for a field inside one: ["contract", "period"]), or the connection itself. */
type Report = (field: string | readonly string[] | undefined, message: string, key?: boolean) => void;

/** One connection's fields, each problem reported with the connection's name and the field's; undefined when any is wrong. */
function checkConnection(name: string, raw: unknown, report: Report): ConnectionFields | undefined {
  const who = `connection "${shownName(name)}"`;
  if (!isRecord(raw)) {
    report(undefined, `${who} must be an object of fields, such as {"baseUrl": "https://…"}.`);
    return undefined;
  }
  let ok = true;
  const bad = (field: string | readonly string[], message: string, key = false): void => {
    ok = false;
    report(field, message, key);
  };
  for (const k of Object.keys(raw)) {
    if (!(CONNECTION_FIELDS as readonly string[]).includes(k)) bad(k, `${who} has an unknown field "${shownName(k)}"; the fields are ${CONNECTION_FIELDS.join(', ')}. Credentials never go here.${didYouMean(k, CONNECTION_FIELDS)}`, true);
  }
  const field = (k: string): string => `${who}, field "${k}"`;
  const text = (k: string): string | undefined => {
    const v = raw[k];
    if (v === undefined) return undefined;
    if (typeof v === 'string' && v.trim() !== '') return v;
    bad(k, `${field(k)} must be a non-empty text.`);
    return undefined;
  };
  for (const k of ADDRESS_FIELDS) {
    const v = text(k);
    const problem = v === undefined ? undefined : checkServiceUrl(field(k), v.trim());
    if (problem) bad(k, problem);
  }
  if (ok && ADDRESS_FIELDS.every((k) => raw[k] === undefined)) {
    ok = false;
    report(undefined, `${who} has no address: give "authUrl", "baseUrl" and "origin" (Interface A), "legacyUrl" (Interface B), or both.`);
  }
  const origin = text('origin');
  const originProblem = origin === undefined ? undefined : checkHeaderValue(field('origin'), origin, 'raw');
  if (originProblem) bad('origin', `${originProblem} Interface A requires a web origin such as https://example.com.`);
  for (const k of SEGMENT_FIELDS) {
    const v = text(k);
    if (v !== undefined && !/^[A-Za-z0-9._-]{1,16}$/.test(v)) bad(k, `${field(k)} must be one path segment of letters, digits, dots or dashes (at most 16), such as ${k === 'aVersion' ? 'v1' : k === 'authVersion' ? 'V2.0' : 'V4.0'}.`);
  }
  for (const k of ['qps', 'concurrency'] as const) {
    const v = raw[k];
    const good = v === undefined || v === 'auto' || (typeof v === 'number' && Number.isFinite(v) && v > 0 && (k === 'qps' || Number.isInteger(v)));
    if (!good) bad(k, `${field(k)} must be ${k === 'qps' ? 'a positive number' : 'a positive whole number'} or "auto", not ${shownValue(v)}.`);
  }
  const coordinator = text('coordinator');
  if (coordinator !== undefined && !/^rediss?:\/\//i.test(coordinator.trim())) bad('coordinator', `${field('coordinator')} must be redis://HOST:PORT or rediss://HOST:PORT; its password never goes here (BIZDATA_COORDINATOR_PASSWORD or the extension's prompt).`);
  else if (coordinator !== undefined && /^[a-z]+:\/\/[^/?#]*@/i.test(coordinator.trim())) bad('coordinator', `${field('coordinator')} contains a user name or password before the host; remove them: the password never goes here.`);
  const proxy = text('proxy');
  if (proxy !== undefined && !/^https?:\/\/[^/?#\s]+/i.test(proxy.trim())) bad('proxy', `${field('proxy')} must be an HTTP proxy address, http://host:port.`);
  text('caFile');
  if (raw.production !== undefined && typeof raw.production !== 'boolean') bad('production', `${field('production')} must be true or false, not ${shownValue(raw.production)}.`);
  if (raw.contract !== undefined) {
    // Each problem of the contract at its own field: ["connections", NAME, "contract", "maxCalls"].
    for (const p of contractProblems(raw.contract, field('contract'))) bad(p.field === undefined ? 'contract' : ['contract', p.field], p.message, p.key);
  }
  return ok ? (raw as ConnectionFields) : undefined;
}

function shownValue(v: unknown): string {
  const s = typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v));
  return shownName(s).slice(0, 40);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
