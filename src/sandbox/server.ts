// The local sandbox of the service: one node:http origin serving {auth_url}, {base_url} and
// {legacy_base_url}, with limits, lockout, expiry, persistence, faults and an admin API.
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { errorMessage } from '../core/errors';
import { parseConfig, SandboxSetupError } from './config';
import type { SandboxContext } from './context';
import { type Fixtures, NO_FIXTURES, loadFixtures } from './fixtures';
import { DEFAULT_CONFIG, DEFAULT_HOST } from './defaults';
import { BoundedCache } from './cache';
import { FaultSet } from './faults';
import { type Answer, DateHeader, ErrorAnswer, jsonAnswer, pathOf, send } from './http';
import { logPath, route } from './router';
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
  /** Connection limits; SERVER_LIMITS where absent. */
  readonly limits?: Partial<ServerLimits>;
  /**
   * scrypt's cost (N, a power of two) for the passwords and secrets of the config, HASH_COST where
   * absent. A lower one starts a throwaway sandbox (one per test) sooner and makes each wrong secret
   * cheaper; nothing else changes. The state file's key hashes keep HASH_COST, so it reads the same.
   */
  readonly hashCost?: number;
}

/** How long a connection may take and how many may be open, so slow or idle clients cannot pile up. */
export interface ServerLimits {
  /** From connecting to the end of the request headers. */
  readonly headersTimeoutMs: number;
  /** From connecting to the end of the request body. */
  readonly requestTimeoutMs: number;
  /** An idle kept-alive connection between requests. */
  readonly keepAliveTimeoutMs: number;
  /** No data either way (e.g. a client that stops reading an answer); longer than any injected delay. */
  readonly idleTimeoutMs: number;
  /** Open connections; more are closed as they arrive. */
  readonly maxConnections: number;
}

export const SERVER_LIMITS: ServerLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 300_000,
  maxConnections: 1_000,
});

export interface RunningSandbox {
  /** http://HOST:PORT, no trailing slash. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly adminKey: string;
  /** Stops listening, drops open connections, clears timers and saves state. Safe to call twice. */
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const config = parseConfig(options.config ?? DEFAULT_CONFIG);
  const cost = options.hashCost;
  if (cost !== undefined && !(Number.isInteger(cost) && cost >= 2 && cost <= 1_048_576 && (cost & (cost - 1)) === 0)) {
    throw new SandboxSetupError(`The sandbox's hashCost must be a power of two from 2 to 1048576 (scrypt's N); got ${String(cost)}.`);
  }
  const log = options.log ?? ((): void => undefined);
  const adminKey = options.adminKey ?? config.adminKey ?? randomBytes(18).toString('base64url');
  const fixtures: Fixtures = options.fixturesDir === undefined ? NO_FIXTURES : await loadFixtures(options.fixturesDir);
  const store = await SandboxStore.create(config, options.statePath, log, options.hashCost);
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
    date: new DateHeader(() => store.clockOffsetSeconds * 1000),
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

  /** Sends an answer once what it depends on (a lock, a count, a token) is on disk; success or refusal alike. */
  const deliver = (res: ServerResponse, a: Answer | undefined, noted: (code: string) => void): void => {
    const saving = store.durable();
    if (saving === undefined) return write(res, a, noted);
    saving.then(() => write(res, a, noted), (err: unknown) => {
      log(`sandbox: ${errorMessage(err)}`);
      const message = `${errorMessage(err)}. The answer is withheld because it could not be made durable; see the sandbox's log.`;
      write(res, jsonAnswer(500, { error: { errorCode: 'state_not_saved', errorMessage: message } }, { code: 'state_not_saved' }), noted);
    });
  };

  const write = (res: ServerResponse, a: Answer | undefined, noted: (code: string) => void): void => {
    // Only a reset fault leaves no answer: it has dropped the connection already.
    noted(a?.code ?? 'fault:reset');
    if (a === undefined || res.headersSent || res.destroyed) return;
    send(res, a, ctx.date.value());
  };

  const unexpected = (err: unknown, req: IncomingMessage, path: string): Answer => {
    if (err instanceof ErrorAnswer) return err.answer();
    // Not expected: every bad input is an ErrorAnswer. Still answer in JSON rather than hang up.
    log(`sandbox: unexpected error on ${req.method ?? '-'} ${logPath(path)}: ${errorMessage(err)}`);
    return jsonAnswer(500, { error: { errorCode: 'internal_error', errorMessage: 'The sandbox failed unexpectedly; see its log.' } }, { code: 'internal_error' });
  };

  const limits: ServerLimits = { ...SERVER_LIMITS, ...options.limits };
  const server: Server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often Node looks for connections past the first two timeouts (its default is 30 s).
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
  }, (req, res) => {
    const path = pathOf(req.url);
    let code: string | undefined;
    if (options.log !== undefined) {
      // Only a sandbox with a log pays for timing and formatting the line.
      const started = performance.now();
      res.once('close', () => {
        const status = res.writableFinished ? String(res.statusCode) : 'aborted';
        log(`${new Date().toISOString()} ${req.method ?? '-'} ${logPath(path)} ${status} ${code ?? '-'} ${(performance.now() - started).toFixed(1)}ms`);
      });
    }
    const noted = (c: string): void => {
      code = c;
    };
    route(ctx, req, res, path).then((a) => deliver(res, a, noted), (err: unknown) => deliver(res, unexpected(err, req, path), noted));
  });
  server.maxConnections = limits.maxConnections;
  server.setTimeout(limits.idleTimeoutMs);
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
