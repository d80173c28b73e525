// A transport failure and how undici's and Node's errors become one: a plain message naming the
// host, whether the request may have reached the service, and whether sending it again may succeed.

/** A transport failure: nothing usable came back. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly kind: 'network' | 'cancelled',
    /** False when the request surely never reached the service (no connection was made). */
    readonly mayHaveReached = true,
    /** A reset, refused connection or timeout: the same idempotent request may succeed when sent again. */
    readonly retryable = false,
    /** Nothing answers at the address (a refused connection, a host name that does not resolve): every call to it would fail the same. */
    readonly unreachable = false,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** The host (and port) of an origin, for messages. */
export function hostOf(origin: string): string {
  return origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
}

/** undici's or Node's error as a TransportError; `origin` is named in its message (with the proxy, when one is used). */
export function toTransportError(err: unknown, origin: string, signal: AbortSignal | undefined): TransportError {
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
  const unreachable = UNREACHABLE.has(code ?? '');
  const nothingThere = unreachable ? `: nothing ${code === 'ENOTFOUND' ? 'is known by that name' : 'is listening there'}` : '';
  const message = `Could not complete the request to ${hostOf(origin)}: ${reason}${code ? ` (${code})` : ''}${nothingThere}.`;
  return new TransportError(message, 'network', reached, retryable, unreachable);
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

/** Nothing answers at the address: no program listens on the port, or the host name is unknown. */
const UNREACHABLE: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND']);

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
