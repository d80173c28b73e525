// `{{variables}}` of request files: the active connection's (`{{baseUrl}}` …), the file's own
// (`@name = value`, which may use others), `# @prompt` answers, the peers' system values
// (systemVariables.ts), `{{%name}}` percent-encoded (REST Client), and
// chained values from an earlier named request of the same file, as REST Client and httpYac allow:
// `{{NAME.response.body.$.a.b[0]}}`, `{{NAME.response.body.*}}` and `{{NAME.response.headers.X}}`.
// What none of these defines a data-driven run takes from each row's columns (dataVariables).
import type { Endpoints, InterfaceId, OperationRequest } from '../model';
import type { FileVariable, ParsedRequest, ParsedRequestFile, RequestFileProblem } from './requestFile';
import { credentialRefusal, mayCarryCredentials, noServiceHostMessage } from '../protocol/credentialOrigins';
import { signInPathRefusal } from '../protocol/signInPaths';
import { openReference, references, replaceReferences, splitLines } from './requestText';
import { VERSION_A } from '../constants';
import { buildBody, isRefusal } from './bodies';
import { isSystemReference, systemReferenceProblem, systemValue, SystemVariableError, SYSTEM_VARIABLE_FORMS, type SystemContext } from './systemVariables';
import { connectionVariables as endpointVariables } from '../connections/connection';
import { isAssertionLine } from './assertions';
import { jsonPath, jsonPathProblem } from './jsonPath';

/** Chained values read JSON paths through the one JSONPath module (RFC 9535). */
export { jsonPath } from './jsonPath';

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
  /** Answers to the file's `# @prompt NAME` lines, by name. */
  readonly prompts?: ReadonlyMap<string, string>;
  /** A data row's values, by column (a data-driven run: `{{country}}`); they come before the file's own variables. */
  readonly row?: ReadonlyMap<string, string>;
  /** What `{{$dotenv}}` and `{{$processEnv}}` may read. */
  readonly system?: SystemContext;
  /** Body files read so far, by path as written (prepareFileRequest in fileRequest.ts reads them). */
  readonly files?: (path: string, line: number) => Uint8Array | undefined;
  /** Whether a value holds a secret of the run: a chained value that does is refused, never sent (core/run/chain.ts). */
  readonly holdsSecret?: (value: string) => boolean;
}

/** System variables as completion offers them, each complete (systemVariables.ts has every form). */
export const SYSTEM_VARIABLES = ['$guid', '$uuid', '$timestamp', '$isoTimestamp', '$randomInt 1 100', '$datetime iso8601', '$localDatetime iso8601'] as const;
const CHAIN = /^([A-Za-z_][\w-]*)\.response\.(body|headers)\.(.+)$/;

/** The connection's variables, as request files name them (connections/connection.ts keeps the list). */
export const connectionVariables = endpointVariables;

/** References to nothing the file, the connection, the system or a named request of the file defines. */
export function unknownReferences(text: string, file: ParsedRequestFile, connection: Readonly<Record<string, string>>): RequestFileProblem[] {
  const out: RequestFileProblem[] = [];
  forEachReference(text, file, connection, (ref, name, chain) => {
    if (isSystemReference(name)) {
      const wrong = systemReferenceProblem(name);
      if (wrong) out.push({ span: ref.span, message: wrong, severity: 'error', code: 'unknown-variable' });
      return;
    }
    const badPath = chain && chain[2] === 'body' && chain[3] !== '*' ? jsonPathProblem(chain[3]) : undefined;
    if (badPath) out.push({ span: ref.span, message: badPath, severity: 'error', code: 'syntax' });
    if (ref.known) return;
    const message = chain
      ? `No request named "${chain[1]}" in this file; name the request with "# @name ${chain[1]}" above its request line.`
      : `Unknown variable "${name}". Define it with "@${name} = value", or use one of ${[...Object.keys(connection), '$guid', '$timestamp', '$datetime iso8601'].map((v) => `{{${v}}}`).join(', ')}.`;
    out.push({ span: ref.span, message, severity: 'error', code: 'unknown-variable' });
  });
  return out;
}

/**
 * The plain variables a file uses and nothing defines (not the file, the connection, a prompt, the
 * system or a chained request): those a data file's rows must supply, one column each (issue 26).
 * Each name once, in the order the file first uses it; a reference unknownReferences would refuse
 * anyway (a chain to no request, a system variable that is none) is not a column.
 */
export function dataVariables(text: string, file: ParsedRequestFile, connection: Readonly<Record<string, string>>): string[] {
  const names = new Set<string>();
  forEachReference(text, file, connection, (ref, name, chain) => {
    if (!ref.known && !chain && !isSystemReference(name)) names.add(name);
  });
  return [...names];
}

type Reference = ReturnType<typeof references>[number] & { readonly known: boolean };

/** Every `{{…}}` of the file outside assertions, with the name it reads and whether the file, connection, a prompt or a named request defines it. */
function forEachReference(text: string, file: ParsedRequestFile, connection: Readonly<Record<string, string>>, visit: (ref: Reference, name: string, chain: RegExpExecArray | null) => void): void {
  const known = new Set([...Object.keys(connection), ...file.variables.map((v) => v.name), ...file.requests.flatMap((r) => r.settings.prompts.map((p) => p.name))]);
  const named = new Set(file.requests.flatMap((r) => (r.name ? [r.name] : [])));
  // A file that is not text has one problem already; its bytes name no variables.
  if (file.problems.some((p) => p.code === 'binary')) return;
  splitLines(text).forEach((line, i) => {
    // An assertion's value is compared as written; assertions.ts says so at its line.
    if (isAssertionLine(line)) return;
    for (const ref of references(line, i)) {
      // `{{%name}}` is name's value percent-encoded.
      const name = ref.name.startsWith('%') ? ref.name.slice(1).trim() : ref.name;
      const chain = CHAIN.exec(name);
      visit({ ...ref, known: known.has(name) || (chain !== null && named.has(chain[1])) }, name, chain);
    }
  });
}

export type Resolved =
  | { readonly ok: true; readonly request: OperationRequest }
  /**
   * `variable`: a value is missing or circular (a chained one until its request is sent, a body file
   * until prepareFileRequest reads it); `interface`: no token may go to the URL; `body`: the peers
   * would send the body differently, or it is not what its type needs (bodies.ts).
   */
  | { readonly ok: false; readonly line: number; readonly message: string; readonly reason: 'variable' | 'interface' | 'body'; readonly waiting?: true };

/** How deep file variables may use each other, how many references one request may take in all, and how long a replaced text may grow (a body's limit). */
const MAX_DEPTH = 32;
const MAX_REFERENCES = 10_000;
const MAX_CHARS = 1024 * 1024;

/** The request with every variable replaced and its interface decided, or the first problem. */
export function resolveRequest(file: ParsedRequestFile, r: ParsedRequest, ctx: VariableContext, endpoints: Endpoints): Resolved {
  const fileVars = new Map(file.variables.map((v) => [v.name, v]));
  let taken = 0;
  const expand = (text: string, seen: readonly FileVariable[] = []): string => {
    const inside = seen.at(-1);
    // A `{{` that opens nothing would go out as text; the parser says so at its line, and so does this.
    const open = openReference(text, false);
    if (open) throw new VariableError(inside ? `The value of ${inside.name}: ${open.message}` : open.message, inside?.span.line);
    const out = replaceReferences(text, (name) => {
      // Variables that each use the next twice would take time doubling with every one.
      if (++taken > MAX_REFERENCES) throw new VariableError(`The variables of this request take more than ${MAX_REFERENCES} values in all; check what ${inside ? `@${inside.name} refers` : 'they refer'} to.`);
      const value = lookUp(name, fileVars, ctx, seen, expand);
      if (value === undefined) throw new UnresolvedError(name);
      return value;
    });
    if (out.length > MAX_CHARS && out.length > text.length) throw new VariableError(`The variables of this request grow to more than ${MAX_CHARS} characters; check what ${inside ? `@${inside.name} refers` : 'they refer'} to.`);
    return out;
  };
  try {
    const at = (line: number, text: string): string => atLine(line, () => expand(text));
    const url = at(r.requestLine, r.url);
    const written: Record<string, string> = {};
    for (const h of r.headers) written[h.name] = at(h.span.line, h.value);
    const built = buildBody({ method: r.method, headers: written, lines: r.bodyLines, expand: at, file: ctx.files });
    if (isRefusal(built)) return { ok: false, line: built.line < 0 ? r.requestLine : built.line, reason: built.pending ? 'variable' : 'body', message: built.message };
    const { method, headers, body, bodyBytes } = built;
    const interfaceId = r.interfaceId ?? inferInterface(url, endpoints);
    if (interfaceId === undefined) {
      return { ok: false, line: r.requestLine, reason: 'interface', message: noServiceHostMessage(url, endpoints) };
    }
    // A named interface does not widen where its token goes (a URL that is no URL is checkOperation's to name).
    // Nor does it reach the sign-in addresses: the managed token owns them.
    const foreign = URL.canParse(url) ? (credentialRefusal(url, endpoints, interfaceId) ?? signInPathRefusal(url, endpoints)) : undefined;
    if (foreign) return { ok: false, line: r.requestLine, reason: 'interface', message: foreign };
    return { ok: true, request: { interfaceId, method, url, headers, body, ...(bodyBytes ? { bodyBytes } : {}) } };
  } catch (err) {
    if (!(err instanceof VariableError)) throw err;
    // `waiting`: a chained value, there once its request is sent.
    return { ok: false, line: err.line ?? r.requestLine, reason: 'variable', message: err.message, ...(err instanceof UnresolvedError && err.waiting ? { waiting: true as const } : {}) };
  }
}

/** Runs `run`, placing a problem that names no line of its own at `line`. */
function atLine<T>(line: number, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof VariableError && err.line === undefined) err.line = line;
    throw err;
  }
}

class VariableError extends Error {
  /** The 0-based line of the file variable whose own text is at fault; otherwise the request line. */
  constructor(
    message: string,
    public line?: number,
  ) {
    super(message);
  }
}

class UnresolvedError extends VariableError {
  readonly waiting: boolean;
  constructor(name: string) {
    const chain = CHAIN.exec(name);
    super(
      chain
        ? `{{${name}}} has no value: send the request named "${chain[1]}" first, and check that its response has that part.`
        : name.startsWith('$')
          ? `{{${name}}} is not a system variable; use one of ${SYSTEM_VARIABLE_FORMS.map((v) => `{{${v}}}`).join(', ')}.`
          : `{{${name}}} is not defined; add "@${name} = value" to the file.`,
    );
    this.waiting = CHAIN.test(name);
  }
}

type Expand = (text: string, seen: readonly FileVariable[]) => string;

function lookUp(name: string, fileVars: ReadonlyMap<string, FileVariable>, ctx: VariableContext, seen: readonly FileVariable[], expand: Expand): string | undefined {
  if (isSystemReference(name)) {
    try {
      return systemValue(name, ctx.system ?? {});
    } catch (err) {
      if (err instanceof SystemVariableError) throw new VariableError(err.message);
      throw err;
    }
  }
  // REST Client's `{{%name}}`: the value percent-encoded.
  if (name.startsWith('%')) {
    const value = lookUp(name.slice(1).trim(), fileVars, ctx, seen, expand);
    return value === undefined ? undefined : encodeURIComponent(value);
  }
  // A prompt's answer comes first, as in REST Client.
  if (ctx.prompts?.has(name)) return ctx.prompts.get(name);
  // A data row's value, as newman's data variables, overrides the file's default of that name.
  if (ctx.row?.has(name)) return ctx.row.get(name);
  const variable = fileVars.get(name);
  if (variable !== undefined) {
    const path = () => [...seen, variable].map((v) => v.name).join(' → ');
    if (seen.includes(variable)) throw new VariableError(`The variables ${path()} refer to each other in a circle; break the circle.`);
    if (seen.length >= MAX_DEPTH) throw new VariableError(`The variables ${path()} use each other more than ${MAX_DEPTH} deep; give one of them its value directly.`);
    return expand(variable.value, [...seen, variable]);
  }
  if (Object.hasOwn(ctx.connection, name)) return ctx.connection[name];
  const chain = CHAIN.exec(name);
  const response = chain ? ctx.responses.get(chain[1]) : undefined;
  if (!chain || !response) return undefined;
  const value = chainedValue(response, chain[2], chain[3]);
  // The answer's own value is sent, never a placeholder; one that holds a secret of the run is not sent at all.
  if (value !== undefined && ctx.holdsSecret?.(value)) {
    throw new VariableError(
      `{{${name}}} holds a secret of this run (a credential or a token the answer gives back), and a request never sends one taken from an answer; chain on another part of the answer.`,
    );
  }
  return value;
}

function chainedValue(response: ChainedResponse, part: string, path: string): string | undefined {
  if (part === 'headers') return ownValue(response.headers, path.toLowerCase());
  if (path === '*') return response.text ?? jsonText(response.body);
  const value = jsonPath(response.body, path);
  return typeof value === 'string' ? value : jsonText(value);
}

/** JSON text of a value, or undefined where JSON has none (undefined itself). */
function jsonText(value: unknown): string | undefined {
  return value === undefined ? undefined : (JSON.stringify(value) as string | undefined);
}

/** A record's own value for a key: never one of Object.prototype's (`constructor`, `__proto__`). */
function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
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
