// Plain node:http listeners of a test's own, on a loopback address and port it chooses (for example
// [::1] on the sandbox's port, or 127.0.0.1 on another one): each records every request that reaches
// it, and either answers `{}` itself or hands the request on to a target (a sandbox), as another
// program on the same machine could.
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface Listener {
  /** http://host:port as bound. */
  readonly url: string;
  readonly port: number;
  /** Every request that reached it, in order. */
  readonly received: Received[];
  close(): Promise<void>;
}

/** The headers the client carries credentials in: a token (Bearer for A, raw for B), A's Basic key:secret, B's user and password. */
export const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'x-svc-user', 'x-svc-pwd'] as const;

/** The requests that carried a credential header, or any of `secrets` anywhere in their path, headers or body. */
export function withCredentials(received: readonly Received[], secrets: readonly string[] = []): Received[] {
  return received.filter((r) => {
    if (CREDENTIAL_HEADERS.some((h) => r.headers[h] !== undefined)) return true;
    const text = `${r.path}\n${JSON.stringify(r.headers)}\n${r.body}`;
    return secrets.some((s) => text.includes(s));
  });
}

/** Listens on `host` (`127.0.0.1` or `::1`) at `port` (0: a free one); `forwardTo` (http://host:port) gets every request handed on. */
export async function startListener(host: '127.0.0.1' | '::1', port = 0, forwardTo?: string): Promise<Listener> {
  const received: Received[] = [];
  const to = forwardTo === undefined ? undefined : new URL(forwardTo);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
      if (!to) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const upstream = httpRequest({ host: to.hostname.replace(/^\[|\]$/g, ''), port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
