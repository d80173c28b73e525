// Real network components for the client's tests: Debian's tinyproxy as the HTTP proxy (installed
// when missing, as the CI user is root), and an HTTPS front with a self-signed certificate that
// passes requests on to a sandbox.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createHttpServer, request as httpRequest, type ServerResponse } from 'node:http';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const TLS_DIR = resolve(__dirname, '../../../../test/fixtures/tls');
export const TLS_CERT = join(TLS_DIR, 'localhost-cert.pem');
const TLS_KEY = join(TLS_DIR, 'localhost-key.pem');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function findTinyproxy(): string | undefined {
  return ['/usr/bin/tinyproxy', '/usr/sbin/tinyproxy', '/usr/local/bin/tinyproxy'].find((p) => existsSync(p));
}

/** tinyproxy's path, installing the Debian package first when it is missing and we may. */
function ensureTinyproxy(): string {
  const found = findTinyproxy();
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error('tinyproxy is not installed; run "apt-get install -y tinyproxy" (as root) for the proxy tests.');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', 'tinyproxy'], { stdio: 'ignore', env });
  } catch {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'tinyproxy'], { stdio: 'ignore', env });
  }
  const installed = findTinyproxy();
  if (!installed) throw new Error('apt-get installed tinyproxy, but its binary was not found.');
  return installed;
}

async function waitForPort(port: number, exited: () => boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (exited()) throw new Error('tinyproxy exited at start.');
    const open = await new Promise<boolean>((r) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        r(true);
      });
      s.on('error', () => r(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`tinyproxy did not listen on port ${port}.`);
}

export interface Proxy {
  readonly url: string;
  /** The request lines tinyproxy logged ("GET http://…", "CONNECT host:port"). */
  requests(): Promise<string[]>;
  close(): Promise<void>;
}

/** tinyproxy on a free loopback port with a throwaway config; stopped by its pid. */
export async function startTinyproxy(): Promise<Proxy> {
  const binary = ensureTinyproxy();
  const dir = await mkdtemp(join(tmpdir(), 'bizdata-tinyproxy-'));
  const port = await freePort();
  const log = join(dir, 'tinyproxy.log');
  // No ConnectPort line: CONNECT is allowed to any port (the test servers' ports are random).
  await writeFile(join(dir, 'tinyproxy.conf'), [`Port ${port}`, 'Listen 127.0.0.1', 'Timeout 30', 'LogLevel Connect', `LogFile "${log}"`, 'MaxClients 50', 'Allow 127.0.0.1', 'DisableViaHeader Yes', ''].join('\n'));
  const child = spawn(binary, ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: 'ignore' });
  let exited = false;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  void gone.then(() => (exited = true));
  await waitForPort(port, () => exited);
  return {
    url: `http://127.0.0.1:${port}`,
    requests: async () => {
      const text = await readFile(log, 'utf8').catch(() => '');
      return [...text.matchAll(/Request \(file descriptor \d+\): (\S+ \S+)/g)].map((m) => m[1]);
    },
    close: async () => {
      if (!exited && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
      await gone;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface HttpsFront {
  readonly url: string;
  close(): Promise<void>;
}

/** An HTTPS server with the self-signed test certificate that hands every request to `target` (a sandbox). */
export async function startHttpsFront(target: string): Promise<HttpsFront> {
  const [key, cert] = await Promise.all([readFile(TLS_KEY), readFile(TLS_CERT)]);
  const to = new URL(target);
  const server = createHttpsServer({ key, cert }, (req, res) => {
    const upstream = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface DripServer {
  readonly url: string;
  /** Data calls that reached it. */
  readonly dataCalls: () => number;
  close(): Promise<void>;
}

/**
 * A hostile service: signs in at once, then answers every data call with a body that arrives one
 * byte every `everyMs` and never ends, so no idle timer ever fires.
 */
export function startDripServer(everyMs = 300): Promise<DripServer> {
  const timers = new Set<NodeJS.Timeout>();
  return startHostileServer((res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), everyMs);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  }, () => timers.forEach((t) => clearInterval(t)));
}

/** A service that signs every Interface A client in at once and answers data calls with `answer`. */
export async function startHostileServer(answer: (res: ServerResponse) => void, onClose: () => void = () => undefined): Promise<DripServer> {
  let dataCalls = 0;
  const server = createHttpServer((req, res) => {
    if (req.method === 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'hostile-token-0123456789', expiresIn: 86400 }));
      return;
    }
    dataCalls++;
    answer(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dataCalls: () => dataCalls,
    close: () =>
      new Promise<void>((r) => {
        onClose();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
