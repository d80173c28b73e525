// HTTP for both interfaces on one undici dispatcher: keep-alive connections, connect/header/body
// timeouts and an overall deadline per request, gzip decoding with a cap on the decoded size,
// optional extra CA and HTTP proxy. TLS verification is always on. Its failures are transportErrors.ts,
// the addresses it may be given serviceUrls.ts.
import { rootCertificates } from 'node:tls';
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import { bypassesProxy } from './noProxy';
import { OnTheWire } from './onTheWire';
import { checkProxyUrl } from './serviceUrls';
import { readCaFile } from './tlsFiles';
import { hostOf, toTransportError, TransportError } from './transportErrors';
import { Agent, proxyAgent, request, type Dispatcher } from './undici';

const gunzipAsync = promisify(gunzip);
/**
 * Compressed answers up to this size are inflated at once: a trip to the thread pool costs about
 * 100 µs of CPU, more than inflating a few kilobytes, and at thousands of lookups a second it was
 * a fifth of a batch's CPU. Larger ones go to the pool, so the event loop is never held long.
 */
export const INFLATE_INLINE_BYTES = 16 * 1024;
/**
 * Sockets per origin: a bound for safety only. The account's limiter decides how many calls are in
 * flight; with fewer sockets than that, calls it counts as in flight would wait here instead, and
 * their round trips (which size its concurrency) would include that wait.
 */
const MAX_CONNECTIONS = 128;

export interface HttpOptions {
  readonly connectTimeoutMs?: number;
  /** Longest pause between two parts of an answer (an idle timer). */
  readonly bodyTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  /** Longest a whole request may take, from sending to the last byte of the answer. */
  readonly requestTimeoutMs?: number;
  /** Cap on the response body after decoding; larger answers fail instead of filling memory. */
  readonly maxBodyBytes?: number;
  /** A 2xx answer to a `largeAsText` request larger than this stays unparsed text, for a host that parses it off its thread. */
  readonly maxParseBytes?: number;
  /** PEM file of an extra certificate authority (corporate TLS inspection), added to the built-in ones. */
  readonly caFile?: string;
  /** http(s)://host:port of an HTTP proxy: CONNECT tunnels for https targets, absolute URIs for http (loopback) ones. */
  readonly proxyUrl?: string;
  readonly keepAliveTimeoutMs?: number;
  /** Hosts reached directly although a proxy is set (VS Code's http.noProxy): `host`, `.domain`, `*.domain`, `host:port`, `*`. */
  readonly noProxy?: readonly string[];
  /** False: the certificate of an https:// proxy itself is not checked (VS Code's http.proxyStrictSSL). Never the service's. */
  readonly proxyStrictSSL?: boolean;
}

export interface WireRequest {
  readonly method: string;
  /** scheme://host[:port] */
  readonly origin: string;
  /** Path and query string. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
  /** Another operation's request: a large 2xx answer may come back as text (HttpOptions.maxParseBytes). */
  readonly largeAsText?: boolean;
}

export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  readonly json: unknown;
  /** The decoded body text when it was not JSON, else ''. */
  readonly text: string;
}

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export class HttpTransport {
  private readonly dispatcher: Dispatcher;
  /** Hosts matching http.noProxy go here, straight to the service. */
  private readonly direct: Dispatcher | undefined;
  private readonly noProxy: readonly string[];
  private readonly maxBodyBytes: number;
  private readonly maxParseBytes: number;
  private readonly requestTimeoutMs: number;
  private readonly onTheWire: OnTheWire;
  /** Named in connection errors: a refused connection may be the proxy's, not the service's. */
  private readonly via: string;

  constructor(options: HttpOptions = {}) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxParseBytes = options.maxParseBytes ?? Number.POSITIVE_INFINITY;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.onTheWire = new OnTheWire(this.requestTimeoutMs);
    // An extra CA is added to Node's built-in roots; passing `ca` alone would replace them.
    const ca = options.caFile ? [...rootCertificates, readCaFile(options.caFile)] : undefined;
    // rejectUnauthorized set explicitly: left out, Node would let an environment variable turn verification off.
    const connect = { timeout: options.connectTimeoutMs ?? 10_000, rejectUnauthorized: true, ...(ca ? { ca } : {}) };
    const common = {
      connect,
      headersTimeout: options.headersTimeoutMs ?? 30_000,
      bodyTimeout: options.bodyTimeoutMs ?? 30_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      connections: MAX_CONNECTIONS,
    };
    if (options.proxyUrl) {
      const proxyError = checkProxyUrl(options.proxyUrl);
      if (proxyError) throw new Error(proxyError);
      // Host only: a proxy URL may carry user:password.
      this.via = ` through the proxy ${new URL(options.proxyUrl).host}`;
      // The service's certificate is always verified; only an https proxy's own may be exempt (VS Code's http.proxyStrictSSL).
      const proxyTls = { ...connect, rejectUnauthorized: options.proxyStrictSSL !== false };
      this.dispatcher = proxyAgent({ ...common, uri: options.proxyUrl, requestTls: connect, proxyTls });
    } else {
      this.via = '';
      this.dispatcher = new Agent(common);
    }
    this.noProxy = options.proxyUrl ? (options.noProxy ?? []) : [];
    this.direct = this.noProxy.length > 0 ? new Agent(common) : undefined;
  }

  async send(req: WireRequest, signal?: AbortSignal): Promise<WireResponse> {
    // The connect, headers and body timers are idle timers: a server dripping one byte every few
    // seconds passes them all. The deadline bounds the whole request.
    const wire = this.onTheWire.start(signal);
    let raw: Buffer;
    let res: Dispatcher.ResponseData;
    try {
      const dispatcher = this.direct && bypassesProxy(req.origin, this.noProxy) ? this.direct : this.dispatcher;
      res = await request(dispatcher, { origin: req.origin, path: req.path, method: req.method, headers: req.headers, body: req.body, signal: wire });
      const declared = Number(headerValue(res.headers['content-length']));
      // Fast path: the size is declared and within the cap, so the body can be read in one go.
      raw =
        Number.isFinite(declared) && declared <= this.maxBodyBytes && declared > 0
          ? Buffer.from(await res.body.arrayBuffer())
          : await this.readCapped(res.body);
    } catch (err) {
      throw wire.cut === 'deadline' && !signal?.aborted
        ? new TransportError(`Could not complete the request to ${hostOf(req.origin)}${this.via}: no complete answer within the ${this.requestTimeoutMs / 1000} s request deadline.`, 'network', true, true)
        : toTransportError(err, req.origin + this.via, signal);
    } finally {
      this.onTheWire.done(wire, signal);
    }
    const encoding = headerValue(res.headers['content-encoding'])?.toLowerCase();
    if (encoding === 'gzip' || encoding === 'x-gzip') {
      try {
        const options = { maxOutputLength: this.maxBodyBytes };
        raw = raw.length <= INFLATE_INLINE_BYTES ? gunzipSync(raw, options) : await gunzipAsync(raw, options);
      } catch (err) {
        throw new TransportError(
          err instanceof RangeError
            ? `The response from ${hostOf(req.origin)} is larger than ${this.maxBodyBytes} bytes once decompressed; it was discarded.`
            : `The response from ${hostOf(req.origin)} claimed gzip encoding but could not be decompressed.`,
          'network',
        );
      }
    }
    const text = raw.toString('utf8');
    // Parsing 50 MB holds the thread for about half a second: an editor does it on a worker instead.
    const large = req.largeAsText === true && res.statusCode >= 200 && res.statusCode < 300 && raw.length > this.maxParseBytes;
    if (large) return { status: res.statusCode, headers: res.headers, json: undefined, text };
    let json: unknown;
    if (text.trim() !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: res.statusCode, headers: res.headers, json, text: json === undefined ? text : '' };
  }

  /** Closes every connection now, failing requests still in flight. */
  async destroy(): Promise<void> {
    this.onTheWire.dispose();
    await Promise.all([this.dispatcher.destroy(), this.direct?.destroy()]);
  }

  private async readCapped(body: Dispatcher.ResponseData['body']): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > this.maxBodyBytes) {
        body.destroy();
        throw new TransportError(`The response is larger than ${this.maxBodyBytes} bytes; it was discarded.`, 'network');
      }
      chunks.push(buf);
    }
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
  }
}

/** Response headers as one string each (a repeated header joined with ", "). */
export function flatHeaders(h: WireResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in h) {
    const v = h[k];
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
