import * as assert from 'node:assert/strict';
import type { LookupQuery } from '../../../src/core/model';
import { toCurl } from '../../../src/core/http/curl';
import { assertNoCanary, CANARY, endpointsFor, sandbox, testClient, type Sandbox, type TestClient } from './harness';

const BAD: ReadonlyArray<readonly [string, LookupQuery]> = [
  ['empty IP', { kind: 'ip', ip: '' }],
  ['IPv4 out of range', { kind: 'ip', ip: '256.1.1.1' }],
  ['not an IP', { kind: 'ip', ip: 'example.com' }],
  ['IP with a path', { kind: 'ip', ip: '1.2.3.4/../../token' }],
  ['view with a space', { kind: 'ip', ip: '203.0.113.7', view: 'standard view' }],
  ['view with CRLF', { kind: 'ip', ip: '203.0.113.7', view: 'x\r\nInjected: 1' }],
  ['empty country', { kind: 'org', country: '', name: 'Example' }],
  ['three-letter country', { kind: 'org', country: 'USA', name: 'Example' }],
  ['unassigned country', { kind: 'org', country: 'XX', name: 'Example' }],
  ['empty name', { kind: 'org', country: 'US', name: '   ' }],
  ['name with a line break', { kind: 'org', country: 'US', name: 'Example\nCorp' }],
  ['name too long', { kind: 'org', country: 'US', name: 'x'.repeat(300) }],
  ['territory with CR', { kind: 'org', country: 'US', name: 'Example', territory: 'CA\r' }],
  ['match type with a space', { kind: 'org', country: 'US', name: 'Example', matchType: 'Very Advanced' }],
];

describe('input validation and secrets', () => {
  let sb: Sandbox;
  let t: TestClient;

  beforeEach(async () => {
    sb = await sandbox();
    t = testClient(sb.url);
  });

  afterEach(async () => {
    await t.client.dispose();
    await sb.close();
  });

  it('rejects every bad input with a clear message and sends nothing', async () => {
    const before = (await sb.stats()).requests;
    for (const [label, q] of BAD) {
      const r = await t.client.lookup(q);
      assert.ok(!r.ok, label);
      assert.equal(r.kind, 'input', label);
      assert.ok(r.text.length > 10, label);
      assert.equal(r.request, undefined, label);
    }
    assert.equal((await sb.stats()).requests, before);
  });

  it('refuses plain http to a non-loopback host, bad credentials and a missing Origin, sending nothing', async () => {
    const before = (await sb.stats()).requests;
    const remote = testClient(sb.url, { endpoints: { ...endpointsFor(sb.url), authUrl: 'http://api.example.com', legacyUrl: 'http://10.0.0.5' } });
    const noOrigin = testClient(sb.url, { endpoints: { ...endpointsFor(sb.url), origin: '' } });
    try {
      const a = await remote.client.lookupIp({ ip: '203.0.113.7' });
      assert.ok(!a.ok && a.kind === 'input' && /unencrypted/.test(a.text));
      const b = await remote.client.lookupOrganization({ country: 'US', name: 'Example' });
      assert.ok(!b.ok && b.kind === 'input');
      const o = await noOrigin.client.lookupIp({ ip: '203.0.113.7' });
      assert.ok(!o.ok && o.kind === 'input' && /Origin/.test(o.text));
      t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'pw\r\nx-injected: 1' };
      const c = await t.client.lookupOrganization({ country: 'US', name: 'Example' });
      assert.ok(!c.ok && c.kind === 'input');
      assert.ok(!c.text.includes('pw'), 'the bad password is not echoed');
      t.credentials.a = { interfaceId: 'a', consumerKey: 'has:colon', consumerSecret: 'x' };
      const d = await t.client.lookupIp({ ip: '203.0.113.7' });
      assert.ok(!d.ok && d.kind === 'input');
      t.credentials.a = undefined;
      const e = await t.client.lookupIp({ ip: '203.0.113.7' });
      assert.ok(!e.ok && e.kind === 'auth' && /No consumer key/.test(e.text));
    } finally {
      await remote.client.dispose();
      await noOrigin.client.dispose();
    }
    assert.equal((await sb.stats()).requests, before);
  });

  it('never lets a credential or token reach logs, errors, results or curl exports', async () => {
    const captured: string[] = [];
    const keep = (r: unknown): void => {
      captured.push(JSON.stringify(r));
      const req = (r as { request?: Parameters<typeof toCurl>[0] }).request;
      if (req && req.url) captured.push(toCurl(req));
    };
    keep(await t.client.lookupIp({ ip: '203.0.113.7' }));
    keep(await t.client.lookupOrganization({ country: 'US', name: 'Example' }));
    keep(await t.client.refreshToken('a'));
    keep(await t.client.refreshToken('b'));
    keep(await t.client.status('a'));
    keep(await t.client.status('b'));
    const tokens = [(await t.client.revealToken('a')) ?? 'x', (await t.client.revealToken('b')) ?? 'x'];
    assert.ok(tokens.every((x) => x.length > 8));
    await sb.admin('POST', 'tokens/invalidate', { customer: 'acme' });
    keep(await t.client.lookupIp({ ip: '203.0.113.7' }));
    // Failures: wrong secrets on both interfaces, a server fault and a network error.
    t.credentials.a = { interfaceId: 'a', consumerKey: CANARY.consumerKey, consumerSecret: `${CANARY.consumerSecret}-x` };
    t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: `${CANARY.password}-x` };
    keep(await t.client.refreshToken('a'));
    keep(await t.client.refreshToken('b'));
    keep(t.client.redact(`Authorization: Bearer ${tokens[0]} x-svc-pwd: ${CANARY.password} {"access_token":"${tokens[1]}"}`));
    captured.push(...t.logs);
    assert.ok(t.logs.length >= 8);
    assertNoCanary(captured, [...tokens, `${CANARY.password}-x`, `${CANARY.consumerSecret}-x`]);
  });
});
