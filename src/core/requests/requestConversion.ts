// Requests from elsewhere written as this project's request files: a pasted curl command (Paste curl
// as Request) and a peer's `.http`/`.rest` file (Open as Business Data Request File). The service's
// hosts become the connection's variables ({{baseUrl}}, {{legacyUrl}}, {{authUrl}}), so the file
// follows the connection; credentials are removed, since the signed-in account's token goes instead.
// A request whose text the request-file grammar would read differently is refused, never rewritten
// into another request. Pure: the extension and any CLI share it.
import type { Endpoints } from '../model';
import { exactOrigin } from '../protocol/credentialOrigins';
import { CURL_LINE, pipelineDiffers, readCurlCommand } from './curlCommand';
import type { CurlRequest } from './curlReading';
import { MANAGED_HEADERS } from './queries';
import { parseRequestFile } from './requestFile';
import { references, splitLines } from './requestText';
import { connectionVariables } from './requestVariables';

const SERVICE_VARIABLES = ['baseUrl', 'legacyUrl', 'authUrl'] as const;
type ServiceVariable = (typeof SERVICE_VARIABLES)[number];
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The URL with the service's address it starts with replaced by the connection variable that holds
 * it; unchanged when it starts with none. Where addresses share a host (the sandbox), the longest
 * path wins, then the interface the path belongs to: A's token path, A's other paths, else B.
 */
export function withServiceVariables(url: string, e: Endpoints): string {
  const authority = AUTHORITY.exec(url);
  const origin = authority ? exactOrigin(authority[0]) : undefined;
  if (!authority || origin === undefined) return url;
  const rest = url.slice(authority[0].length);
  const matches: Array<{ readonly name: ServiceVariable; readonly path: string }> = [];
  for (const name of SERVICE_VARIABLES) {
    const address = e[name];
    if (address === '' || !URL.canParse(address) || exactOrigin(address) !== origin) continue;
    const path = new URL(address).pathname.replace(/\/+$/, '');
    if (rest === path || (rest.startsWith(path) && /^[/?#]/.test(rest.slice(path.length)))) matches.push({ name, path });
  }
  if (matches.length === 0) return url;
  const longest = Math.max(...matches.map((m) => m.path.length));
  const best = matches.filter((m) => m.path.length === longest);
  const after = rest.slice(longest);
  const a = `/${e.aVersion ?? 'v1'}/`;
  const preferred: ServiceVariable = after.startsWith(`${a}token`) ? 'authUrl' : after.startsWith(a) ? 'baseUrl' : 'legacyUrl';
  const chosen = best.find((m) => m.name === preferred) ?? best[0];
  return `{{${chosen.name}}}${after}`;
}

/** Every absolute http(s) URL in a line of text, with the service's addresses replaced. */
function lineWithServiceVariables(line: string, e: Endpoints): string {
  return line.replace(/\bhttps?:\/\/[^\s'"<>]*/gi, (url) => withServiceVariables(url, e));
}

export type WrittenRequest = { readonly ok: true; readonly lines: readonly string[] } | { readonly ok: false; readonly message: string };

/**
 * A request in the request-file syntax, read back by the parser as the same request, or why it
 * cannot be: a body the grammar reads otherwise (a separator, a file line, a comment, a line break
 * at its end, carriage returns, a form over several lines).
 */
export function writeRequest(r: CurlRequest, e: Endpoints): WrittenRequest {
  const url = withServiceVariables(r.url, e);
  const lines = [`${r.method} ${url}`, ...r.headers.map((h) => `${h.name}: ${h.value}`)];
  if (/\s/.test(url.replace(/\{\{[^{}]*\}\}/g, ''))) return refuse('the URL holds a space or line break; percent-encode it (%20)');
  if (r.headers.some((h) => /[\r\n]/.test(h.value))) return refuse('a header holds a line break');
  if (r.body === undefined) return readsBack(r, url, lines);
  const body = r.body;
  const type = r.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value.toLowerCase() ?? '';
  const bodyLines = body.split('\n');
  const why =
    body.includes('\r')
      ? 'its body holds carriage returns (CR), which a request file cannot keep apart from its line ends'
      : /\n\s*$/.test(body) || body === ''
        ? 'its body ends with a line break or is empty, which a request file cannot write'
        : bodyLines.some((l) => /^###/.test(l))
          ? 'a line of its body starts with ###, which separates requests in a request file'
          : bodyLines.some((l) => /^\s*(?:#|\/\/)/.test(l))
            ? 'a line of its body starts with # or //, which a request file reads as a comment'
            : bodyLines.some((l) => /^\s*<@?\w*\s/.test(l))
              ? 'a line of its body starts with <, which a request file reads as a file to send'
              : bodyLines.some((l) => /^\?\?/.test(l))
                ? 'a line of its body starts with ??, which a request file reads as an assertion'
                : bodyLines.length > 1 && (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/'))
                  ? `its ${type.split(';')[0]} body spans several lines, which a request file joins or rewrites`
                  : undefined;
  if (why) return refuse(`${why}. Keep the body in a file and write the body line "< ./body.txt" instead`);
  return readsBack(r, url, [...lines, '', ...bodyLines]);
}

/** The lines, when the parser and the body pipeline read them as the same request; else why not. */
function readsBack(r: CurlRequest, url: string, lines: readonly string[]): WrittenRequest {
  const back = parseRequestFile(lines.join('\n'));
  const read = back.requests[0];
  const error = back.problems.find((p) => p.severity === 'error');
  if (error) return refuse(`a request file reads it with a problem: ${error.message}`);
  const same = read !== undefined && read.method === r.method && read.url === url && JSON.stringify(read.headers.map((h) => [h.name, h.value])) === JSON.stringify(r.headers.map((h) => [h.name, h.value]));
  if (!same) return refuse('a request file reads its lines as another request');
  const differs = pipelineDiffers(r, read.bodyLines);
  return differs ? refuse(differs) : { ok: true, lines };
}

function refuse(message: string): WrittenRequest {
  return { ok: false, message: `It cannot be written as a request: ${message}.` };
}

/** What the conversion did, at a 0-based line of the file it read. */
export interface ConversionChange {
  readonly line: number;
  readonly message: string;
}

export interface Conversion {
  readonly text: string;
  readonly changes: readonly ConversionChange[];
}

/**
 * A peer's `.http`/`.rest` file (REST Client, httpYac, kulala) as a request file of this project:
 * service hosts as connection variables (a file variable that only held one is removed), curl
 * commands as requests, credential header lines removed (and file variables only they used), with
 * every change and every variable left for the user to define listed. `{{$dotenv}}`,
 * `{{$processEnv}}` and the rest are kept as they are.
 */
export function convertRequestFile(text: string, e: Endpoints): Conversion {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const lines = splitLines(text);
  const parsed = parseRequestFile(text);
  // Replacements by source line: undefined keeps the line, [] removes it.
  const edits = new Map<number, readonly string[]>();
  const changes: ConversionChange[] = [];
  const change = (line: number, message: string) => changes.push({ line, message });
  const connection = connectionVariables(e);

  for (const r of parsed.requests) {
    if (CURL_LINE.test(lines[r.requestLine])) {
      convertCurl(lines, r.requestLine, r.endLine, e, edits, change);
      continue;
    }
    const line = lineWithServiceVariables(lines[r.requestLine], e);
    if (line !== lines[r.requestLine]) {
      edits.set(r.requestLine, [line]);
      change(r.requestLine, `The service's address became ${variablesIn(line).join(', ')}, which the connection fills in.`);
    }
    for (const h of r.headers) {
      if (!MANAGED_HEADERS.has(h.name.toLowerCase())) continue;
      edits.set(h.span.line, []);
      change(h.span.line, `Removed the ${h.name} header: the signed-in account's token is sent instead.`);
    }
  }
  for (const p of parsed.problems) {
    // A curl block that the parser refused is left as it is; its line says why in the editor.
    if (p.code === 'curl' && p.severity === 'error') change(p.span.line, `Left as it was: ${p.message}`);
    // httpYac's requests separated by a blank line only (the body pipeline's one warning): a separator makes it a request.
    if (p.code === 'body' && p.severity === 'warning') {
      edits.set(p.span.line, ['###', lineWithServiceVariables(lines[p.span.line], e)]);
      change(p.span.line, 'Added a "###" line above this request: httpYac reads it as a request of its own, a request file needs the separator.');
    }
  }
  for (const v of parsed.variables) {
    const value = lineWithServiceVariables(v.value, e);
    const removedOnly = usedOnlyByRemovedLines(v.name, v.span.line, lines, edits);
    if (removedOnly) {
      edits.set(v.span.line, []);
      change(v.span.line, `Removed @${v.name}: only the credential lines removed here used it.`);
    } else if (value === `{{${v.name}}}` && Object.hasOwn(connection, v.name)) {
      edits.set(v.span.line, []);
      change(v.span.line, `Removed @${v.name}: the connection's {{${v.name}}} takes its place.`);
    } else if (value !== v.value) {
      edits.set(v.span.line, [lines[v.span.line].replace(v.value, value)]);
      change(v.span.line, `In @${v.name}, the service's address became ${variablesIn(value).join(', ')}.`);
    }
  }
  // Variables that REST Client and httpYac take from their environments: the user defines them here.
  const known = new Set([...Object.keys(connection), ...parsed.variables.map((v) => v.name)]);
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    if (edits.get(i)?.length === 0) return;
    for (const { name } of references(line, i)) {
      // System variables ($…) and chained values (name.response.…) are the file's own business.
      if (known.has(name.replace(/^%/, '')) || seen.has(name) || name.startsWith('$') || name.includes('.response.')) continue;
      seen.add(name);
      change(i, `{{${name}}} is not defined in the file (REST Client and httpYac take it from their environments): define it with "@${name} = …" at the top, or use {{baseUrl}} or {{legacyUrl}} in its place.`);
    }
  });
  const out = lines.flatMap((line, i) => edits.get(i) ?? [line]);
  return { text: out.join(eol), changes: changes.sort((a, b) => a.line - b.line) };
}

function convertCurl(lines: readonly string[], first: number, last: number, e: Endpoints, edits: Map<number, readonly string[]>, change: (line: number, message: string) => void): void {
  let end = last;
  while (end > first && lines[end].trim() === '') end--;
  const reading = readCurlCommand(lines.slice(first, end + 1).join('\n'));
  // The parser read it, so the reader does too; a refusal here would be a bug, kept visible all the same.
  if (!reading.ok) return change(first, `Left as it was: ${reading.message}`);
  const written = writeRequest(reading.request, e);
  if (!written.ok) return change(first, `Left the curl command as it was. ${written.message}`);
  edits.set(first, written.lines);
  for (let i = first + 1; i <= end; i++) edits.set(i, []);
  change(first, 'The curl command became a request (curl sends the same).');
  for (const note of reading.notes) change(first, note.message);
}

/** Whether every line using `{{name}}` (besides the variable's own) is one the conversion removes, and there is one. */
function usedOnlyByRemovedLines(name: string, own: number, lines: readonly string[], edits: ReadonlyMap<number, readonly string[]>): boolean {
  let removed = 0;
  for (let i = 0; i < lines.length; i++) {
    if (i === own || !references(lines[i], i).some((r) => r.name === name)) continue;
    if (edits.get(i)?.length !== 0) return false;
    removed++;
  }
  return removed > 0;
}

function variablesIn(text: string): string[] {
  return [...new Set(references(text, 0).flatMap((r) => ((SERVICE_VARIABLES as readonly string[]).includes(r.name) ? [`{{${r.name}}}`] : [])))];
}
