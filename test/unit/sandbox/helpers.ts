// The one helper module of the sandbox tests: start sandboxes (in process or as the real CLI
// process), configs, real HTTP calls over 127.0.0.1, admin calls, assertions on the answer shapes and
// waitFor. Nothing here mocks the sandbox.
import * as assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import type { SandboxConfig } from '../../../src/sandbox/config';
import { DEMO_CREDENTIALS } from '../../../src/sandbox/defaults';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/server';
import { TEST_HASH_COST } from '../core/harness';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // Tests read into the body freely; the assertions say what they expect.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** The demo customer with limits high enough that only tests about limits meet them. */
export function roomyConfig(customer: Record<string, unknown> = {}, root: Record<string, unknown> = {}): SandboxConfig {
  return {
    ...root,
    customers: [{
      id: 'sandbox',
      qps: 10000,
      concurrency: 100,
      clients: [{ consumerKey: DEMO_CREDENTIALS.a.consumerKey, consumerSecret: DEMO_CREDENTIALS.a.consumerSecret }],
      users: [{ user: DEMO_CREDENTIALS.b.user, password: DEMO_CREDENTIALS.b.password }],
      ...customer,
    }],
  };
}

/**
 * The demo customer plus one customer per account condition: expired credentials (SC003), an expired
 * subscriber number (SC004, both interfaces) and an account locked in the config.
 */
export function conditionsConfig(): SandboxConfig {
  return {
    customers: [
      ...roomyConfig().customers,
      { id: 'expired-creds', users: [{ user: 'old-user', password: 'old-password-1', credentialsExpired: true }] },
      {
        id: 'expired-subscriber', subscriberExpires: '2001-01-01', users: [{ user: 'lapsed', password: 'lapsed-password' }],
        clients: [{ consumerKey: 'lapsed-key', consumerSecret: 'lapsed-secret' }],
      },
      { id: 'locked-at-start', users: [{ user: 'frozen', password: 'frozen-password', locked: true }] },
    ],
  };
}

export const ORIGIN = 'https://explorer.example';

export async function call(
  sb: Pick<RunningSandbox, 'url'>,
  method: 'GET' | 'POST' | 'DELETE' | 'PUT',
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<Reply> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...(body !== undefined && options.rawBody === undefined ? { 'content-type': 'application/json' } : {}), ...options.headers };
  const res = await request(`${sb.url}${path}`, { method, headers, body });
  const raw = Buffer.from(await res.body.arrayBuffer());
  const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

export function tokenRequest(sb: Pick<RunningSandbox, 'url'>, key = DEMO_CREDENTIALS.a.consumerKey, secret = DEMO_CREDENTIALS.a.consumerSecret): Promise<Reply> {
  return call(sb, 'POST', '/v1/token', {
    headers: { authorization: basic(key, secret), origin: ORIGIN },
    body: { grant_type: 'client_credentials' },
  });
}

export async function tokenA(sb: Pick<RunningSandbox, 'url'>, key?: string, secret?: string): Promise<string> {
  const r = await tokenRequest(sb, key, secret);
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
  return r.json.access_token as string;
}

export function ipLookup(sb: Pick<RunningSandbox, 'url'>, token: string, ip = '203.0.113.7', extra: Record<string, string> = {}): Promise<Reply> {
  return call(sb, 'GET', `/v1/duns-search/ip/${encodeURIComponent(ip)}?view=standard`, {
    headers: { authorization: `Bearer ${token}`, origin: ORIGIN, ...extra },
  });
}

export function transactionDetail(): { TransactionDetail: Record<string, string> } {
  return {
    TransactionDetail: {
      ApplicationTransactionID: 'TestApp',
      ServiceTransactionID: 'test-123',
      TransactionTimestamp: '2025-01-31T12:00:00Z',
    },
  };
}

export function authB(sb: Pick<RunningSandbox, 'url'>, user = DEMO_CREDENTIALS.b.user, password = DEMO_CREDENTIALS.b.password): Promise<Reply> {
  return call(sb, 'POST', '/Authentication/V2.0/', {
    headers: { 'x-svc-user': user, 'x-svc-pwd': password },
    body: transactionDetail(),
  });
}

export async function tokenB(sb: Pick<RunningSandbox, 'url'>, user?: string, password?: string): Promise<string> {
  const r = await authB(sb, user, password);
  if (r.status !== 200) throw new Error(`authentication failed: ${r.status} ${r.text}`);
  return r.headers.authorization as string;
}

export const ORG_QUERY = 'CountryISOAlpha2Code=US&SubjectName=Gadget%20Works&match=true&MatchTypeText=Advanced&TerritoryName=CA';

export function orgLookup(sb: Pick<RunningSandbox, 'url'>, token: string, query = ORG_QUERY, extra: Record<string, string> = {}): Promise<Reply> {
  return call(sb, 'GET', `/V4.0/organizations?${query}`, { headers: { authorization: token, ...extra } });
}

export function admin(sb: Pick<RunningSandbox, 'url' | 'adminKey'>, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Reply> {
  return call(sb, method, `/_sandbox/${path}`, { headers: { 'x-sandbox-admin': sb.adminKey }, body });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns something other than undefined; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(20);
  }
}

/** A plain TCP connection to a sandbox, for what an HTTP client library would not send. */
export interface RawConnection {
  /** Everything received so far, as latin1 text. */
  readonly received: () => string;
  readonly closed: () => boolean;
  /** Resolves when the server (or anything) closes the connection. */
  readonly close: Promise<void>;
  write(data: string | Buffer): boolean;
  onDrain(listener: () => void): void;
  destroy(): void;
}

export async function rawConnection(sb: Pick<RunningSandbox, 'url'>): Promise<RawConnection> {
  const { hostname, port } = new URL(sb.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let text = '';
  let isClosed = false;
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  const close = new Promise<void>((resolve) => socket.once('close', () => {
    isClosed = true;
    resolve();
  }));
  return {
    received: () => text,
    closed: () => isClosed,
    close,
    write: (data) => socket.write(data),
    onDrain: (listener) => socket.once('drain', listener),
    destroy: () => socket.destroy(),
  };
}

/** The saved state of a closed sandbox (what a clean stop wrote). */
// Tests read into the state freely; the assertions say what they expect.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readState(statePath: string): Promise<any> {
  return JSON.parse(await readFile(statePath, 'utf8'));
}

/** Sandboxes and temporary folders of one suite, all closed and removed by `cleanup()` (call it in after/afterEach). */
export class TestBed {
  private readonly sandboxes: RunningSandbox[] = [];
  private readonly dirs: string[] = [];
  private readonly children: ChildProcess[] = [];

  async start(options: SandboxOptions = {}): Promise<RunningSandbox> {
    // scrypt at a test's cost unless the test asks for another (those about its cost ask for HASH_COST).
    const sb = await startSandbox({ config: roomyConfig(), hashCost: TEST_HASH_COST, ...options });
    this.sandboxes.push(sb);
    return sb;
  }

  async tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'bizdata-sandbox-test-'));
    this.dirs.push(dir);
    return dir;
  }

  /** Runs `node dist/cli.js sandbox ARGS` as a real process. */
  cli(args: readonly string[], env: Record<string, string> = {}): CliRun {
    const run = spawnSandboxCli(args, env);
    this.children.push(run.child);
    return run;
  }

  async cleanup(): Promise<void> {
    for (const c of this.children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(this.sandboxes.splice(0).map((s) => s.close()));
    await Promise.all(this.dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  }
}

/** What a suite's tests hold: the sandbox that the hooks of `useSandbox` started for them. */
export interface SandboxRef extends Pick<RunningSandbox, 'url' | 'adminKey'> {
  /** The running sandbox itself; throws outside a test. */
  readonly current: RunningSandbox;
}

/**
 * Registers mocha hooks that start a sandbox with `options` before the suite (or before each test
 * when `each`) and close it after. The returned reference always points at the current one.
 */
export function useSandbox(options: SandboxOptions = {}, each = false): SandboxRef {
  const bed = new TestBed();
  let running: RunningSandbox | undefined;
  const current = (): RunningSandbox => {
    if (running === undefined) throw new Error('useSandbox: no sandbox outside a test');
    return running;
  };
  (each ? beforeEach : before)(async () => {
    running = await bed.start(options);
  });
  (each ? afterEach : after)(async () => {
    running = undefined;
    await bed.cleanup();
  });
  return {
    get current() {
      return current();
    },
    get url() {
      return current().url;
    },
    get adminKey() {
      return current().adminKey;
    },
  };
}

const ROOT = join(__dirname, '../../../..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export interface CliRun {
  readonly child: ChildProcess;
  /** The URL from the first stdout line "Sandbox listening on URL"; rejects when the process exits first. */
  readonly url: Promise<string>;
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exit: Promise<number | null>;
}

function spawnSandboxCli(args: readonly string[], env: Record<string, string>): CliRun {
  // `npm run test:unit` builds first; build here too so running mocha alone still works.
  if (!existsSync(CLI)) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  // Standard input is a pipe the test may close, as a parent's death closes it.
  const child = spawn(process.execPath, [CLI, 'sandbox', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  const url = new Promise<string>((resolve, reject) => {
    lines.once('line', (line: string) => resolve(line.replace(/^Sandbox listening on /, '')));
    child.once('exit', () => reject(new Error(`exited before printing: ${stderr.join('')}`)));
  });
  url.catch(() => undefined);
  lines.on('line', (l) => stdout.push(l));
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url, stdout, stderr, exit };
}

/** An Interface A error answer: {"error": {"errorCode", "errorMessage"}}. */
export function assertErrorA(r: Reply, status: number, code: string, message?: RegExp): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.json.error.errorCode, code);
  assert.equal(typeof r.json.error.errorMessage, 'string');
  if (message !== undefined) assert.match(r.json.error.errorMessage, message);
}

/** A failed Interface B authentication: 401, INVALID CREDENTIALS, SeverityText Fatal, no token. */
export function assertFailedAuth(r: Reply, code = 'SC001'): void {
  assert.equal(r.status, 401, r.text);
  assert.equal(r.headers.authorization, 'INVALID CREDENTIALS');
  assert.equal(r.json.TransactionResult.SeverityText, 'Fatal');
  assert.equal(r.json.TransactionResult.ResultID, code);
  assert.equal(typeof r.json.TransactionResult.ResultMessage.ResultDescription, 'string');
  assert.equal(r.json.AuthenticationDetail, undefined);
}

/** A failed Interface B data call: the MatchResponse wrapper, SeverityText Error, the service's TransactionDetail. */
export function assertMatchFailure(r: Reply, status: number, code: string, text?: string): void {
  assert.equal(r.status, status, r.text);
  const m = r.json.MatchResponse;
  assert.equal(m.TransactionResult.SeverityText, 'Error');
  assert.equal(m.TransactionResult.ResultID, code);
  if (text !== undefined) assert.equal(m.TransactionResult.ResultText, text);
  assert.equal(typeof m.TransactionResult.ResultMessage.ResultDescription, 'string');
  assert.equal(m.TransactionDetail.ApplicationTransactionID, 'BizDataSandbox');
  assert.match(m.TransactionDetail.ServiceTransactionID, /^sbx-/);
}
