// The local sandbox of the service: one node:http origin serving {auth_url}, {base_url} and
// {legacy_base_url}, with limits, lockout, expiry, persistence, faults and an admin API.
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { AUTH_VERSION_B, DEFAULT_VIEW, ORG_VERSION_B } from '../core/constants';
import { errorMessage } from '../core/errors';
import { ADMIN_PREFIX, handleAdmin } from './admin';
import { parseConfig } from './config';
import type { SandboxContext } from './context';
import { type Fixtures, NO_FIXTURES, loadFixtures } from './data';
import { DEFAULT_CONFIG, DEFAULT_HOST } from './defaults';
import { BoundedCache } from './cache';
import { FaultSet, type Fault } from './faults';
import { ErrorAnswer, sendJson, setNoteCode, trackNote } from './http';
import { handleIpLookup, handleToken } from './interfaceA';
import { handleAuthentication, handleOrganizations } from './interfaceB';
import { SandboxStore } from './store';

export interface SandboxOptions {
  /** Interface to bind; 127.0.0.1 unless told otherwise. */
  readonly host?: string;
  /** Port to listen on; 0 (the default here) picks a free one. */
  readonly port?: number;
  /** A SandboxConfig, or any parsed JSON: it is validated here, errors name the path. DEFAULT_CONFIG when absent. */
  readonly config?: unknown;
  /** JSON file where accounts, lockouts, usage and tokens survive a restart. */
  readonly statePath?: string;
  /** Admin API key; else the config's adminKey; else random per start. */
  readonly adminKey?: string;
  /** Folder with ip/<ip>.json and org/<name-slug>.json responses. */
  readonly fixturesDir?: string;
  /** One line per request (and rare operational messages); never a secret. Silent when absent. */
  readonly log?: (line: string) => void;
}

export interface RunningSandbox {
  /** http://HOST:PORT, no trailing slash. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly adminKey: string;
  /** Stops listening, drops open connections, clears timers and saves state. Safe to call twice. */
  close(): Promise<void>;
}

const NOT_FOUND_HELP =
  `Endpoints: POST /v1/token, GET /v1/duns-search/ip/{ip}?view=${DEFAULT_VIEW}, POST /Authentication/${AUTH_VERSION_B}/, GET /${ORG_VERSION_B}/organizations, and the admin API under /_sandbox/.`;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const config = parseConfig(options.config ?? DEFAULT_CONFIG);
  const log = options.log ?? ((): void => undefined);
  const adminKey = options.adminKey ?? config.adminKey ?? randomBytes(18).toString('base64url');
  const fixtures: Fixtures = options.fixturesDir === undefined ? NO_FIXTURES : await loadFixtures(options.fixturesDir);
  const store = await SandboxStore.create(config, options.statePath, log);
  const timers = new Map<NodeJS.Timeout, () => void>();
  const idPrefix = randomBytes(4).toString('hex');
  let counter = 0;
  let closing = false;

  const ctx: SandboxContext = {
    store,
    faults: new FaultSet(),
    fixtures,
    bodies: new BoundedCache<string, string>(1000),
    adminKey,
    nextTransactionId: () => `sbx-${idPrefix}-${(counter += 1)}`,
    delay: (ms) => new Promise<void>((resolve) => {
      if (closing) return resolve();
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.set(t, resolve);
    }),
  };

  const server: Server = createServer((req, res) => {
    const path = pathOf(req.url);
    if (options.log !== undefined) {
      // Only a sandbox with a log pays for timing and formatting the line.
      const started = performance.now();
      const note = trackNote(res);
      res.once('close', () => {
        const status = res.writableFinished ? String(res.statusCode) : 'aborted';
        log(`${new Date().toISOString()} ${req.method ?? '-'} ${logPath(path)} ${status} ${note.code ?? '-'} ${(performance.now() - started).toFixed(1)}ms`);
      });
    }
    route(ctx, req, res, path).catch((err: unknown) => {
      if (err instanceof ErrorAnswer) {
        if (!res.headersSent) sendJson(res, err.status, err.body, { code: err.code, headers: err.headers });
        return;
      }
      // Not expected: every bad input is an ErrorAnswer. Still answer in JSON rather than hang up.
      log(`sandbox: unexpected error on ${req.method ?? '-'} ${logPath(path)}: ${errorMessage(err)}`);
      if (!res.headersSent) {
        sendJson(res, 500, { error: { errorCode: 'internal_error', errorMessage: 'The sandbox failed unexpectedly; see its log.' } }, { code: 'internal_error' });
      } else {
        res.destroy();
      }
    });
  });
  // A client that keeps connections open must not keep a closing sandbox alive.
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  const host = options.host ?? DEFAULT_HOST;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    host,
    port,
    adminKey,
    close(): Promise<void> {
      closed ??= (async () => {
        closing = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const s of sockets) s.destroy();
        for (const [t, resolve] of timers) {
          clearTimeout(t);
          resolve();
        }
        timers.clear();
        await stopped;
        await store.close();
      })();
      return closed;
    },
  };
}

function pathOf(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q < 0 ? u : u.slice(0, q);
}

/** The path as logged: no query string (it may carry anything), no control characters, bounded. */
function logPath(path: string): string {
  const clean = Array.from(path, (ch) => (ch <= ' ' || ch === '\x7f' ? '?' : ch)).join('');
  return clean.length > 200 ? `${clean.slice(0, 200)}...` : clean;
}

function queryOf(url: string | undefined): URLSearchParams {
  const u = url ?? '';
  const q = u.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : u.slice(q + 1));
}

function notFound(path: string): ErrorAnswer {
  return new ErrorAnswer(404, { error: { errorCode: 'not_found', errorMessage: `No endpoint at ${logPath(path).slice(0, 100)}. ${NOT_FOUND_HELP}` } }, 'not_found');
}

function requireMethod(req: IncomingMessage, method: 'GET' | 'POST'): void {
  if (req.method !== method) {
    throw new ErrorAnswer(405, { error: { errorCode: 'method_not_allowed', errorMessage: `Use ${method} on this endpoint.` } }, 'method_not_allowed', { allow: method });
  }
}

const IP_PREFIX = '/v1/duns-search/ip/';
const AUTH_PATH = /^\/Authentication(?:\/([^/]*))?\/?$/;
const ORG_PATH = /^\/([^/]+)\/organizations\/?$/;

async function route(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (path.startsWith(ADMIN_PREFIX)) return handleAdmin(ctx, req, res, path);
  ctx.store.noteRequest();
  const fault = ctx.faults.take(path);
  if (fault !== undefined) {
    if (fault.type !== 'latency') return applyFault(fault, req, res);
    await ctx.delay(fault.latencyMs ?? 0);
  }
  if (path === '/v1/token') {
    requireMethod(req, 'POST');
    return handleToken(ctx, req, res);
  }
  if (path.startsWith(IP_PREFIX)) {
    const ip = path.slice(IP_PREFIX.length);
    if (ip === '' || ip.includes('/')) throw notFound(path);
    requireMethod(req, 'GET');
    return handleIpLookup(ctx, req, res, ip, queryOf(req.url));
  }
  const auth = AUTH_PATH.exec(path);
  if (auth !== null) {
    requireMethod(req, 'POST');
    return handleAuthentication(ctx, req, res, auth[1]);
  }
  const org = ORG_PATH.exec(path);
  if (org !== null && org[1] === ORG_VERSION_B) {
    requireMethod(req, 'GET');
    return handleOrganizations(ctx, req, res, queryOf(req.url));
  }
  throw notFound(path);
}

const FAULT_BODY = Buffer.from(JSON.stringify({ sandbox: true, fault: 'injected', detail: 'This body was cut short on purpose.' }));

/** Answers with the injected failure instead of handling the request. */
function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse): void {
  const code = `fault:${fault.type}`;
  setNoteCode(res, code);
  switch (fault.type) {
    case 'reset':
      req.socket.destroy();
      return;
    case 'status':
      sendJson(res, fault.status ?? 500, { error: { errorCode: 'sandbox_fault', errorMessage: `Injected fault: HTTP ${fault.status ?? 500}.` } }, {
        code,
      });
      return;
    case 'malformed-json': {
      const body = FAULT_BODY.subarray(0, Math.floor(FAULT_BODY.length / 2));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
      return;
    }
    case 'truncated-gzip': {
      const zipped = gzipSync(FAULT_BODY);
      const body = zipped.subarray(0, Math.floor(zipped.length / 2));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
      return;
    }
    case 'latency':
      return;
  }
}
