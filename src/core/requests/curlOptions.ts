// curl's options read as a request: each option is taken into the request (method, headers, URL,
// body), left out because it concerns only the answer or the connection (with a note where this
// client does it its own way), dropped with a warning as a credential, or refused with what to write
// instead. The option tables say which is which.
import { refuse, type CurlHeader, type CurlNote, type CurlReading } from './curlReading';
import { credentialNote, readData, readHeader, readUrl, shownUrl, type DataPart } from './curlValues';
import { methodAdvice, WIRE_METHODS } from './methods';

const WRITE_INSTEAD = 'or write the request as "METHOD URL", its headers, a blank line and its body';

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

/** curl's arguments after `curl` as the request it would send, or why they cannot be read. */
export function readOptions(args: readonly string[]): CurlReading {
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
  // The methods a request line may name, as it would name them: not TRACE, TRACK or CONNECT.
  if (!WIRE_METHODS.has(chosen)) return refuse(methodAdvice(chosen), chosen);
  return { ok: true, request: { method: chosen, url: target, headers, body: sent }, notes };
}

function unknownOption(written: string): string {
  return `"${written}" is an option of curl not read here, so the request curl would send cannot be told; remove it, ${WRITE_INSTEAD}.`;
}
