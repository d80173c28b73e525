// A real sandbox on 127.0.0.1 for the client tests, its admin API, and a client wired to it that
// captures every log line so tests can look for leaked secrets.
import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { BizDataClient } from '../../../src/core/client';
import type { ClientOptions } from '../../../src/core/clientOptions';
import type { CallFailure, CallResult, CallSuccess, Credentials, Endpoints, InterfaceId } from '../../../src/core/model';
import { MemoryGuardStore, MemoryTokenStore } from '../../../src/core/storage/stores';
import { startSandbox, type SandboxOptions } from '../../../src/sandbox/server';
import type { CustomerStats, SandboxStats } from '../../../src/sandbox/store';

/** Planted values: none of them may ever appear in any captured output. */
export const CANARY = {
  consumerKey: 'canaryKEY-7f3a9c1e',
  consumerSecret: 'canarySECRET-b81d44e2',
  user: 'canaryUSER-5c2e90aa',
  password: 'canaryPASS-e4f17d3b',
} as const;

export const CUSTOMER = 'acme';

/** scrypt's N for the sandboxes of tests that are not about its cost (the service's is 16 times more). */
export const TEST_HASH_COST = 1024;

export interface CustomerOverrides {
  qps?: number;
  concurrency?: number;
  contractLimit?: number;
  subscriberExpires?: string;
  responseDelayMs?: number;
  credentialsExpired?: boolean;
}

export function sandboxConfig(o: CustomerOverrides = {}, tokenLifetimeSeconds?: number): unknown {
  const { credentialsExpired, ...customer } = o;
  return {
    ...(tokenLifetimeSeconds ? { tokenLifetimeSeconds } : {}),
    customers: [
      {
        id: CUSTOMER,
        qps: 1000,
        concurrency: 100,
        ...customer,
        clients: [{ consumerKey: CANARY.consumerKey, consumerSecret: CANARY.consumerSecret }],
        users: [{ user: CANARY.user, password: CANARY.password, ...(credentialsExpired ? { credentialsExpired } : {}) }],
      },
    ],
  };
}

export interface Sandbox {
  readonly url: string;
  stats(): Promise<SandboxStats>;
  customer(): Promise<CustomerStats>;
  admin(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** A sandbox with the canaries' customer on 127.0.0.1, or on `host` (such as ::1); `extra`: more of its options (a request log). */
export async function sandbox(o: CustomerOverrides = {}, tokenLifetimeSeconds?: number, host?: string, extra: Pick<SandboxOptions, 'log'> = {}): Promise<Sandbox> {
  // No test here is about the cost of scrypt: a low one keeps each start and wrong secret cheap.
  const sb = await startSandbox({ port: 0, config: sandboxConfig(o, tokenLifetimeSeconds), host, hashCost: TEST_HASH_COST, ...extra });
  const admin = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> => {
    const res = await request(`${sb.url}/_sandbox/${path}`, {
      method,
      headers: { 'x-sandbox-admin': sb.adminKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.body.json()) as unknown;
    if (res.statusCode >= 300) throw new Error(`admin ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const stats = async (): Promise<SandboxStats> => (await admin('GET', 'stats')) as SandboxStats;
  return {
    url: sb.url,
    stats,
    customer: async () => (await stats()).customers[CUSTOMER],
    admin,
    close: () => sb.close(),
  };
}

export function endpointsFor(url: string): Endpoints {
  return { authUrl: url, baseUrl: url, legacyUrl: url, origin: 'https://app.example.com', authVersion: 'V2.0', orgVersion: 'V4.0' };
}

export const GOOD: Readonly<Record<InterfaceId, Credentials>> = {
  a: { interfaceId: 'a', consumerKey: CANARY.consumerKey, consumerSecret: CANARY.consumerSecret },
  b: { interfaceId: 'b', user: CANARY.user, password: CANARY.password },
};

export interface TestClient {
  readonly client: BizDataClient;
  readonly logs: string[];
  readonly tokens: MemoryTokenStore;
  readonly guard: MemoryGuardStore;
  /** Replace what the credential provider answers. */
  credentials: Record<InterfaceId, Credentials | undefined>;
}

export function testClient(url: string, extra: Partial<ClientOptions> = {}): TestClient {
  const logs: string[] = [];
  const tokens = new MemoryTokenStore();
  const guard = new MemoryGuardStore();
  const t: TestClient = {
    logs,
    tokens,
    guard,
    credentials: { ...GOOD },
    client: undefined as unknown as BizDataClient,
  };
  (t as { client: BizDataClient }).client = new BizDataClient({
    endpoints: endpointsFor(url),
    credentials: async (id) => t.credentials[id],
    tokenStore: tokens,
    guardStore: guard,
    limits: { qps: 1000, concurrency: 20 },
    log: (line) => logs.push(line),
    ...extra,
  });
  return t;
}

/** Every captured string checked for every canary value (and its base64/URL forms). */
export function assertNoCanary(captured: readonly string[], extraSecrets: readonly string[] = []): void {
  const secrets = [
    ...Object.values(CANARY),
    Buffer.from(`${CANARY.consumerKey}:${CANARY.consumerSecret}`).toString('base64'),
    ...extraSecrets,
  ];
  for (const text of captured) {
    for (const s of secrets) {
      if (text.includes(s)) throw new Error(`A secret leaked into captured output: ...${text.slice(Math.max(0, text.indexOf(s) - 40), text.indexOf(s))}[SECRET]`);
    }
  }
}

/** A sandbox (with these limits) and a client of it. */
export async function sandboxWithClient(o: CustomerOverrides = {}, extra: Partial<ClientOptions> = {}): Promise<{ sb: Sandbox; t: TestClient }> {
  const sb = await sandbox(o);
  return { sb, t: testClient(sb.url, extra) };
}

/** Closes what a test opened: the client first (its calls end), then the sandbox. */
export async function closeAll(t: TestClient | undefined, sb: Sandbox | undefined): Promise<void> {
  await t?.client.dispose();
  await sb?.close();
}

/** Asserts these counters of the sandbox's customer; the others are not looked at. */
export async function assertCustomer(sb: Sandbox, expected: Partial<CustomerStats>, message?: string): Promise<void> {
  const c = await sb.customer();
  const seen = Object.fromEntries(Object.keys(expected).map((k) => [k, c[k as keyof CustomerStats]]));
  assert.deepEqual(seen, expected, message);
}

/** Makes `n` calls at once and asserts that every one succeeded. */
export async function allOk(n: number, call: (i: number) => Promise<CallResult>): Promise<CallSuccess[]> {
  return (await Promise.all(Array.from({ length: n }, (_, i) => call(i)))).map(ok);
}

export function ok(r: CallResult): CallSuccess {
  if (!r.ok) assert.fail(`expected success, got ${r.kind} ${r.code ?? ''}: ${r.text}`);
  return r;
}

export function failed(r: CallResult): CallFailure {
  if (r.ok) assert.fail('expected a failure');
  return r;
}
