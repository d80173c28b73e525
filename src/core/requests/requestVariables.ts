// `{{variables}}` of request files: the active connection's (`{{baseUrl}}` …), the file's own
// (`@name = value`, which may use others), a few system values (`{{$guid}}`, `{{$timestamp}}`), and
// chained values from an earlier named request of the same file, as REST Client and httpYac allow:
// `{{NAME.response.body.$.a.b[0]}}`, `{{NAME.response.body.*}}` and `{{NAME.response.headers.X}}`.
import { randomUUID } from 'node:crypto';
import type { Endpoints, InterfaceId, OperationRequest } from '../model';
import type { LineSpan, ParsedRequest, ParsedRequestFile, RequestFileProblem } from './requestFile';
import { credentialRefusal, mayCarryCredentials, noServiceHostMessage } from '../protocol/credentialOrigins';
import { VERSION_A } from '../constants';

/** The parts of an earlier response that later requests may chain on. */
export interface ChainedResponse {
  readonly body: unknown;
  readonly text?: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface VariableContext {
  /** Variables of the active connection. */
  readonly connection: Readonly<Record<string, string>>;
  /** Responses of earlier named requests of the same file, by name. */
  readonly responses: ReadonlyMap<string, ChainedResponse>;
}

export const SYSTEM_VARIABLES = ['$guid', '$timestamp', '$isoTimestamp'] as const;
const REFERENCE = /\{\{\s*([^{}]+?)\s*\}\}/g;
const CHAIN = /^([A-Za-z_][\w-]*)\.response\.(body|headers)\.(.+)$/;

/** The connection's variables, as request files name them. */
export function connectionVariables(e: Endpoints): Record<string, string> {
  return { baseUrl: e.baseUrl, authUrl: e.authUrl, legacyUrl: e.legacyUrl, origin: e.origin, aVersion: e.aVersion ?? VERSION_A, authVersion: e.authVersion, orgVersion: e.orgVersion };
}

/** Every `{{…}}` of a line, with its column span (the braces included). */
export function references(line: string, lineNo: number): Array<{ readonly name: string; readonly span: LineSpan }> {
  return [...line.matchAll(REFERENCE)].map((m) => ({ name: m[1], span: { line: lineNo, start: m.index, end: m.index + m[0].length } }));
}

/** References to nothing the file, the connection, the system or a named request of the file defines. */
export function unknownReferences(text: string, file: ParsedRequestFile, connection: Readonly<Record<string, string>>): RequestFileProblem[] {
  const known = new Set([...Object.keys(connection), ...file.variables.map((v) => v.name), ...SYSTEM_VARIABLES]);
  const named = new Set(file.requests.flatMap((r) => (r.name ? [r.name] : [])));
  const out: RequestFileProblem[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    for (const ref of references(line, i)) {
      const chain = CHAIN.exec(ref.name);
      if (known.has(ref.name) || (chain && named.has(chain[1]))) continue;
      const message = chain
        ? `No request named "${chain[1]}" in this file; name the request with "# @name ${chain[1]}" above its request line.`
        : `Unknown variable "${ref.name}". Define it with "@${ref.name} = value", or use one of ${[...Object.keys(connection), ...SYSTEM_VARIABLES].map((v) => `{{${v}}}`).join(', ')}.`;
      out.push({ span: ref.span, message, severity: 'error', code: 'unknown-variable' });
    }
  });
  return out;
}

export type Resolved =
  | { readonly ok: true; readonly request: OperationRequest }
  /** `variable`: a value is missing or circular (a chained one until its request is sent); `interface`: no token may go to the URL. */
  | { readonly ok: false; readonly line: number; readonly message: string; readonly reason: 'variable' | 'interface' };

/** The request with every variable replaced and its interface decided, or the first problem. */
export function resolveRequest(file: ParsedRequestFile, r: ParsedRequest, ctx: VariableContext, endpoints: Endpoints): Resolved {
  const fileVars = new Map(file.variables.map((v) => [v.name, v.value]));
  const expand = (text: string, seen: readonly string[] = []): string =>
    text.replace(REFERENCE, (_all, raw: string) => {
      const value = lookUp(raw, fileVars, ctx, seen, expand);
      if (value === undefined) throw new UnresolvedError(raw);
      return value;
    });
  try {
    const url = expand(r.url);
    const headers: Record<string, string> = {};
    for (const h of r.headers) headers[h.name] = expand(h.value);
    const body = r.body === undefined ? undefined : expand(r.body);
    const interfaceId = r.interfaceId ?? inferInterface(url, endpoints);
    if (interfaceId === undefined) {
      return { ok: false, line: r.requestLine, reason: 'interface', message: noServiceHostMessage(url, endpoints) };
    }
    // A named interface does not widen where its token goes (a URL that is no URL is checkOperation's to name).
    const foreign = URL.canParse(url) ? credentialRefusal(url, endpoints, interfaceId) : undefined;
    if (foreign) return { ok: false, line: r.requestLine, reason: 'interface', message: foreign };
    return { ok: true, request: { interfaceId, method: r.method, url, headers, body } };
  } catch (err) {
    if (!(err instanceof VariableError)) throw err;
    return { ok: false, line: r.requestLine, reason: 'variable', message: err.message };
  }
}

class VariableError extends Error {}

class UnresolvedError extends VariableError {
  constructor(name: string) {
    const chain = CHAIN.exec(name);
    super(
      chain
        ? `{{${name}}} has no value: send the request named "${chain[1]}" first, and check that its response has that part.`
        : name.startsWith('$')
          ? `{{${name}}} is not a system variable; use one of ${SYSTEM_VARIABLES.map((v) => `{{${v}}}`).join(', ')}.`
          : `{{${name}}} is not defined; add "@${name} = value" to the file.`,
    );
  }
}

function lookUp(raw: string, fileVars: ReadonlyMap<string, string>, ctx: VariableContext, seen: readonly string[], expand: (t: string, seen: readonly string[]) => string): string | undefined {
  if (raw === '$guid') return randomUUID();
  if (raw === '$timestamp') return String(Math.floor(Date.now() / 1000));
  if (raw === '$isoTimestamp') return new Date().toISOString();
  const fileValue = fileVars.get(raw);
  if (fileValue !== undefined) {
    if (seen.includes(raw)) throw new VariableError(`The variables ${[...seen, raw].join(' → ')} refer to each other in a circle; break the circle.`);
    return expand(fileValue, [...seen, raw]);
  }
  if (Object.hasOwn(ctx.connection, raw)) return ctx.connection[raw];
  const chain = CHAIN.exec(raw);
  const response = chain ? ctx.responses.get(chain[1]) : undefined;
  if (!chain || !response) return undefined;
  if (chain[2] === 'headers') return response.headers[chain[3].toLowerCase()];
  if (chain[3] === '*') return response.text ?? JSON.stringify(response.body);
  const value = jsonPath(response.body, chain[3]);
  return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
}

/** The JSONPath subset request files use: `$`, `.key`, `[n]`, `['key']` / `["key"]`. */
export function jsonPath(root: unknown, path: string): unknown {
  if (!path.startsWith('$')) return undefined;
  let value: unknown = root;
  const steps = /\.([A-Za-z_$@][\w$@-]*)|\[(\d+)\]|\[(['"])(.*?)\3\]/gy;
  steps.lastIndex = 1;
  while (steps.lastIndex < path.length) {
    const m = steps.exec(path);
    if (!m) return undefined;
    const key = m[1] ?? m[4];
    if (key !== undefined) value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
    else value = Array.isArray(value) ? value[Number(m[2])] : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

/**
 * The interface whose token a URL gets, from its exact origin (credentialOrigins.ts): the token or
 * data address of A, or the legacy address of B.
 * Where they share a host (a local sandbox), Interface A's paths start with its version segment.
 */
export function inferInterface(url: string, e: Endpoints): InterfaceId | undefined {
  const a = mayCarryCredentials(url, e, 'a');
  const b = mayCarryCredentials(url, e, 'b');
  if (a && b) return new URL(url).pathname.startsWith(`/${e.aVersion ?? VERSION_A}/`) ? 'a' : 'b';
  return a ? 'a' : b ? 'b' : undefined;
}
