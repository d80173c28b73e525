// Real-HTTP helpers for the sandbox tests: every call goes over 127.0.0.1, nothing is mocked.
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import type { SandboxConfig } from '../../../src/sandbox/config';
import { DEMO_CREDENTIALS } from '../../../src/sandbox/defaults';
import type { RunningSandbox } from '../../../src/sandbox/server';

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

export function admin(sb: RunningSandbox, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Reply> {
  return call(sb, method, `/_sandbox/${path}`, { headers: { 'x-sandbox-admin': sb.adminKey }, body });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
