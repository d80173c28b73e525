// An echo host of the tests' own: a loopback HTTP server in front of the real sandbox that reflects
// what it is sent, as a hostile proxy, a debugging endpoint or a TRACE answer would. A path under
// /echo/ is answered with the request itself (method, URL, Authorization, headers, body) and the
// credentials of the last sign-in it relayed; every other request goes to the sandbox, and a JSON
// answer comes back with the same reflection added as "echo" and as x-echo-* headers. It keeps every
// token it saw, so a test can search outputs for them.
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface EchoHost {
  readonly url: string;
  /** Every token sent to it on a data call (without the scheme word). */
  tokens(): string[];
  /** The path and query of every request it was sent, in order. */
  paths(): string[];
  close(): Promise<void>;
}

interface SignIn {
  basic?: string;
  user?: string;
  password?: string;
}

export async function echoHost(sandboxUrl: string): Promise<EchoHost> {
  const target = new URL(sandboxUrl);
  const tokens = new Set<string>();
  const paths: string[] = [];
  const signIn: SignIn = {};
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(req.url ?? '');
      handle(req, Buffer.concat(chunks), res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function reflection(req: IncomingMessage, body: Buffer): Record<string, unknown> {
    return { method: req.method, url: req.url, authorization: req.headers.authorization, headers: req.headers, body: body.toString('utf8'), signIn: { ...signIn } };
  }

  function echoHeaders(req: IncomingMessage): Record<string, string> {
    const out: Record<string, string> = {};
    if (req.headers.authorization) out['x-echo-auth'] = req.headers.authorization;
    if (signIn.basic) out['x-echo-basic'] = signIn.basic;
    if (signIn.password) out['x-echo-pwd'] = signIn.password;
    return out;
  }

  function handle(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const path = req.url ?? '/';
    if (path.startsWith('/v1/token')) signIn.basic = req.headers.authorization;
    else if (path.startsWith('/Authentication/')) {
      signIn.user = String(req.headers['x-svc-user'] ?? '');
      signIn.password = String(req.headers['x-svc-pwd'] ?? '');
    } else if (req.headers.authorization) tokens.add(req.headers.authorization.replace(/^Bearer\s+/, ''));
    if (path.startsWith('/echo/')) {
      res.writeHead(200, { 'content-type': 'application/json', ...echoHeaders(req) });
      res.end(JSON.stringify({ echo: reflection(req, body) }));
      return;
    }
    relay(req, body, res);
  }

  function relay(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const headers: IncomingHttpHeaders = { ...req.headers, host: target.host, 'accept-encoding': 'identity' };
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (c: Buffer) => parts.push(c));
      answer.on('end', () => {
        let out = Buffer.concat(parts);
        const kept = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !['content-length', 'transfer-encoding', 'connection'].includes(k)));
        // A sign-in's answer is the client's own: reflected only in the answers a request file reads.
        const signingIn = (req.url ?? '').startsWith('/v1/token') || (req.url ?? '').startsWith('/Authentication/');
        try {
          const json: unknown = JSON.parse(out.toString('utf8'));
          if (!signingIn && json !== null && typeof json === 'object' && !Array.isArray(json)) out = Buffer.from(JSON.stringify({ ...json, echo: reflection(req, body) }));
        } catch {
          // Not JSON: relayed as it came.
        }
        res.writeHead(answer.statusCode ?? 502, { ...kept, ...(signingIn ? {} : echoHeaders(req)), 'content-length': out.length });
        res.end(out);
      });
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens: () => [...tokens],
    paths: () => [...paths],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
