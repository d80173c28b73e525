// Request bodies as REST Client and httpYac send them. Where the two agree, the bytes are theirs;
// where they differ, the line is refused with what to write instead (docs/request-files.md, "Files
// written for REST Client and httpYac").
// - Comment lines (`#`, `//`) inside a body are dropped, as both drop them.
// - `< path` sends a file's bytes; `<@ path` and `<@latin1 path` its text (read in that encoding)
//   with variables replaced, sent as UTF-8; joined to the lines around by the line ending.
// - `multipart/form-data`: lines end with CRLF (none after the last line, as httpYac).
// - `application/x-www-form-urlencoded`: lines starting with `&` are joined, then the text is
//   percent-encoded as both encode it (the `encodeurl` package).
// - GraphQL (`X-Request-Type: GraphQL`, or httpYac's `GRAPHQL` method): the query and the
//   variables block after the first blank line become `{"query", "operationName", "variables"}`.
// Line ends within a body are LF, as both peers write them on Linux and macOS.
import encodeUrl from 'encodeurl';
import { REQUEST_METHODS } from './methods';

/** A body file line: `< path`, `<@ path`, `<@ENCODING path`. */
export interface BodyFile {
  readonly path: string;
  /** `<@`: its text has variables replaced. */
  readonly inject: boolean;
  readonly encoding: BufferEncoding;
}

export interface BodyLine {
  /** 0-based line of the file. */
  readonly line: number;
  readonly text: string;
  readonly file?: BodyFile;
}

export interface BodyProblem {
  readonly line: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

interface HeaderLike {
  readonly name: string;
  readonly value: string;
}

// The syntax both peers read (REST Client's inputFileSyntax, httpYac's parseFileImport).
const FILE_LINE = /^<(?:(@)(\w+)?)?\s+(.+?)\s*$/s;
const COMMENT = /^\s*(?:#|\/\/)/;
/** Encodings both read a file in with Node's own decoder. */
const ENCODINGS: ReadonlySet<string> = new Set(['utf8', 'utf-8', 'latin1', 'binary', 'ascii', 'utf16le', 'ucs2', 'ucs-2', 'base64', 'hex']);
const GRAPHQL_START = /^\s*(query|mutation)/;
/** Body lines httpYac (or the JetBrains syntax it follows) reads as something else, and REST Client sends as text. */
const NOT_BODY: ReadonlyArray<{ readonly line: RegExp; readonly why: string }> = [
  { line: /^>\s*(?:\{%|\S+\.js\s*$)/, why: 'a response handler: httpYac runs it as JavaScript, and request files run no code here. Delete it (assertions: the "??" lines of bizdata test)' },
  { line: /^>>!?\s+\S/, why: 'httpYac saves the answer to that file, REST Client sends the line. Delete it, and save the answer from the result editor or bizdata send\'s output' },
  { line: /^<>\s+\S/, why: 'httpYac compares the answer with that file, REST Client sends the line. Delete it' },
  { line: /^\s*={3}\s*(?:wait-for-server)?\s*$/, why: 'httpYac splits a streamed body there, REST Client sends the line. Delete it' },
];
const LOOKS_LIKE_REQUEST = new RegExp(`^\\s*(${[...REQUEST_METHODS].join('|')})\\s+(?:https?://|\\{\\{|/)\\S*(?:\\s+HTTP/\\S+)?\\s*$`);

function header(headers: readonly HeaderLike[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(value: string | undefined): string | undefined {
  return value?.split(';')[0].trim().toLowerCase() || undefined;
}

function isGraphQl(method: string, headers: readonly HeaderLike[]): boolean {
  return method === 'GRAPHQL' || header(headers, 'x-request-type')?.trim().toLowerCase() === 'graphql';
}

/**
 * The body lines of a request block (`from`..`to`, 0-based, trailing blank lines already left out),
 * comments dropped, with every problem that can be told from the text alone.
 */
export function readBody(lines: readonly string[], from: number, to: number, method: string, headers: readonly HeaderLike[]): { lines: BodyLine[]; problems: BodyProblem[] } {
  const out: BodyLine[] = [];
  const problems: BodyProblem[] = [];
  const type = mediaType(header(headers, 'content-type'));
  const graphQl = isGraphQl(method, headers);
  const form = type === 'application/x-www-form-urlencoded';
  // httpYac reads a GRAPHQL query up to its first blank line as it is, `#` comments and all.
  let inQuery = method === 'GRAPHQL';
  for (let i = from; i <= to; i++) {
    const text = lines[i];
    if (text.trim() === '') inQuery = false;
    if (inQuery) {
      out.push({ line: i, text });
      continue;
    }
    if (COMMENT.test(text)) continue;
    const other = NOT_BODY.find((n) => n.line.test(text));
    if (other) {
      problems.push({ line: i, severity: 'error', message: `"${text.trim().slice(0, 30)}" is ${other.why}.` });
      continue;
    }
    if (text.trim() === '/*') {
      problems.push({ line: i, severity: 'error', message: 'httpYac reads "/*" as the start of a comment, REST Client sends it: write each comment line with # or // instead.' });
      continue;
    }
    if (LOOKS_LIKE_REQUEST.test(text) && (i === from || lines[i - 1].trim() === '')) {
      problems.push({
        line: i,
        severity: 'warning',
        message: 'This line looks like a second request: httpYac sends it as one, but here (and in REST Client) it is part of the body above. Put a line "###" above it to make it a request of its own.',
      });
    }
    const m = FILE_LINE.exec(text);
    if (!m) {
      if (form && out.length > 0 && !text.startsWith('&')) {
        problems.push({ line: i, severity: 'error', message: 'A form body goes on over lines that start with "&": REST Client sends this line break as %0A, httpYac drops it. Start the line with "&", or join it to the line above.' });
      }
      out.push({ line: i, text });
      continue;
    }
    const encoding = (m[2] ?? 'utf8').toLowerCase();
    if (!ENCODINGS.has(encoding)) {
      problems.push({ line: i, severity: 'error', message: `"<@${m[2]}" names no encoding both peers read; use <@ (UTF-8) or <@latin1.` });
      continue;
    }
    if (form || graphQl) {
      problems.push({ line: i, severity: 'error', message: `REST Client and httpYac send a file in a ${graphQl ? 'GraphQL' : 'form'} body differently; write the ${graphQl ? 'query' : 'fields'} in the request file instead of "${text.trim().slice(0, 40)}".` });
      continue;
    }
    out.push({ line: i, text, file: { path: m[3], inject: m[1] === '@', encoding: encoding as BufferEncoding } });
  }
  const first = out[0];
  if (!graphQl && first && !first.file && GRAPHQL_START.test(first.text)) {
    problems.push({
      line: first.line,
      severity: 'error',
      message: 'httpYac sends a body that starts with "query" or "mutation" as GraphQL JSON, REST Client sends it as text. Add the header "X-Request-Type: GraphQL" to send it as GraphQL.',
    });
  }
  return { lines: out, problems };
}

export interface BuiltBody {
  readonly method: string;
  readonly headers: Record<string, string>;
  /** The body as text (absent when its bytes are not UTF-8). */
  readonly body?: string;
  /** The bytes to send, when a body file is part of it. */
  readonly bodyBytes?: Uint8Array;
}

/** Why a body cannot be built; `pending`: a body file is read only when the request is sent (prepareFileRequest). */
export interface BodyRefusal {
  readonly line: number;
  readonly message: string;
  readonly pending?: true;
}

export interface BodyInput {
  readonly method: string;
  /** Values with variables replaced, names as written. */
  readonly headers: Record<string, string>;
  readonly lines: readonly BodyLine[];
  /** Replaces the variables of a text at a 0-based line. */
  readonly expand: (line: number, text: string) => string;
  /** The bytes of a body file by its path as written (variables replaced), once read. */
  readonly file?: (path: string, line: number) => Uint8Array | undefined;
}

/** The body as the peers send it, or the line that stops it. */
export function buildBody(input: BodyInput): BuiltBody | BodyRefusal {
  const { headers, lines } = input;
  const list = Object.entries(headers).map(([name, value]) => ({ name, value }));
  if (isGraphQl(input.method, list)) return graphQlBody(input, list);
  const method = input.method;
  if (lines.length === 0) return { method, headers };
  const type = mediaType(header(list, 'content-type'));
  if (type === 'application/x-www-form-urlencoded') return formBody(input);
  const eol = type === 'multipart/form-data' ? '\r\n' : '\n';
  if (lines.every((l) => !l.file)) {
    const text = lines.map((l) => input.expand(l.line, l.text)).join(eol);
    // Both end newline-delimited JSON with one more line end.
    return { method, headers, body: type === 'application/x-ndjson' ? text + eol : text };
  }
  const parts: Uint8Array[] = [];
  for (const [i, l] of lines.entries()) {
    if (i > 0) parts.push(Buffer.from(eol));
    if (!l.file) {
      parts.push(Buffer.from(input.expand(l.line, l.text), 'utf8'));
      continue;
    }
    const path = input.expand(l.line, l.file.path);
    const bytes = input.file?.(path, l.line);
    if (bytes === undefined) return { line: l.line, message: `The body file ${path} is read when the request is sent.`, pending: true };
    parts.push(l.file.inject ? Buffer.from(input.expand(l.line, Buffer.from(bytes).toString(l.file.encoding)), 'utf8') : bytes);
  }
  const bodyBytes = Buffer.concat(parts);
  return { method, headers, body: utf8Text(bodyBytes), bodyBytes };
}

function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function formBody(input: BodyInput): BuiltBody | BodyRefusal {
  let text = '';
  for (const [i, l] of input.lines.entries()) {
    const line = input.expand(l.line, l.text);
    // httpYac trims around "=" and "&", REST Client encodes those spaces: they disagree.
    const trimmed = line
      .split('&')
      .map((p) => p.split('=').map((t) => t.trim()).join('='))
      .join('&');
    if (trimmed !== line) return { line: l.line, message: 'Spaces next to "=" or "&" (or at the ends of the line) are dropped by httpYac and sent as %20 by REST Client: delete them, or write %20 where a space belongs in a value.' };
    text += i === 0 || line.startsWith('&') ? line : `\n${line}`;
  }
  return { method: input.method, headers: input.headers, body: encodeUrl(text) };
}

function graphQlBody(input: BodyInput, list: readonly HeaderLike[]): BuiltBody | BodyRefusal {
  const yac = input.method === 'GRAPHQL';
  const headers = Object.fromEntries(Object.entries(input.headers).filter(([k]) => k.toLowerCase() !== 'x-request-type'));
  const blank = input.lines.findIndex((l) => l.text.trim() === '');
  const queryLines = blank < 0 ? input.lines : input.lines.slice(0, blank);
  const variableLines = blank < 0 ? [] : input.lines.slice(blank + 1);
  const first = input.lines[0];
  if (first === undefined) return { line: -1, message: 'A GraphQL request needs a query in its body.' };
  const query = queryLines.map((l) => input.expand(l.line, l.text)).join('\n');
  if (yac && !GRAPHQL_START.test(query)) return { line: first.line, message: 'httpYac sends a GRAPHQL request only when its body starts with "query" or "mutation"; start it so, or use POST with the header "X-Request-Type: GraphQL".' };
  let variables: unknown;
  if (variableLines.length > 0) {
    const text = variableLines.map((l) => input.expand(l.line, l.text)).join('\n');
    try {
      variables = JSON.parse(text);
    } catch {
      return { line: variableLines[0].line, message: 'The GraphQL variables after the blank line are not JSON; write them as a JSON object such as {"name": "value"}.' };
    }
  }
  // REST Client names the operation of a named query only; httpYac of a named query or mutation.
  const named = (yac ? /^\s*(?:query|mutation)\s+([^\s({]+)/ : /^\s*query\s+([^@{(\s]+)/i).exec(query)?.[1];
  const operationName = named?.startsWith('@') ? undefined : named;
  // REST Client sends "variables": {} when there are none; httpYac leaves the key out.
  const payload = yac ? { query, operationName, variables } : { query, operationName, variables: variables ?? {} };
  const method = yac ? 'POST' : input.method;
  const typed = yac && header(list, 'content-type') === undefined ? { ...headers, 'content-type': 'application/json' } : headers;
  return { method, headers: typed, body: JSON.stringify(payload) };
}

/** True for a refusal rather than a body. */
export function isRefusal(b: BuiltBody | BodyRefusal): b is BodyRefusal {
  return 'message' in b;
}
