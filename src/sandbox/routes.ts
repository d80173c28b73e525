// Fixtures routes: answers for any other path of the three hosts, read from DIR/routes.json at
// start. A route's answer is a data call like the built-in ones: the token of its interface (paths
// under /v1/ take Interface A's bearer token, all others Interface B's raw token), the account,
// SC004/SC005/SC006, the customer's delay and every fault apply before it.
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { errorMessage } from '../core/errors';
import { SandboxSetupError } from './config';
import { INTERFACE_A_PREFIX, isBuiltInPath } from './endpoints';
import { checkHeaders, exactAnswer } from './http';

export const ROUTES_FILE = 'routes.json';
export const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const ROUTE_PROPERTIES = ['name', 'method', 'path', 'pathPrefix', 'status', 'headers', 'body', 'bodyFile', 'wrapper'];
/** The largest bodyFile read at start. */
export const MAX_BODY_FILE_BYTES = 128 * 1024 * 1024;

export interface Route {
  /** Where the route is, for messages: `routes[2] ("Company profile")`. */
  readonly label: string;
  readonly method: (typeof ROUTE_METHODS)[number];
  /** An exact path, or with `prefix` every path that starts with it. */
  readonly path: string;
  readonly prefix: boolean;
  readonly interfaceId: 'a' | 'b';
  readonly status: number;
  /** Names in lower case; content-type filled in from the body when not given. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  /** Interface B: the object that wraps TransactionDetail and TransactionResult in refusals. */
  readonly wrapper: string;
}

type Match = { readonly route: Route } | { readonly allow: readonly string[] };

/** The route for a request: an exact path before a prefix, the longest prefix first; undefined for none. */
export function findRoute(routes: readonly Route[], method: string, path: string): Match | undefined {
  const candidates = routes.filter((r) => (r.prefix ? path.startsWith(r.path) : path === r.path));
  if (candidates.length === 0) return undefined;
  const rank = (r: Route): number => (r.prefix ? r.path.length : Number.MAX_SAFE_INTEGER);
  const ordered = [...candidates].sort((x, y) => rank(y) - rank(x));
  const route = ordered.find((r) => r.method === method);
  return route !== undefined ? { route } : { allow: [...new Set(ordered.map((r) => r.method))] };
}

/** Reads DIR/routes.json when there is one; each mistake is refused naming the file and the route. */
export async function loadRoutes(dir: string): Promise<readonly Route[]> {
  const file = join(dir, ROUTES_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SandboxSetupError(`Cannot read the fixtures routes ${file}: ${errorMessage(err)}`, { cause: err });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SandboxSetupError(`Fixtures routes ${file} are not valid JSON: ${errorMessage(err)}`, { cause: err });
  }
  const bad = (where: string, problem: string): SandboxSetupError => new SandboxSetupError(`Invalid fixtures route in ${file} at ${where}: ${problem}`);
  if (!isObject(raw) || !Array.isArray(raw.routes)) throw bad('(root)', 'must be an object with a "routes" array');
  const extra = Object.keys(raw).find((k) => k !== 'routes' && k !== '$schema');
  if (extra !== undefined) throw bad(extra, 'unknown property; allowed: $schema, routes');
  const routes: Route[] = [];
  for (const [i, entry] of raw.routes.entries()) routes.push(await parseRoute(dir, entry, i, bad));
  const seen = new Set<string>();
  for (const r of routes) {
    const key = `${r.method} ${r.prefix ? 'prefix ' : ''}${r.path}`;
    if (seen.has(key)) throw bad(r.label, `a second route for ${key}`);
    seen.add(key);
  }
  return routes;
}

async function parseRoute(dir: string, entry: unknown, i: number, bad: (where: string, problem: string) => SandboxSetupError): Promise<Route> {
  let label = `routes[${i}]`;
  if (!isObject(entry)) throw bad(label, 'must be a JSON object');
  if (typeof entry.name === 'string' && entry.name !== '') label = `${label} ("${entry.name.slice(0, 60)}")`;
  else if (entry.name !== undefined) throw bad(`${label}.name`, 'must be a non-empty string');
  const unknown = Object.keys(entry).find((k) => !ROUTE_PROPERTIES.includes(k));
  if (unknown !== undefined) throw bad(`${label}.${unknown.slice(0, 60)}`, `unknown property; allowed: ${ROUTE_PROPERTIES.join(', ')}`);
  const method = entry.method ?? 'GET';
  if (typeof method !== 'string' || !(ROUTE_METHODS as readonly string[]).includes(method)) throw bad(`${label}.method`, `must be one of ${ROUTE_METHODS.join(', ')}`);
  if ((entry.path === undefined) === (entry.pathPrefix === undefined)) throw bad(label, 'needs exactly one of "path" (exact) and "pathPrefix"');
  const prefix = entry.pathPrefix !== undefined;
  const path = prefix ? entry.pathPrefix : entry.path;
  const at = `${label}.${prefix ? 'pathPrefix' : 'path'}`;
  if (typeof path !== 'string' || !/^\/[^?#\s]*$/.test(path)) throw bad(at, 'must start with "/" and hold no query string, "#" or spaces');
  if (path.startsWith('/_sandbox/') || (!prefix && isBuiltInPath(path))) throw bad(at, 'is answered by the sandbox itself; choose another path');
  const status = entry.status ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) throw bad(`${label}.status`, 'must be an integer from 200 to 599');
  const headers = entry.headers === undefined ? {} : checkHeaders(entry.headers);
  if (typeof headers === 'string') throw bad(`${label}.headers`, headers);
  const interfaceId = path.startsWith(INTERFACE_A_PREFIX) ? 'a' : 'b';
  if (entry.wrapper !== undefined && (interfaceId === 'a' || typeof entry.wrapper !== 'string' || !/^[A-Za-z][\w.@-]{0,99}$/.test(entry.wrapper))) {
    throw bad(`${label}.wrapper`, interfaceId === 'a' ? 'applies to Interface B routes only (paths outside /v1/)' : 'must be a name such as OrderProductResponse');
  }
  if (entry.body !== undefined && entry.bodyFile !== undefined) throw bad(label, 'takes "body" or "bodyFile", not both');
  if ((status === 204 || status === 304) && (entry.body !== undefined || entry.bodyFile !== undefined)) throw bad(label, `a ${status} answer has no body`);
  const body = entry.bodyFile === undefined ? entry.body : await readBodyFile(dir, entry.bodyFile, `${label}.bodyFile`, bad);
  if (Buffer.isBuffer(body) && typeof entry.bodyFile === 'string' && entry.bodyFile.endsWith('.json')) headers['content-type'] ??= 'application/json; charset=utf-8';
  const answer = exactAnswer(status, headers, body, '');
  return {
    label, method: method as Route['method'], path, prefix, interfaceId, status,
    headers: answer.headers ?? {}, body: answer.body, wrapper: (entry.wrapper as string | undefined) ?? 'MatchResponse',
  };
}

async function readBodyFile(dir: string, name: unknown, at: string, bad: (where: string, problem: string) => SandboxSetupError): Promise<Buffer> {
  if (typeof name !== 'string' || name === '') throw bad(at, 'must be a file name relative to the fixtures folder');
  const full = resolve(dir, name);
  const inside = relative(resolve(dir), full);
  if (isAbsolute(name) || inside.startsWith('..') || isAbsolute(inside)) throw bad(at, 'must name a file inside the fixtures folder');
  let data: Buffer;
  try {
    if ((await stat(full)).size > MAX_BODY_FILE_BYTES) throw bad(at, `is larger than ${MAX_BODY_FILE_BYTES / 1048576} MiB`);
    data = await readFile(full);
  } catch (err) {
    if (err instanceof SandboxSetupError) throw err;
    throw bad(at, `cannot be read: ${errorMessage(err)}`);
  }
  if (name.endsWith('.json')) {
    try {
      JSON.parse(data.toString('utf8'));
    } catch (err) {
      throw bad(at, `is not valid JSON: ${errorMessage(err)}`);
    }
  }
  return data;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
