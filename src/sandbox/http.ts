// Small HTTP helpers shared by the sandbox handlers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';

/** What one request leaves for the access log (never a header value or a body). */
export interface RequestNote {
  code?: string;
}

const NOTE = Symbol('sandboxNote');
type Noted = ServerResponse & { [NOTE]?: RequestNote };

/** Starts collecting what the access log needs for this response; only done when logging. */
export function trackNote(res: ServerResponse): RequestNote {
  const note: RequestNote = {};
  (res as Noted)[NOTE] = note;
  return note;
}

/** Records the result code for the access log, if this response is being logged. */
export function setNoteCode(res: ServerResponse, code: string): void {
  const note = (res as Noted)[NOTE];
  if (note !== undefined) note.code = code;
}

/** A failure to turn into a 4xx answer; `body` is the JSON to send. */
export class ErrorAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly code: string,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(code);
  }
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

export interface SendOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly gzip?: boolean;
  readonly code?: string;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, options: SendOptions = {}): void {
  sendJsonText(res, status, JSON.stringify(body), options);
}

/** Sends an already serialized JSON body (the hot path splices cached parts into one string). */
export function sendJsonText(res: ServerResponse, status: number, json: string, options: SendOptions = {}): void {
  if (options.code !== undefined) setNoteCode(res, options.code);
  const data = Buffer.from(json);
  const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', ...options.headers };
  if (options.gzip !== true) {
    headers['content-length'] = data.length;
    res.writeHead(status, headers);
    res.end(data);
    return;
  }
  gzip(data, (err, zipped) => {
    if (res.destroyed) return;
    if (err !== null) {
      headers['content-length'] = data.length;
      res.writeHead(status, headers);
      res.end(data);
      return;
    }
    headers['content-encoding'] = 'gzip';
    headers['content-length'] = zipped.length;
    headers.vary = 'Accept-Encoding';
    res.writeHead(status, headers);
    res.end(zipped);
  });
}

/** Reads a request body up to `limit` bytes; larger bodies are refused, not buffered. */
export function readBody(req: IncomingMessage, limit: number, tooLarge: () => ErrorAnswer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(tooLarge());
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The largest request body the service endpoints and the admin API read. */
export const MAX_BODY_BYTES = 64 * 1024;

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

/** The members of a JSON object without its braces, for splicing into a larger object. */
export function jsonMembers(value: unknown): string {
  return JSON.stringify(value).slice(1, -1);
}
