// HTTP for both interfaces on one undici dispatcher: keep-alive connections, connect/header/body
// timeouts and an overall deadline per request, gzip decoding with a cap on the decoded size,
// optional extra CA and HTTP proxy. TLS verification is always on.
import { rootCertificates } from 'node:tls';
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import { bypassesProxy } from './noProxy';
import { OnTheWire } from './onTheWire';
import { readCaFile } from './tlsFiles';
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

/** A transport failure: nothing usable came back. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly kind: 'network' | 'cancelled',
    /** False when the request surely never reached the service (no connection was made). */
    readonly mayHaveReached = true,
    /** A reset, refused connection or timeout: the same idempotent request may succeed when sent again. */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a URL may not be used, or undefined when it may. Plain http is allowed only to loopback hosts
 * (the local sandbox): anywhere else it would send credentials and tokens in clear text.
 */
export function checkServiceUrl(label: string, value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${label} "${withoutUserInfo(value)}" is not a URL. Give a full address such as https://api.example.com.`;
  }
  if (url.username !== '' || url.password !== '') {
    // Never echoed: the part before @ is a user name and password.
    return `${label} contains a user name or password before the host (user:password@). Remove them: credentials are given separately, never in a service address.`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname)) return undefined;
    return `${label} uses plain http:// to ${url.hostname}; credentials and tokens would travel unencrypted. Use https:// (plain http is allowed only for 127.0.0.1, ::1 and localhost).`;
  }
  return `${label} must start with https:// (or http:// for a local sandbox), not ${url.protocol}//.`;
}

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

function hostOf(origin: string): string {
  return origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
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

/** Why a proxy URL cannot be used, or undefined. A user:password@ part is allowed (proxy sign-in) but never echoed. */
export function checkProxyUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `The proxy URL must start with http:// or https://, not ${u.protocol}//.`;
    return undefined;
  } catch {
    return `The proxy URL "${withoutUserInfo(value)}" is not a URL; give it as http://host:port.`;
  }
}

/** A URL-like text with anything between "//" and "@" hidden, for messages. */
export function withoutUserInfo(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1<redacted>@');
}

function toTransportError(err: unknown, origin: string, signal: AbortSignal | undefined): TransportError {
  if (err instanceof TransportError) return err;
  if (signal?.aborted) return new TransportError('The call was cancelled.', 'cancelled');
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const reached = !NOT_CONNECTED.has(code ?? '');
  const retryable = RETRYABLE.has(code ?? '');
  const reason =
    {
      UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
      UND_ERR_HEADERS_TIMEOUT: 'the service did not answer in time',
      UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving (body timeout)',
      UND_ERR_SOCKET: 'the connection was closed unexpectedly',
      ECONNREFUSED: 'the connection was refused',
      ENOTFOUND: 'the host name could not be resolved',
      ECONNRESET: 'the connection was reset',
      UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate could not be verified (configure the corporate CA file)',
      SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain has an untrusted certificate (configure the corporate CA file)',
      DEPTH_ZERO_SELF_SIGNED_CERT: 'it presented a self-signed TLS certificate',
      CERT_HAS_EXPIRED: 'its TLS certificate has expired',
      ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate does not match the host name',
    }[code ?? ''] ?? (e.message ?? String(err));
  return new TransportError(`Could not complete the request to ${hostOf(origin)}: ${reason}${code ? ` (${code})` : ''}.`, 'network', reached, retryable);
}

/** Failures after which the same idempotent request may well succeed: resets, refusals, timeouts. */
const RETRYABLE: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
]);

/** Errors raised before a request could be sent: the service never saw it. */
const NOT_CONNECTED: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
