// The sandbox's answers and the small HTTP helpers its handlers share. Handlers return an Answer
// (or throw an ErrorAnswer) instead of writing to the response, so the server can hold every answer
// until the state it depends on is on disk, and stamp it (Date, Vary) in one place.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** What one request gets back. */
export interface Answer {
  readonly status: number;
  /** Sent as is: serialized JSON, text, or bytes. */
  readonly body: string | Buffer;
  /** Extra or overriding headers; `content-type` defaults to JSON. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Result code for the access log and nothing else. */
  readonly code?: string;
  /** Compress with gzip (only set when the request accepts it). */
  readonly gzip?: boolean;
  /** A data-call answer: it could have been compressed, so caches must key on Accept-Encoding. */
  vary?: boolean;
  /** Close the connection after this answer and read nothing more of the request. */
  readonly close?: boolean;
  /** Send only `headers` (plus Date unless given, and the framing): no default content-type. */
  readonly exact?: boolean;
}

export function jsonAnswer(status: number, value: unknown, extra: Omit<Answer, 'status' | 'body'> = {}): Answer {
  return { status, body: JSON.stringify(value), ...extra };
}

/** A refusal to turn into an answer; `body` is the JSON to send. */
export class ErrorAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly code: string,
    readonly headers?: Readonly<Record<string, string>>,
    /** See Answer.close. */
    readonly close = false,
  ) {
    super(code);
  }

  answer(): Answer {
    return { status: this.status, body: JSON.stringify(this.body), code: this.code, headers: this.headers, close: this.close };
  }
}

/**
 * The HTTP Date of the sandbox's virtual clock, formatted at most once per second; undefined while
 * the clock has not been moved, when Node's own Date header says the same for less work.
 */
export class DateHeader {
  private second = Number.NaN;
  private text = '';

  constructor(private readonly offsetMs: () => number) {}

  value(): string | undefined {
    const offset = this.offsetMs();
    if (offset === 0) return undefined;
    const ms = Date.now() + offset;
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      this.second = second;
      this.text = new Date(ms).toUTCString();
    }
    return this.text;
  }
}

/** Writes an answer. `date` is the virtual clock's (Node's own when undefined); gzip runs off the event loop. */
export function send(res: ServerResponse, answer: Answer, date: string | undefined): void {
  const headers: OutgoingHttpHeaders = answer.exact === true ? { ...answer.headers } : { 'content-type': JSON_TYPE, ...answer.headers };
  if (date !== undefined && headers.date === undefined) headers.date = date;
  if (answer.vary === true) headers.vary = 'Accept-Encoding';
  if (answer.close === true) headers.connection = 'close';
  const data = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  if (answer.gzip !== true) return finish(res, answer.status, headers, data);
  gzip(data, (err, zipped) => {
    if (res.destroyed) return;
    if (err !== null) return finish(res, answer.status, headers, data);
    headers['content-encoding'] = 'gzip';
    finish(res, answer.status, headers, zipped);
  });
}

function finish(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, data: Buffer): void {
  headers['content-length'] = data.length;
  res.writeHead(status, headers);
  res.end(data);
}

export function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (header === undefined) return false;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** The largest request body the service endpoints and the admin API read. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a request body up to `limit` bytes. A larger one (declared or sent) is refused without
 * reading the rest: the refusal closes the connection, so a 300 MiB upload costs 64 KiB.
 */
export function readBody(req: IncomingMessage, limit: number, tooLarge: () => ErrorAnswer): Promise<Buffer> {
  const refuse = (): ErrorAnswer => {
    const e = tooLarge();
    return new ErrorAnswer(e.status, e.body, e.code, e.headers, true);
  };
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(refuse());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.pause();
      reject(refuse());
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A request body read as JSON: the value, or what is wrong with it. */
export function parseJson(body: Buffer): { value?: unknown; problem?: string } {
  if (body.length === 0) return { problem: 'The request body is empty; send a JSON object.' };
  try {
    return { value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { problem: 'The request body is not valid JSON.' };
  }
}

/** The JSON body of a request, or an ErrorAnswer built by `invalid` with a clear message. */
export async function readJson(req: IncomingMessage, invalid: (message: string, status?: number) => ErrorAnswer): Promise<unknown> {
  const body = parseJson(await readBody(req, MAX_BODY_BYTES, () => invalid('The request body is larger than 64 KiB.', 413)));
  if (body.problem !== undefined) throw invalid(body.problem);
  return body.value;
}

export function isJsonContentType(req: IncomingMessage): boolean {
  const ct = req.headers['content-type'];
  return ct !== undefined && ct.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

export function headerText(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Headers that frame the message on the wire; the sandbox sets them itself. */
const FRAMING = ['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer', 'te'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers given by a user (a respond fault, a fixtures route), checked: names that are HTTP tokens,
 * string or number values without line breaks, no framing headers. Names come back in lower case.
 * Returns the problem as text (the caller says where it is) or the headers.
 */
export function checkHeaders(v: unknown): string | Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object of header names and values, e.g. {"Retry-After": "2"}';
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    const shown = name.slice(0, 60);
    if (!TOKEN.test(name)) return `"${shown}" is not a valid header name`;
    if (FRAMING.includes(name.toLowerCase())) return `"${shown}" is set by the sandbox and cannot be given`;
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) return `the value of "${shown}" must be a string or a number`;
    const text = String(value);
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(text)) return `the value of "${shown}" must not contain line breaks or control characters`;
    if (name.toLowerCase() in out) return `"${shown}" is given twice`;
    out[name.toLowerCase()] = text;
  }
  return out;
}

/**
 * An answer with exactly these headers and this body: bytes and strings as they are (a string as
 * text/plain unless a content-type is given), any other JSON value as JSON, nothing for undefined.
 */
export function exactAnswer(status: number, given: Readonly<Record<string, string>> | undefined, body: unknown, code: string): Answer {
  const headers: Record<string, string> = { ...given };
  let data: string | Buffer = '';
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    data = body;
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else if (body !== undefined) {
    data = JSON.stringify(body);
    headers['content-type'] ??= JSON_TYPE;
  }
  return { status, body: data, headers, code, exact: true };
}

/** The path of a request URL, without the query string. */
export function pathOf(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q < 0 ? u : u.slice(0, q);
}

/** The members of a JSON object without its braces, for splicing into a larger object. */
export function jsonMembers(value: unknown): string {
  return JSON.stringify(value).slice(1, -1);
}
