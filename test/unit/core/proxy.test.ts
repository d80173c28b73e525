import * as assert from 'node:assert/strict';
import { ok, sandbox, testClient, type Sandbox } from './harness';
import { startHttpsFront, startTinyproxy, TLS_CERT, type HttpsFront, type Proxy } from './network';

describe('HTTP proxy (a real tinyproxy)', () => {
  let sb: Sandbox;
  let proxy: Proxy;
  let front: HttpsFront | undefined;

  beforeEach(async () => {
    sb = await sandbox();
    proxy = await startTinyproxy();
  });

  afterEach(async () => {
    await front?.close();
    front = undefined;
    await proxy.close();
    await sb.close();
  });

  it('sends plain-http (loopback) calls of both interfaces to the proxy as absolute-URI requests', async () => {
    const t = testClient(sb.url, { http: { proxyUrl: proxy.url } });
    try {
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      ok(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
    } finally {
      await t.client.dispose();
    }
    const seen = await proxy.requests();
    for (const path of ['POST /v1/token', 'GET /v1/duns-search/ip/203.0.113.7', 'POST /Authentication/V2.0/', 'GET /V4.0/organizations']) {
      const [method, rest] = path.split(' ');
      assert.ok(seen.some((l) => l.startsWith(`${method} ${sb.url}${rest}`)), `${path} in ${seen.join(' | ')}`);
    }
  });

  it('tunnels https calls through CONNECT, verifying the service certificate at the far end', async () => {
    front = await startHttpsFront(sb.url);
    const t = testClient(front.url, { http: { proxyUrl: proxy.url, caFile: TLS_CERT } });
    try {
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    } finally {
      await t.client.dispose();
    }
    const seen = await proxy.requests();
    assert.ok(seen.includes(`CONNECT ${new URL(front.url).host}`), seen.join(' | '));
    assert.ok(!seen.some((l) => l.startsWith('GET') || l.startsWith('POST')), 'nothing in clear text');
  });

  it('reaches hosts listed in noProxy directly (VS Code http.noProxy)', async () => {
    const t = testClient(sb.url, { http: { proxyUrl: proxy.url, noProxy: ['127.0.0.1'] } });
    try {
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    } finally {
      await t.client.dispose();
    }
    assert.deepEqual(await proxy.requests(), []);
  });
});
