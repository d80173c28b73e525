// HTTP for both interfaces on one undici dispatcher: keep-alive connections, connect/header/body
// timeouts, gzip decoding with a cap on the decoded size, optional extra CA and HTTP proxy.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Agent, ProxyAgent, request, type Dispatcher } from './undici';

const gunzipAsync = promisify(gunzip);

export interface HttpOptions {
  readonly connectTimeoutMs?: number;
  readonly bodyTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  /** Cap on the response body after decoding; larger answers fail instead of filling memory. */
  readonly maxBodyBytes?: number;
  /** PEM file of an extra certificate authority (corporate TLS inspection), added to the built-in ones. */
  readonly caFile?: string;
  /** http(s)://host:port of an HTTP proxy that tunnels the requests (CONNECT). */
  readonly proxyUrl?: string;
  readonly keepAliveTimeoutMs?: number;
}

export interface WireRequest {
  readonly method: string;
  /** scheme://host[:port] */
  readonly origin: string;
  /** Path and query string. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
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
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
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
    return `${label} "${value}" is not a URL. Give a full address such as https://api.example.com.`;
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
  private readonly maxBodyBytes: number;
  /** Named in connection errors: a refused connection may be the proxy's, not the service's. */
  private readonly via: string;

  constructor(options: HttpOptions = {}) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    // An extra CA is added to Node's built-in roots; passing `ca` alone would replace them.
    // rejectUnauthorized is never set: verification stays on.
    const ca = options.caFile ? [...rootCertificates, readFileSync(options.caFile, 'utf8')] : undefined;
    const connect = { timeout: options.connectTimeoutMs ?? 10_000, ...(ca ? { ca } : {}) };
    const common = {
      connect,
      headersTimeout: options.headersTimeoutMs ?? 30_000,
      bodyTimeout: options.bodyTimeoutMs ?? 30_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      connections: 16,
    };
    if (options.proxyUrl) {
      const proxyError = checkProxyUrl(options.proxyUrl);
      if (proxyError) throw new Error(proxyError);
      // Host only: a proxy URL may carry user:password.
      this.via = ` through the proxy ${new URL(options.proxyUrl).host}`;
      this.dispatcher = new ProxyAgent({ ...common, uri: options.proxyUrl, requestTls: connect, proxyTls: connect });
    } else {
      this.via = '';
      this.dispatcher = new Agent(common);
    }
  }

  async send(req: WireRequest, signal?: AbortSignal): Promise<WireResponse> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(this.dispatcher, {
        origin: req.origin,
        path: req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
      });
    } catch (err) {
      throw toTransportError(err, req.origin + this.via, signal);
    }
    let raw: Buffer;
    try {
      const declared = Number(headerValue(res.headers['content-length']));
      // Fast path: the size is declared and within the cap, so the body can be read in one go.
      raw =
        Number.isFinite(declared) && declared <= this.maxBodyBytes && declared > 0
          ? Buffer.from(await res.body.arrayBuffer())
          : await this.readCapped(res.body);
    } catch (err) {
      throw toTransportError(err, req.origin + this.via, signal);
    }
    const encoding = headerValue(res.headers['content-encoding'])?.toLowerCase();
    if (encoding === 'gzip' || encoding === 'x-gzip') {
      try {
        raw = await gunzipAsync(raw, { maxOutputLength: this.maxBodyBytes });
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
  destroy(): Promise<void> {
    return this.dispatcher.destroy();
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
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function checkProxyUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `The proxy URL must start with http:// or https://.`;
    return undefined;
  } catch {
    return `The proxy URL "${value}" is not a URL; give it as http://host:port.`;
  }
}

function toTransportError(err: unknown, origin: string, signal: AbortSignal | undefined): TransportError {
  if (err instanceof TransportError) return err;
  if (signal?.aborted) return new TransportError('The call was cancelled.', 'cancelled');
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const reached = !NOT_CONNECTED.has(code ?? '');
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
  return new TransportError(`Could not complete the request to ${hostOf(origin)}: ${reason}${code ? ` (${code})` : ''}.`, 'network', reached);
}

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
