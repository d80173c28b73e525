// A HAR file (HTTP Archive 1.2, as a browser's network panel saves it) read as an import source:
// each request once, in the order it was sent, without the headers the browser adds by itself
// (its identity, languages, caches, cookies, fetch metadata, HTTP/2's pseudo-headers) and without
// the CORS preflights it sends for the page. Answers are not read. Which hosts are the service's,
// and what a credential is, writeImport.ts decides as for every format.
import type { FormPart, ImportedBody, ImportedRequest, ImportSource, NameValue, ReportLine } from './importModel';
import { ImportError, isRecord, list, parseJson, record, stringOf, text } from './loose';

/** Headers a browser writes by itself: none of them says anything about the request the page made. */
const BROWSER_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'cookie',
  'user-agent',
  'accept-encoding',
  'accept-language',
  'referer',
  'origin',
  'pragma',
  'cache-control',
  'priority',
  'dnt',
  'upgrade-insecure-requests',
  'purpose',
  'x-client-data',
  'if-none-match',
  'if-modified-since',
  'save-data',
  'viewport-width',
  'device-memory',
  'dpr',
  'rtt',
  'downlink',
  'ect',
  'content-length',
  'connection',
  'te',
]);

function isBrowserHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return BROWSER_HEADERS.has(lower) || lower.startsWith(':') || lower.startsWith('sec-');
}

/** The HAR's requests as an import source named after `baseName` (the file's name). */
export function readHar(source: string, baseName: string): ImportSource {
  const doc = parseJson(source, 'The HAR file');
  const log = isRecord(doc) ? doc.log : undefined;
  if (!isRecord(log) || !Array.isArray(log.entries)) {
    throw new ImportError(
      'The file is not a HAR file (it has no "log" with "entries"). Save it from the browser\'s network panel ("Save all as HAR").',
    );
  }
  const report: ReportLine[] = [];
  const requests: ImportedRequest[] = [];
  const dropped = new Set<string>();
  const seen = new Set<string>();
  let preflights = 0;
  let repeats = 0;
  log.entries.forEach((raw, i) => {
    const r = record(record(raw).request);
    const method = text(r.method).toUpperCase() || 'GET';
    const url = text(r.url).split('#')[0];
    const path = pathOf(url);
    const where = `entry ${i + 1} (${method} ${path})`;
    if (url === '') {
      report.push({ kind: 'left-out', where, message: 'It has no URL.' });
      return;
    }
    if (method === 'OPTIONS' && list(r.headers).some((h) => text(record(h).name).toLowerCase() === 'access-control-request-method')) {
      preflights++;
      return;
    }
    const body = harBody(record(r.postData));
    const key = JSON.stringify([method, url, body]);
    if (seen.has(key)) {
      repeats++;
      return;
    }
    seen.add(key);
    const headers: NameValue[] = [];
    for (const h of list(r.headers).map(record)) {
      const name = text(h.name);
      if (isBrowserHeader(name)) dropped.add(name.toLowerCase());
      else if (name !== '') headers.push({ name, value: text(h.value) });
    }
    requests.push({
      group: [],
      title: `${method} ${path}`.slice(0, 100),
      where,
      method,
      url,
      headers,
      ...(body ? { body } : {}),
      comments: [],
      assertions: [],
      variables: [],
    });
  });
  const label = `HAR file "${baseName}"`;
  if (dropped.size > 0)
    report.push({
      kind: 'changed',
      where: label,
      message: `The browser's own headers are left out of every request: ${[...dropped].sort().join(', ')}.`,
    });
  if (preflights > 0)
    report.push({
      kind: 'left-out',
      where: label,
      message: `${preflights} CORS preflight request${preflights > 1 ? 's' : ''} (OPTIONS), which the browser sends by itself.`,
    });
  if (repeats > 0)
    report.push({
      kind: 'changed',
      where: label,
      message: `${repeats} request${repeats > 1 ? 's' : ''} sent again with the same method, URL and body ${repeats > 1 ? 'are' : 'is'} written once.`,
    });
  return { label, baseName, comments: [], groupWord: 'group', groupComments: [], requests, variables: [], report };
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.slice(0, 60);
  }
}

/** The body a HAR entry records: its text, or its form fields when the browser listed them. */
function harBody(postData: Readonly<Record<string, unknown>>): ImportedBody | undefined {
  const mime = text(postData.mimeType);
  const media = mime.split(';')[0].trim().toLowerCase();
  let body = stringOf(postData.text);
  if (body !== undefined && postData.encoding === 'base64') body = Buffer.from(body, 'base64').toString('utf8');
  const params = list(postData.params).map(record);
  if (media === 'application/x-www-form-urlencoded') {
    const fields =
      params.length > 0
        ? params.map((p) => ({ name: safeDecode(text(p.name)), value: safeDecode(text(p.value)) }))
        : [...new URLSearchParams(body ?? '')].map(([name, value]) => ({ name, value }));
    return fields.length > 0 ? { kind: 'urlencoded', fields } : undefined;
  }
  if (media === 'multipart/form-data' && params.length > 0) {
    const parts = params.map((p): FormPart =>
      p.fileName !== undefined
        ? { name: text(p.name), file: text(p.fileName), ...(stringOf(p.contentType) ? { contentType: text(p.contentType) } : {}) }
        : { name: text(p.name), value: text(p.value) },
    );
    return { kind: 'multipart', parts };
  }
  if (body === undefined || body === '') return undefined;
  return { kind: 'raw', text: body, ...(mime !== '' ? { contentType: mime } : {}) };
}

/** HAR tools write form params encoded or not; a value that is no valid encoding is taken as written. */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
