// A `curl …` command read as the request curl would send: its method, URL, headers and body. REST
// Client reads a request block that is a curl command; Paste curl as Request and the conversion of
// peers' files write one as a request. The shell's words come from a bash command (quotes, `$'…'`,
// `\` continuations) or a Windows cmd.exe one (`^` continuations and escapes, then the C runtime's
// quoting, as browsers' "Copy as cURL (cmd)" writes it). Credentials (`-u`, Authorization and the
// service's credential headers) are dropped with a warning: the signed-in account's token goes
// instead. Whatever cannot be read faithfully (a file, a shell variable, a second command, an option
// not known here) is refused with what to write instead: never a request other than curl's.
import { parse } from 'shell-quote';
import { buildBody, isRefusal, type BodyLine } from './bodies';
import { MANAGED_HEADERS } from './queries';
import { identityHeaderProblem } from './identityHeaders';
import { methodAdvice, REFLECTING_METHODS } from './methods';
import type { LineSpan } from './requestText';

export interface CurlHeader {
  readonly name: string;
  readonly value: string;
}

export interface CurlRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly CurlHeader[];
  readonly body?: string;
}

/** Part of the command left out of the request: a credential, or an option about the answer only. */
export interface CurlNote {
  readonly kind: 'credential' | 'ignored';
  readonly message: string;
  /** The option or header name as written, to find its line. */
  readonly written: string;
}

export type CurlReading =
  | { readonly ok: true; readonly request: CurlRequest; readonly notes: readonly CurlNote[] }
  | { readonly ok: false; readonly message: string; readonly written?: string };

/** A line that starts a curl command (`curl` or Windows' `curl.exe`). */
export const CURL_LINE = /^\s*curl(?:\.exe)?(?:\s|$)/;

const WRITE_INSTEAD = 'or write the request as "METHOD URL", its headers, a blank line and its body';

export function readCurlCommand(text: string): CurlReading {
  // `{{name}}` references (a request file's variables) stand as opaque words while the shell's rules apply.
  if (/[\ue000\ue001]/.test(text)) return refuse('The command holds a private-use character (U+E000 or U+E001); delete it.');
  const refs: string[] = [];
  const masked = text.replace(/\{\{[^{}]*\}\}/g, (ref) => `\ue000${refs.push(ref) - 1}\ue001`);
  // cmd.exe's continuation is ^ at a line's end, bash's a backslash: a command holding only the first is cmd.exe's.
  const split = /\^[ \t]*\r?\n/.test(masked) && !/\\\r?\n/.test(masked) ? cmdWords(masked) : bashWords(masked);
  if (!split.ok) return split;
  const words = split.words.map((w) => w.replace(/\ue000(\d+)\ue001/g, (_, i: string) => refs[Number(i)]));
  if (words.length === 0 || !/^curl(?:\.exe)?$/.test(words[0])) return refuse('This is not a curl command: it should start with "curl".');
  return readOptions(words.slice(1));
}

export interface CurlLines {
  readonly request?: {
    readonly method: string;
    readonly url: string;
    readonly headers: ReadonlyArray<CurlHeader & { readonly span: LineSpan }>;
    readonly body?: string;
    /** The body as one line of the request line (its line breaks inside), for the request-file body pipeline (bodies.ts). */
    readonly bodyLines: readonly BodyLine[];
  };
  readonly problems: ReadonlyArray<{ readonly span: LineSpan; readonly message: string; readonly severity: 'error' | 'warning' }>;
}

/** A request file's block whose request line (`first`) starts a curl command, to its block's `last` line. */
export function readCurlLines(lines: readonly string[], first: number, last: number): CurlLines {
  const reading = readCurlCommand(lines.slice(first, last + 1).join('\n'));
  // The line that shows the option or header a message is about: the first of the block that holds it.
  const spanOf = (written: string | undefined): LineSpan => {
    const found = written === undefined ? -1 : lines.slice(first, last + 1).findIndex((l) => l.includes(written));
    const line = found < 0 ? first : first + found;
    const text = lines[line];
    const start = found < 0 ? Math.max(0, text.search(/\S/)) : text.indexOf(written as string);
    return { line, start, end: Math.max(start + 1, found < 0 ? text.trimEnd().length : start + (written as string).length) };
  };
  if (!reading.ok) return { problems: [{ span: spanOf(reading.written), message: reading.message, severity: 'error' }] };
  const { request, notes } = reading;
  const bodyLines = request.body === undefined ? [] : [{ line: first, text: request.body }];
  const differs = pipelineDiffers(request, bodyLines);
  if (differs) return { problems: [{ span: spanOf(undefined), message: differs, severity: 'error' }] };
  return {
    request: { ...request, headers: request.headers.map((h) => ({ ...h, span: spanOf(h.name) })), bodyLines },
    problems: notes.map((n) => ({ span: spanOf(n.written), message: n.message, severity: 'warning' as const })),
  };
}

/**
 * Why the request files' body pipeline (bodies.ts: form encoding, GraphQL, multipart line ends)
 * would send another method, header set or body than curl, or undefined when it sends curl's.
 */
export function pipelineDiffers(request: CurlRequest, bodyLines: readonly BodyLine[]): string | undefined {
  const headers = Object.fromEntries(request.headers.map((h) => [h.name, h.value]));
  const built = buildBody({ method: request.method, headers, lines: bodyLines, expand: (_, text) => text });
  const same = !isRefusal(built) && built.method === request.method && built.body === request.body && JSON.stringify(built.headers) === JSON.stringify(headers);
  if (same) return undefined;
  const type = request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value.toLowerCase() ?? '';
  if (request.headers.some((h) => h.name.toLowerCase() === 'x-request-type') || request.method === 'GRAPHQL') {
    return 'curl sends this body as written, but a request file sends a GraphQL request (X-Request-Type: GraphQL, or the method GRAPHQL) as JSON it builds; write it as a request with that header instead of a curl command, or remove the header.';
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return 'curl sends this form body as written, but a request file percent-encodes what a form body cannot carry as it is (spaces, quotes, line breaks, letters beyond ASCII); percent-encode it in the command (%20 for a space), or use --data-urlencode.';
  }
  return `curl sends this body as written, but a request file would send it otherwise (${type || 'its content type'}); keep the body in a file and write the request with the body line "< ./body.txt".`;
}

function refuse(message: string, written?: string): { readonly ok: false; readonly message: string; readonly written?: string } {
  return { ok: false, message, written };
}

type Words = { readonly ok: true; readonly words: string[] } | { readonly ok: false; readonly message: string; readonly written?: string };

const SECOND_COMMAND = 'The text holds more than one shell command';

/**
 * The words of a bash command. shell-quote reads the quoting (single, double, `$'…'`) and finds
 * operators, variables and comments; what it leaves out of bash is handled here before it reads:
 * `\` + line break joins lines (not inside single quotes), a line break ends the command, and
 * command substitution with backticks, brace expansion and `~` are refused.
 */
function bashWords(text: string): Words {
  let joined = '';
  let quote: "'" | '"' | "$'" | undefined;
  let wordStart = true;
  // `{a,b}` or `{1..3}` from a `{` on (sticky), never past the next brace: linear in the text.
  const braceExpansion = /\{[^\s{}'"]*(?:,|\.\.)[^\s{}'"]*\}/y;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      joined += c;
      continue;
    }
    if (c === '\\' && (next === '\n' || (next === '\r' && text[i + 2] === '\n'))) {
      i += next === '\n' ? 1 : 2;
      continue;
    }
    if (c === '\\' && next !== undefined) {
      joined += c + next;
      i++;
      wordStart = false;
      continue;
    }
    if ((c === '`' || (c === '$' && next === '(')) && quote !== "$'") {
      return refuse(`${c === '`' ? 'A backtick' : '"$("'} runs a command inside the curl command, whose output cannot be known here; write its result instead.`, c === '`' ? c : '$(');
    }
    if (quote !== undefined) {
      if ((quote === '"' && c === '"') || (quote === "$'" && c === "'")) quote = undefined;
      joined += c;
      continue;
    }
    if (c === '#' && wordStart) {
      // A comment runs to the end of its line.
      while (i < text.length && text[i] !== '\n') i++;
      i--;
      continue;
    }
    if (c === '\n' || c === '\r') {
      // The command ends here: anything but blank lines and comments after it is a second command.
      const rest = text.slice(i + 1).split(/\r?\n|\r/);
      const extra = rest.find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
      if (extra !== undefined) return refuse(`${SECOND_COMMAND}: the line "${extra.trim().slice(0, 40)}" is not joined to the one before it. End that line with a backslash (\\) to continue the command, or keep only the curl command.`, extra.trim());
      break;
    }
    if (c === "'") quote = "'";
    else if (c === '"') quote = '"';
    else if (c === '$' && next === "'") {
      quote = "$'";
      joined += c + next;
      i++;
      wordStart = false;
      continue;
    } else if (c === '~' && wordStart) return refuse('A word starting with ~ is expanded by the shell to a home folder; quote it ("~…") or write the path in full.', '~');
    else if (c === '{') {
      braceExpansion.lastIndex = i;
      const brace = braceExpansion.exec(text);
      if (brace) return refuse(`The shell expands ${brace[0]} into several words; quote it ('${brace[0]}') if it is meant as text.`, brace[0]);
    }
    wordStart = c === ' ' || c === '\t';
    joined += c;
  }
  if (quote !== undefined) return refuse(`A ${quote === '"' ? 'double' : 'single'} quote is never closed; close it, or remove it.`);
  const words: string[] = [];
  for (const entry of parse(joined, (name) => `\ue002${name}\ue003`)) {
    if (typeof entry === 'string') {
      const variable = /\ue002([^\ue003]*)\ue003/.exec(entry);
      // shell-quote takes a lone `$` for a variable; bash keeps it as a character.
      if (variable && variable[1] !== '') {
        return refuse(`$${variable[1]} is a shell variable: curl would send its value, which cannot be known here. Write the value, or a {{variable}} of the request file.`, `$${variable[1]}`);
      }
      words.push(entry.replace(/\ue002\ue003/g, '$'));
    } else if ('comment' in entry) continue;
    else if (entry.op === 'glob') words.push(entry.pattern);
    else
      return refuse(
        entry.op === '&'
          ? `An unquoted & ends the command there (curl would get only what comes before it, and the rest runs as another command); put the URL or data in quotes: '…&…'.`
          : `"${entry.op}" joins another command or a file to curl's; keep only the curl command, without pipes, redirections or a second command.`,
        entry.op,
      );
  }
  return { ok: true, words };
}

/**
 * The words of a Windows cmd.exe command, as cmd.exe and then the C runtime of curl.exe read it:
 * `^` escapes the next character outside double quotes (at a line's end, it joins the next line and
 * escapes its first character), `"` toggles quoting; then words split at spaces outside quotes, with
 * `\"` a quote and backslashes doubled before a quote.
 */
function cmdWords(text: string): Words {
  let line = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!quoted && c === '^') {
      let j = i + 1;
      while (text[j] === ' ' || text[j] === '\t') j++;
      if (text[j] === '\r' && text[j + 1] === '\n') j++;
      if (text[j] === '\n') {
        // The first character of the joined line is taken as it is (a line break too).
        i = j;
        if (text[i + 1] === '\r' && text[i + 2] === '\n') i++;
        if (i + 1 < text.length) line += text[++i];
        continue;
      }
      if (i + 1 < text.length) line += text[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '\n' || c === '\r')) {
      const extra = text.slice(i + 1).split(/\r?\n|\r/).find((l) => l.trim() !== '' && !/^\s*(?:rem\b|::)/i.test(l));
      if (extra !== undefined) return refuse(`${SECOND_COMMAND}: the line "${extra.trim().slice(0, 40)}" is not joined to the one before it. End that line with ^ to continue the command, or keep only the curl command.`, extra.trim());
      break;
    }
    if (!quoted && /[&|<>]/.test(c)) return refuse(`"${c}" joins another command or a file to curl's; keep only the curl command, or escape it as ^${c}.`, c);
    line += c;
  }
  // cmd.exe replaces %NAME% before it reads any ^ (browsers write %^NAME, which names nothing).
  const variable = /%([A-Za-z_]\w*)%/.exec(text);
  if (variable) return refuse(`%${variable[1]}% is a cmd.exe variable: curl would send its value, which cannot be known here. Write the value, or a {{variable}} of the request file.`, variable[0]);
  if (quoted) return refuse('A double quote is never closed; close it, or remove it.');
  return { ok: true, words: crtWords(line) };
}

/** Words split as the Microsoft C runtime splits a command line. */
function crtWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      let n = 0;
      while (line[i + n] === '\\') n++;
      i += n - 1;
      if (line[i + 1] === '"') {
        word = (word ?? '') + '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) {
          word += '"';
          i++;
        }
      } else word = (word ?? '') + '\\'.repeat(n);
      continue;
    }
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        word = (word ?? '') + '"';
        i++;
      } else {
        quoted = !quoted;
        word ??= '';
      }
      continue;
    }
    if (!quoted && (c === ' ' || c === '\t' || c === '\n' || c === '\r')) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

// The options read, by what they do. Short ones are the same options' one-letter names.
const SHORT: Readonly<Record<string, string>> = {
  X: 'request', H: 'header', d: 'data', G: 'get', I: 'head', u: 'user', A: 'user-agent', e: 'referer', b: 'cookie', F: 'form', T: 'upload-file',
  o: 'output', O: 'remote-name', w: 'write-out', m: 'max-time', x: 'proxy', k: 'insecure', L: 'location', s: 'silent', S: 'show-error', v: 'verbose',
  i: 'include', g: 'globoff', f: 'fail', E: 'cert', n: 'netrc', N: 'no-buffer', '#': 'progress-bar', K: 'config', U: 'proxy-user', c: 'cookie-jar',
  '0': 'http1.0', '1': 'tlsv1', '2': 'sslv2', '3': 'sslv3', '4': 'ipv4', '6': 'ipv6', q: 'disable',
};
const TAKES_VALUE: ReadonlySet<string> = new Set([
  'request', 'header', 'data', 'data-raw', 'data-binary', 'data-ascii', 'data-urlencode', 'json', 'url', 'user', 'user-agent', 'referer', 'cookie',
  'form', 'form-string', 'upload-file', 'output', 'write-out', 'max-time', 'connect-timeout', 'proxy', 'cert', 'key', 'pass', 'oauth2-bearer',
  'retry', 'retry-delay', 'retry-max-time', 'cacert', 'capath', 'aws-sigv4', 'url-query', 'config', 'proxy-user', 'cookie-jar', 'max-redirs',
  'netrc-file', 'cert-type', 'key-type', 'resolve', 'connect-to', 'interface', 'limit-rate', 'output-dir', 'stderr', 'trace', 'trace-ascii',
]);
/** Options about how curl shows or keeps the answer, or how long it waits: nothing of the request. */
const QUIET: ReadonlySet<string> = new Set([
  'silent', 'show-error', 'verbose', 'include', 'fail', 'fail-with-body', 'no-progress-meter', 'progress-bar', 'no-buffer', 'output', 'remote-name',
  'write-out', 'compressed', 'http1.1', 'http2', 'max-time', 'connect-timeout', 'retry', 'retry-delay', 'retry-max-time', 'retry-all-errors',
  'globoff', 'output-dir', 'create-dirs', 'stderr', 'trace', 'trace-ascii', 'disable', 'ipv4', 'ipv6', 'tcp-nodelay', 'keepalive', 'no-keepalive',
]);
/** Options about the answer or the connection that this client does its own way, each with how. */
const OWN_WAY: Readonly<Record<string, string>> = {
  location: 'redirects are never followed here: the answer shows the redirect itself',
  'max-redirs': 'redirects are never followed here',
  insecure: "certificates are always checked here; for a private certificate authority, set the connection's CA file",
  cacert: "the certificate authority comes from the connection's CA file setting",
  capath: "the certificate authority comes from the connection's CA file setting",
  proxy: "the proxy comes from the connection's settings",
};
/** Ways of sending credentials: the signed-in account's token goes instead. */
const CREDENTIALS: ReadonlySet<string> = new Set([
  'user', 'oauth2-bearer', 'basic', 'digest', 'ntlm', 'negotiate', 'anyauth', 'netrc', 'netrc-optional', 'netrc-file', 'aws-sigv4', 'cert', 'key',
  'pass', 'cert-type', 'key-type', 'proxy-user',
]);
/** Options that would change the request in a way a request file cannot write, with what to write instead. */
const REFUSED: Readonly<Record<string, string>> = {
  form: `-F builds a multipart body (with files) that cannot be read here; write the request with a Content-Type: multipart/form-data header and its parts as the body`,
  'form-string': `--form-string builds a multipart body that cannot be read here; write the request with a Content-Type: multipart/form-data header and its parts as the body`,
  'upload-file': `-T uploads a file; write the request as "PUT URL" with the body line "< ./file"`,
  'url-query': `--url-query is not read here; write the parameters into the URL`,
  config: `-K reads options from a file, which cannot be read here; write them into the command`,
  'cookie-jar': `-c keeps cookies in a file; remove it`,
  'path-as-is': `--path-as-is keeps "/../" in the path, which this client resolves; write the path without it`,
  resolve: `--resolve sends the request to another address than the URL's host; remove it`,
  'connect-to': `--connect-to sends the request to another address than the URL's host; remove it`,
  next: `--next starts a second request; keep one request per curl command`,
  'http1.0': `-0 sends HTTP/1.0, which this client does not; remove it`,
  'request-target': `--request-target changes the request line; write the path into the URL`,
};

interface DataPart {
  readonly option: string;
  readonly value: string;
}

function readOptions(args: readonly string[]): CurlReading {
  const notes: CurlNote[] = [];
  const headers: CurlHeader[] = [];
  const data: DataPart[] = [];
  const urls: string[] = [];
  let method: string | undefined;
  let get = false;
  let head = false;
  let globoff = false;
  let endOfOptions = false;
  // Every option as [name, value, as written]; short ones may be grouped (-sSL) or hold their value (-XPOST).
  const options: Array<{ name: string; value?: string; written: string }> = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (endOfOptions || !word.startsWith('-') || word === '-') {
      urls.push(word);
      continue;
    }
    if (word === '--') {
      endOfOptions = true;
      continue;
    }
    if (word.startsWith('--')) {
      const name = word.slice(2);
      if (name.includes('=')) return refuse(`curl does not read "${word}": it takes an option's value as the next word ("--${name.split('=')[0]} value").`, word);
      const value = TAKES_VALUE.has(name) ? args[++i] : undefined;
      if (TAKES_VALUE.has(name) && value === undefined) return refuse(`${word} needs a value after it.`, word);
      options.push({ name, value, written: word });
      continue;
    }
    for (let k = 1; k < word.length; k++) {
      const name = SHORT[word[k]];
      if (name === undefined) return refuse(unknownOption(`-${word[k]}`), word);
      if (TAKES_VALUE.has(name)) {
        const value = k + 1 < word.length ? word.slice(k + 1) : args[++i];
        if (value === undefined) return refuse(`-${word[k]} needs a value after it.`, word);
        options.push({ name, value, written: word });
        break;
      }
      options.push({ name, written: word });
    }
  }
  for (const { name, value = '', written } of options) {
    const short = Object.keys(SHORT).find((s) => SHORT[s] === name);
    const shown = short ? `-${short}` : `--${name}`;
    switch (name) {
      case 'request':
        method = value;
        break;
      case 'header': {
        const header = readHeader(value, written, notes);
        if (!header.ok) return header;
        if (header.header) headers.push(header.header);
        break;
      }
      case 'data':
      case 'data-raw':
      case 'data-binary':
      case 'data-ascii':
      case 'data-urlencode':
      case 'json':
        data.push({ option: name, value });
        break;
      case 'url':
        urls.push(value);
        break;
      case 'get':
        get = true;
        break;
      case 'head':
        head = true;
        break;
      case 'globoff':
        globoff = true;
        break;
      case 'user-agent':
      case 'referer':
        if (value === '' || (name === 'referer' && value.includes(';auto'))) return refuse(`${shown} "${value}" is not read here; write the header itself with -H.`, written);
        headers.push({ name: name === 'user-agent' ? 'User-Agent' : 'Referer', value });
        break;
      case 'cookie':
        if (!value.includes('=')) return refuse(`-b "${value}" reads cookies from a file, which cannot be read here; write them with -H 'Cookie: name=value'.`, written);
        headers.push({ name: 'Cookie', value });
        break;
      default:
        if (QUIET.has(name)) break;
        if (OWN_WAY[name] !== undefined) notes.push({ kind: 'ignored', message: `curl's ${shown} is left out: ${OWN_WAY[name]}.`, written });
        else if (CREDENTIALS.has(name)) notes.push(credentialNote(`curl's ${shown}`, written));
        else return refuse(REFUSED[name] !== undefined ? `${REFUSED[name]}.` : unknownOption(written), written);
    }
  }
  const duplicate = headers.find((h, i) => headers.findIndex((o) => o.name.toLowerCase() === h.name.toLowerCase()) !== i);
  if (duplicate) return refuse(`The ${duplicate.name} header is given twice, and curl would send both; keep one.`, duplicate.name);
  if (urls.length === 0) return refuse('The curl command has no URL; add it, for example curl {{baseUrl}}/v1/….');
  if (urls.length > 1) return refuse(`The curl command has ${urls.length} URLs (${urls.map((u) => `"${shownUrl(u)}"`).join(', ')}), and curl would send one request to each; keep one per command.`, urls[1]);
  const url = readUrl(urls[0], globoff, notes);
  if (!url.ok) return url;
  const body = readData(data);
  if (!body.ok) return body;
  const has = (name: string) => headers.some((h) => h.name.toLowerCase() === name);
  let target = url.url;
  let sent = body.text;
  if (get && sent !== undefined) {
    // -G: the data goes into the query instead of a body.
    target += (target.includes('?') ? '&' : '?') + sent;
    sent = undefined;
  }
  if (sent !== undefined && body.json) {
    if (!has('content-type')) headers.push({ name: 'Content-Type', value: 'application/json' });
    if (!has('accept')) headers.push({ name: 'Accept', value: 'application/json' });
  } else if (sent !== undefined && !has('content-type')) headers.push({ name: 'Content-Type', value: 'application/x-www-form-urlencoded' });
  const chosen = method ?? (head ? 'HEAD' : sent !== undefined ? 'POST' : 'GET');
  if (!/^[A-Z]+$/.test(chosen)) {
    return refuse(`-X "${chosen.slice(0, 20)}": curl sends the method exactly as written, and servers read methods case by case; write it in capital letters (-X ${chosen.toUpperCase().replace(/[^A-Z]/g, '')}).`, chosen);
  }
  if (REFLECTING_METHODS.has(chosen)) return refuse(methodAdvice(chosen), chosen);
  return { ok: true, request: { method: chosen, url: target, headers, body: sent }, notes };
}

function unknownOption(written: string): string {
  return `"${written}" is an option of curl not read here, so the request curl would send cannot be told; remove it, ${WRITE_INSTEAD}.`;
}

function credentialNote(what: string, written: string): CurlNote {
  return {
    kind: 'credential',
    written,
    message: `A request never carries credentials of its own: ${what} is dropped, and the signed-in account's token is added. Delete it.`,
  };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the client or the URL decides. */
const COMPUTED: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding', 'connection']);

function readHeader(raw: string, written: string, notes: CurlNote[]): { ok: true; header?: CurlHeader } | { ok: false; message: string; written?: string } {
  if (raw.startsWith('@')) return refuse(`-H ${raw} reads headers from a file, which cannot be read here; write each header with its own -H.`, written);
  // `Name;` sends the header empty; `Name:` with nothing after it removes one that curl adds.
  const empty = /^([^:;\s]+);\s*$/.exec(raw);
  const m = empty ? null : /^([^:]*):(.*)$/s.exec(raw);
  const name = (empty?.[1] ?? m?.[1] ?? '').trim();
  // Not echoed: a header that is not one may be a token pasted on its own.
  if (!HEADER_NAME.test(name)) return refuse(`The value of ${written} is not a header; write it as ${written} 'Name: value'.`, written);
  if (/[\r\n]/.test(raw)) return refuse(`The ${name} header holds a line break, which a header cannot carry; remove it.`, name);
  const value = empty ? '' : (m?.[2] ?? '').trim();
  if (!empty && value === '') return refuse(`-H '${name}:' tells curl to leave out a header it adds itself; this client adds its own, so the request would differ. Remove the option.`, name);
  if (MANAGED_HEADERS.has(name.toLowerCase())) {
    notes.push(credentialNote(`the ${name} header`, name));
    return { ok: true };
  }
  const identity = identityHeaderProblem(name);
  if (identity) return refuse(identity, name);
  if (COMPUTED.has(name.toLowerCase())) return refuse(`The ${name} header is set by the client from the URL and the body; remove it.`, name);
  return { ok: true, header: { name, value } };
}

function readUrl(raw: string, globoff: boolean, notes: CurlNote[]): { ok: true; url: string } | { ok: false; message: string; written?: string } {
  const outside = raw.replace(/\{\{[^{}]*\}\}/g, '');
  if (/\s/.test(outside)) return refuse(`The URL "${shownUrl(raw)}" holds a space or line break; percent-encode it (%20).`, raw.slice(0, 20));
  if (!globoff && /[[\]{}]/.test(outside)) {
    return refuse('curl reads [ ] and { } in a URL as ranges and lists and sends one request for each; add -g (--globoff) if they are characters of the URL, or percent-encode them.', raw.slice(0, 20));
  }
  if (!raw.startsWith('{{') && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw)) {
    return refuse(`The URL "${shownUrl(raw)}" has no scheme, and curl would guess one; write it in full (https://…) or start it with {{baseUrl}}.`, raw.slice(0, 20));
  }
  // A user name and password before the host are credentials too.
  const userinfo = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#@]*@)/.exec(raw);
  if (!userinfo) return { ok: true, url: raw };
  notes.push(credentialNote('the user name and password in the URL', userinfo[2]));
  return { ok: true, url: userinfo[1] + raw.slice(userinfo[0].length) };
}

/** A URL for messages: never a user name or password before its host, at most 60 characters. */
function shownUrl(url: string): string {
  return url.replace(/^([^/?#]*\/\/)?[^/?#@]*@/, '$1').slice(0, 60);
}

function readData(parts: readonly DataPart[]): { ok: true; text?: string; json: boolean } | { ok: false; message: string; written?: string } {
  const json = parts.some((p) => p.option === 'json');
  if (json && parts.some((p) => p.option !== 'json')) return refuse('--json and -d/--data* together are not read here; use one of them.', '--json');
  const pieces: string[] = [];
  for (const { option, value } of parts) {
    const shown = option === 'data' ? '-d' : `--${option}`;
    if (option === 'data-urlencode') {
      const encoded = urlencodePart(value);
      if (encoded === undefined) return refuse(`${shown} "${value.slice(0, 40)}" reads a file, which cannot be read here; write the value itself.`, value.slice(0, 20));
      pieces.push(encoded);
      continue;
    }
    if (option !== 'data-raw' && value.startsWith('@')) {
      return refuse(
        option === 'data-binary' || option === 'json'
          ? `${shown} ${value} sends a file; write the request as "METHOD URL", its headers, a blank line and the body line "< ${value.slice(1)}".`
          : `${shown} ${value} sends a file with its line breaks removed, which cannot be read here; write the body itself, or use --data-binary @file for the file as it is.`,
        value.slice(0, 20),
      );
    }
    pieces.push(value);
  }
  if (pieces.length === 0) return { ok: true, json };
  // curl joins several -d pieces with &, and several --json pieces without anything between them.
  return { ok: true, text: pieces.join(json ? '' : '&'), json };
}

/** `--data-urlencode` as curl reads it: `content`, `=content`, `name=content`; the file forms (`@f`, `name@f`) are undefined. */
function urlencodePart(value: string): string | undefined {
  const eq = value.indexOf('=');
  const at = value.indexOf('@');
  if (at >= 0 && (eq < 0 || at < eq)) return undefined;
  if (eq < 0) return escape(value);
  return (eq === 0 ? '' : `${value.slice(0, eq)}=`) + escape(value.slice(eq + 1));
}

/** curl_easy_escape: every byte but A-Z a-z 0-9 - . _ ~ as %XX. */
function escape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
