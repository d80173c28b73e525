// Request files in the `.http` syntax that REST Client and httpYac document: requests separated by
// `###` lines (text after it is the title, and the name when no `@name` is given), `# @name NAME`
// or `// @name NAME`, file variables `@name = value`, comments `#` and `//`, a request line
// `[METHOD] URL [HTTP/1.1]` with query continuation lines starting with `?` or `&`, headers up to
// the first blank line, then the body. Plus meta lines of ours: `# @interface a|b`, `# @connection NAME`.
// Pure and line-based, so the extension's diagnostics, completion and CodeLens and the CLI share it.
// Total: whatever the text, the result is requests and problems at lines, never an exception.
import type { InterfaceId } from '../model';
import { assertionsIn, isAssertionLine, type Assertion } from './assertions';
import { CURL_LINE, readCurlLines } from './curlCommand';
import { MANAGED_HEADERS } from './queries';
import { identityHeaderProblem } from './identityHeaders';
import { binaryProblem, characterProblem, openReference, splitLines, type LineSpan } from './requestText';
import { readBody, type BodyLine } from './bodies';
import { methodAdvice, REQUEST_METHODS } from './methods';
import { SettingsReader, type RequestSettings } from './requestSettings';

export interface FileVariable {
  readonly name: string;
  readonly value: string;
  readonly span: LineSpan;
}

export interface RequestHeader {
  readonly name: string;
  readonly value: string;
  readonly span: LineSpan;
}

export interface ParsedRequest {
  /** 0-based position among the file's requests. */
  readonly index: number;
  /** `@name`, else the `###` title. */
  readonly name?: string;
  readonly interfaceId?: InterfaceId;
  /** `# @connection NAME` above its request line (requestConnections.ts decides which applies). */
  readonly connection?: ConnectionMeta;
  readonly method: string;
  /** The URL as written (query continuation lines joined), variables not yet replaced. */
  readonly url: string;
  readonly headers: readonly RequestHeader[];
  readonly body?: string;
  /** The body's lines without comment lines, with their file lines read (bodies.ts). */
  readonly bodyLines: readonly BodyLine[];
  /** `# @prompt`, `# @disabled`, `# @note`, `# @no-redirect` (requestSettings.ts). */
  readonly settings: RequestSettings;
  /** Lines of the block: from its first line after `###` to its last. */
  readonly startLine: number;
  readonly endLine: number;
  /** The request line (where a CodeLens goes). */
  readonly requestLine: number;
  /** `??` lines after the request line (assertions.ts), in line order; never part of the headers or the body. */
  readonly assertions: readonly Assertion[];
}

/** `identity-header`: a header that names the host or path (Host, X-Forwarded-Host …); `binary`: the file is not text at all; `character`: a line holds a character no request can carry; `curl`: a curl command's. */
export type ProblemCode = 'credential-header' | 'identity-header' | 'syntax' | 'unknown-variable' | 'interface' | 'binary' | 'character' | 'connection' | 'assertion' | 'setting' | 'body' | 'curl';

export interface RequestFileProblem {
  readonly span: LineSpan;
  readonly message: string;
  readonly severity: 'error' | 'warning';
  readonly code: ProblemCode;
}

/** A `# @connection NAME` line: the name as written, and the line (0-based) from its first to last character. */
export interface ConnectionMeta {
  readonly name: string;
  readonly span: LineSpan;
}

export interface ParsedRequestFile {
  readonly variables: readonly FileVariable[];
  /** `# @connection NAME` in the file's first block, above any request line: every request's, unless it names its own. */
  readonly connection?: ConnectionMeta;
  readonly requests: readonly ParsedRequest[];
  /** In line order. */
  readonly problems: readonly RequestFileProblem[];
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
const SEPARATOR = /^###(.*)$/s;
// The patterns below read trimmed lines, greedily and with `s` (a line may hold any character): a
// lazy group before `\s*$` takes time quadratic in the length of a line of spaces.
const VARIABLE = /^@([A-Za-z_][\w.-]*)\s*=\s?(.*)$/s;
const META = /^(?:#|\/\/)\s*@([A-Za-z][\w-]*)(?:\s*=?\s*(.*))?$/s;
const COMMENT = /^\s*(?:#|\/\/)/;
const REQUEST_LINE = /^(?:([A-Za-z][A-Za-z-]*)\s+)?(\S.*)$/s;
const HTTP_VERSION = /\sHTTP\/\d(?:\.\d)?$/;
// Indented headers are read as httpYac reads them: Enter after an indented query line keeps the indent.
const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/s;

export function parseRequestFile(text: string): ParsedRequestFile {
  const lines = splitLines(text);
  // A compressed or binary file holds no request: one problem, and nothing of it is read as one.
  const binary = binaryProblem(text, lines);
  if (binary) return { variables: [], requests: [], problems: [{ ...binary, severity: 'error' }] };
  const variables: FileVariable[] = [];
  const requests: ParsedRequest[] = [];
  const problems: RequestFileProblem[] = [];
  const top: { connection?: ConnectionMeta } = {};
  lines.forEach((line, i) => {
    const p = characterProblem(line, i);
    if (p) problems.push({ ...p, severity: 'error' });
  });
  let start = 0;
  let title: string | undefined;
  for (let i = 0; i <= lines.length; i++) {
    const m = i < lines.length ? SEPARATOR.exec(lines[i]) : null;
    if (i < lines.length && !m) continue;
    if (i > start || title !== undefined) parseBlock(lines, start, i - 1, title, { variables, requests, problems, top: start === 0 ? top : undefined });
    title = m?.[1].trim() || undefined;
    start = i + 1;
  }
  return { variables, requests, ...top, problems: problems.sort((a, b) => a.span.line - b.span.line || a.span.start - b.span.start) };
}

interface Sink {
  readonly variables: FileVariable[];
  readonly requests: ParsedRequest[];
  readonly problems: RequestFileProblem[];
  /** The first block's: where its `# @connection` goes (the file's). */
  readonly top?: { connection?: ConnectionMeta };
}

function parseBlock(lines: readonly string[], first: number, last: number, title: string | undefined, sink: Sink): void {
  let name = title;
  let interfaceId: InterfaceId | undefined;
  const settings = new SettingsReader();
  let connection: ConnectionMeta | undefined;
  let i = first;
  // Before the request line: blank lines, comments (with meta data) and file variables.
  for (; i <= last; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const variable = VARIABLE.exec(trimmed);
    if (variable) {
      const col = line.indexOf('@');
      sink.variables.push({ name: variable[1], value: variable[2], span: { line: i, start: col, end: col + 1 + variable[1].length } });
      checkReferences(lines, i, sink);
      continue;
    }
    const meta = META.exec(trimmed);
    if (meta) {
      const key = meta[1].toLowerCase();
      const value = meta[2] ?? '';
      if (key === 'name' && value !== '') name = value;
      if (key === 'interface') {
        const id = value.toLowerCase();
        if (id === 'a' || id === 'b') interfaceId = id;
        else sink.problems.push(problem(i, line, `"# @interface ${value}" names no interface; write "# @interface a" (consumer key, bearer token) or "# @interface b" (user name, raw token).`, 'error', 'interface'));
      }
      if (key === 'connection') {
        connection = { name: value.trim(), span: problem(i, line, '', 'error', 'syntax').span };
        if (value.trim() === '') sink.problems.push(problem(i, line, '"# @connection" names no connection; write "# @connection NAME" with the name of one of your connections.', 'error', 'syntax'));
      }
      const setting = settings.read(meta[1], value, i);
      if (setting) sink.problems.push(problem(i, line, setting.message, setting.severity, 'setting'));
      continue;
    }
    if (COMMENT.test(line)) continue;
    if (isAssertionLine(line)) {
      sink.problems.push(problem(i, line, 'An assertion ("?? …") checks the answer of the request above it: move it below the request line.', 'error', 'assertion'));
      continue;
    }
    break;
  }
  if (sink.top && connection) sink.top.connection = connection;
  if (i > last) return;
  const requestLine = i;
  if (CURL_LINE.test(lines[i])) {
    // A pasted curl command, read as curl would send it (curlCommand.ts), as REST Client reads one.
    // `??` lines after the command are its assertions, as after any request, with comments between them.
    let commandEnd = last;
    while (commandEnd > i && (lines[commandEnd].trim() === '' || isAssertionLine(lines[commandEnd]) || COMMENT.test(lines[commandEnd]))) commandEnd--;
    const curl = readCurlLines(lines, i, commandEnd);
    for (let c = i; c <= commandEnd; c++) checkReferences(lines, c, sink);
    sink.problems.push(...curl.problems.map((p) => ({ ...p, code: 'curl' as const })));
    const curlChecks = assertionsIn(lines, commandEnd + 1, last);
    for (const p of curlChecks.problems) sink.problems.push({ ...p, severity: 'error', code: 'assertion' });
    if (curl.request) sink.requests.push({ index: sink.requests.length, name, interfaceId, ...(connection && !sink.top ? { connection } : {}), ...curl.request, settings: settings.settings(), startLine: first, endLine: last, requestLine, assertions: curlChecks.assertions });
    return;
  }
  const rl = REQUEST_LINE.exec(lines[i].trim());
  if (!rl) {
    // A line that is not blank always matches; a problem all the same, never an exception.
    sink.problems.push(problem(i, lines[i], 'This line is not a request line; write it as "GET {{baseUrl}}/…".', 'error', 'syntax'));
    return;
  }
  let method = (rl[1] ?? 'GET').toUpperCase();
  let url = withoutVersion(rl[2]);
  if (rl[1] !== undefined && !REQUEST_METHODS.has(method)) {
    sink.problems.push(problem(i, lines[i], methodAdvice(rl[1]), 'error', 'syntax'));
    method = 'GET';
    url = lines[i].trim();
  }
  checkReferences(lines, i, sink);
  // Query continuation: lines that start with ? or & join the URL (`??` starts an assertion).
  while (i + 1 <= last && /^\s*[?&]/.test(lines[i + 1]) && !isAssertionLine(lines[i + 1])) {
    url += lines[++i].trim();
    checkReferences(lines, i, sink);
  }
  const checks = assertionsIn(lines, i + 1, last);
  for (const p of checks.problems) sink.problems.push({ ...p, severity: 'error', code: 'assertion' });
  const headers: RequestHeader[] = [];
  for (i++; i <= last && lines[i].trim() !== ''; i++) {
    const line = lines[i];
    if (COMMENT.test(line) || isAssertionLine(line)) continue;
    const h = HEADER.exec(line.trim());
    if (!h) {
      sink.problems.push(problem(i, line, 'This line is not a header ("Name: value"). Leave one blank line between the headers and the body.', 'error', 'syntax'));
      continue;
    }
    checkReferences(lines, i, sink);
    const span = { line: i, start: line.search(/\S/), end: line.length };
    headers.push({ name: h[1], value: h[2], span });
    if (MANAGED_HEADERS.has(h[1].toLowerCase())) {
      sink.problems.push({
        span,
        message: `A request file never holds a token or a credential: the ${h[1]} header is removed before sending, and the signed-in account's token is added. Delete this line.`,
        severity: 'warning',
        code: 'credential-header',
      });
    }
    const identity = identityHeaderProblem(h[1]);
    if (identity) sink.problems.push({ span, message: identity, severity: 'error', code: 'identity-header' });
  }
  let end = last;
  while (end > i && (lines[end].trim() === '' || isAssertionLine(lines[end]))) end--;
  for (let b = i + 1; b <= end; b++) if (!isAssertionLine(lines[b])) checkReferences(lines, b, sink);
  // `??` lines are the request's assertions, never part of its body.
  const read = readBody(lines, i + 1, end, method, headers);
  for (const p of read.problems) if (!isAssertionLine(lines[p.line])) sink.problems.push(problem(p.line, lines[p.line], p.message, p.severity, 'body'));
  const bodyLines = read.lines.filter((l) => !isAssertionLine(lines[l.line]));
  const body = bodyLines.length > 0 ? bodyLines.map((l) => l.text).join('\n') : undefined;
  sink.requests.push({ index: sink.requests.length, name, interfaceId, ...(connection && !sink.top ? { connection } : {}), method, url, headers, body, bodyLines, settings: settings.settings(), startLine: first, endLine: last, requestLine, assertions: checks.assertions });
}

/** The URL of a trimmed request line, without a trailing ` HTTP/1.1`. */
function withoutVersion(target: string): string {
  const version = HTTP_VERSION.exec(target);
  return version ? target.slice(0, version.index).trimEnd() : target;
}

/** A `{{` that opens no variable would go out as text (`%7B%7B…`): refused at its line. */
function checkReferences(lines: readonly string[], line: number, sink: Sink): void {
  const open = openReference(lines[line]);
  if (open) sink.problems.push({ span: { line, start: open.start, end: open.start + 2 }, message: open.message, severity: 'error', code: 'syntax' });
}

function problem(line: number, text: string, message: string, severity: 'error' | 'warning', code: ProblemCode): RequestFileProblem {
  const start = Math.max(0, text.search(/\S/));
  return { span: { line, start, end: Math.max(start + 1, text.trimEnd().length) }, message, severity, code };
}
