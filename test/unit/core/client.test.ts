import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import type { TokenStatus } from '../../../src/core/model';
import { PLACEHOLDER } from '../../../src/core/http/curl';
import { allOk, assertCustomer, CANARY, closeAll, failed, ok, sandbox, sandboxWithClient, testClient, type Sandbox, type TestClient } from './harness';



describe('core client against the sandbox', () => {
  let sb: Sandbox;
  let t: TestClient;

  beforeEach(async () => ({ sb, t } = await sandboxWithClient()));
  afterEach(() => closeAll(t, sb));

  describe('happy paths', () => {
    it('Interface A: token exchange then an IP lookup with Bearer and Origin', async () => {
      const r = ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      assert.equal(r.status, 200);
      assert.equal((r.body as { inquiryDetail: { ipAddress: string } }).inquiryDetail.ipAddress, '203.0.113.7');
      assert.equal(r.request.headers.authorization, `Bearer ${PLACEHOLDER.token}`);
      assert.equal(r.request.headers.origin, 'https://app.example.com');
      const c = await sb.customer();
      assert.equal(c.tokenRequests, 1);
      assert.equal(c.dataCalls, 1);
    });

    it('Interface A: IPv6 addresses go in the path segment', async () => {
      const r = ok(await t.client.lookupIp({ ip: '2001:db8::1' }));
      assert.equal((r.body as { inquiryDetail: { ipAddress: string } }).inquiryDetail.ipAddress, '2001:db8::1');
    });

    it('Interface B: authentication then an organizations lookup with the raw token', async () => {
      const r = ok(await t.client.lookupOrganization({ country: 'us', name: 'Example Corp, Inc.', territory: 'CA' }));
      assert.equal(r.code, 'CM000');
      const detail = (r.body as { MatchResponse: { MatchResponseDetail: { InquiryDetail: Record<string, string> } } }).MatchResponse.MatchResponseDetail.InquiryDetail;
      assert.equal(detail.SubjectName, 'Example Corp, Inc.');
      assert.equal(detail.CountryISOAlpha2Code, 'US');
      assert.equal(detail.TerritoryName, 'CA');
      assert.equal(r.request.headers.authorization, PLACEHOLDER.token);
      assert.match(r.request.url, /SubjectName=Example%20Corp%2C%20Inc\.&match=true&MatchTypeText=Advanced&TerritoryName=CA$/);
    });

    it('reuses one token for many calls, and concurrent first calls share one sign-in', async () => {
      await allOk(10, (i) => t.client.lookupIp({ ip: `198.51.100.${i + 1}` }));
      for (let i = 0; i < 10; i++) ok(await t.client.lookupIp({ ip: `192.0.2.${i + 1}` }));
      await allOk(5, () => t.client.lookupOrganization({ country: 'DE', name: 'Beispiel GmbH' }));
      await assertCustomer(sb, { tokenRequests: 2, dataCalls: 25 }, 'one token per interface');
    });

    it('decodes gzip answers and reports the encoding in the log', async () => {
      ok(await t.client.lookupIp({ ip: '203.0.113.9' }));
      assert.ok(t.logs.some((l) => /duns-search.*-> 200 .*gzip/.test(l)), t.logs.join('\n'));
    });

    it('refuses a decoded body above the cap', async () => {
      await t.client.dispose();
      t = testClient(sb.url, { http: { maxBodyBytes: 64 } });
      const f = failed(await t.client.lookupIp({ ip: '203.0.113.9' }));
      assert.equal(f.kind, 'network');
      assert.match(f.text, /larger than 64 bytes/);
    });

    it('reports a truncated gzip body as a network failure', async () => {
      ok(await t.client.lookupIp({ ip: '203.0.113.9' }));
      await sb.admin('POST', 'faults', { type: 'truncated-gzip', path: '/v1/duns-search', count: 1 });
      const f = failed(await t.client.lookupIp({ ip: '203.0.113.9' }));
      assert.equal(f.kind, 'network');
      assert.match(f.text, /could not be decompressed/);
    });

    it('status, refreshToken, forget and status events follow the token', async () => {
      const seen: TokenStatus[] = [];
      const sub = t.client.onDidChangeStatus((s) => seen.push(s));
      assert.equal((await t.client.status('a')).state, 'none');
      const r = ok(await t.client.refreshToken('a'));
      const s = r.body as TokenStatus;
      assert.equal(s.state, 'valid');
      assert.ok(!s.account?.includes(CANARY.consumerKey));
      assert.ok((s.expiresAt ?? 0) - (s.issuedAt ?? 0) === 86_400_000);
      assert.equal(r.request.headers.authorization, `Basic ${PLACEHOLDER.basic}`);
      assert.ok(seen.some((e) => e.state === 'refreshing') && seen.some((e) => e.state === 'valid'));
      await t.client.forget('a');
      assert.equal((await t.client.status('a')).state, 'none');
      t.credentials.a = undefined;
      assert.equal((await t.client.status('a')).state, 'signed-out');
      sub.dispose();
    });


    it('tells listeners about calls made, one coalesced event for a burst of calls', async () => {
      ok(await t.client.refreshToken('a'));
      const seen: TokenStatus[] = [];
      const sub = t.client.onDidChangeStatus((s) => seen.push(s));
      await allOk(5, (i) => t.client.lookupIp({ ip: `198.51.100.${i + 1}` }));
      await new Promise((r) => setTimeout(r, 400));
      sub.dispose();
      assert.equal(seen.length, 1, `expected one coalesced event, got ${seen.length}`);
      assert.equal(seen[0]?.callsMade, 5);
      assert.equal((await t.client.status('a')).callsMade, 5);
    });
    it('forceNewToken gets a new token before the call; limiterState shows the shared queue', async () => {
      await t.client.dispose();
      t = testClient(sb.url, { limits: { qps: 1000, concurrency: 2 } });
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }, { forceNewToken: true }));
      assert.equal((await sb.customer()).tokenRequests, 2);
      const calls = Array.from({ length: 6 }, () => t.client.lookupIp({ ip: '203.0.113.7' }));
      await new Promise((r) => setImmediate(r));
      const busy = t.client.limiterState();
      assert.equal(busy.concurrency, 2);
      assert.ok(busy.active <= 2 && busy.active + busy.queued >= 1, JSON.stringify(busy));
      (await Promise.all(calls)).forEach(ok);
      assert.deepEqual(t.client.limiterState(), { qps: 1000, concurrency: 2, active: 0, queued: 0 });
    });

    it('fails calls cleanly after dispose', async () => {
      ok(await t.client.lookupIp({ ip: '203.0.113.9' }));
      await t.client.dispose();
      const f = failed(await t.client.lookupIp({ ip: '203.0.113.9' }));
      assert.equal(f.kind, 'cancelled');
    });

    it('reports an unreachable service as a network failure', async () => {
      await t.client.dispose();
      t = testClient('http://127.0.0.1:9');
      const f = failed(await t.client.lookupIp({ ip: '203.0.113.9' }));
      assert.equal(f.kind, 'network');
      assert.match(f.text, /refused/);
    });

    it('cancels through an AbortSignal', async () => {
      await sb.admin('POST', 'faults', { type: 'latency', latencyMs: 2000, path: '/v1/duns-search' });
      const ac = new AbortController();
      const p = t.client.lookupIp({ ip: '203.0.113.9' }, { signal: ac.signal });
      setTimeout(() => ac.abort(), 200);
      const f = failed(await p);
      assert.equal(f.kind, 'cancelled');
    });

    it('cancels many calls on the wire through one signal they share, which gains no listener per call', async () => {
      ok(await t.client.lookupIp({ ip: '203.0.113.9' }));
      await sb.admin('POST', 'faults', { type: 'latency', latencyMs: 2000, path: '/v1/duns-search' });
      const warnings: Error[] = [];
      const onWarning = (w: Error): number => warnings.push(w);
      process.on('warning', onWarning);
      try {
        const batch = new AbortController();
        const stop = new AbortController();
        const calls = Array.from({ length: 16 }, () => t.client.lookupIp({ ip: '203.0.113.9' }, { signal: batch.signal, stop: stop.signal }));
        await new Promise((r) => setTimeout(r, 300));
        assert.ok(getEventListeners(batch.signal, 'abort').length <= 2, 'the limiter and the transport, once each');
        batch.abort();
        for (const r of await Promise.all(calls)) assert.equal(failed(r).kind, 'cancelled');
        assert.deepEqual(warnings.map((w) => w.name), []);
      } finally {
        process.off('warning', onWarning);
      }
    });
  });

  describe('expired and invalidated tokens', () => {
    it('A: after the service clock passes 24 h, 00040 leads to exactly one new token and one repeat', async () => {
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      await sb.admin('POST', 'clock', { advanceSeconds: 86_400 + 60 });
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      const c = await sb.customer();
      assert.equal(c.tokenRequests, 2);
      assert.equal(c.resultCodes['00040'], 1);
      assert.equal(c.resultCodes.CM000, 4, 'two tokens and two lookups succeeded');
    });

    it('B: an expired token (SC001 on a data call) leads to exactly one re-authentication', async () => {
      ok(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      await sb.admin('POST', 'clock', { advanceSeconds: 86_400 + 60 });
      ok(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      const c = await sb.customer();
      assert.equal(c.tokenRequests, 2);
      assert.equal(c.resultCodes.SC001, 1);
    });

    it('B: a token invalidated by a release update is replaced once, shared by concurrent callers', async () => {
      ok(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      await sb.admin('POST', 'tokens/invalidate', { reason: 'release-update', user: CANARY.user });
      await allOk(5, () => t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      await assertCustomer(sb, { tokenRequests: 2, authFailures: 0 }, 'one re-authentication for all five callers');
    });

    it('A: an invalidated token (invalid_token) is replaced once', async () => {
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      await sb.admin('POST', 'tokens/invalidate', { consumerKey: CANARY.consumerKey });
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      assert.equal((await sb.customer()).tokenRequests, 2);
    });

    it('refreshes before expiry by its own clock, without a refused call', async () => {
      await t.client.dispose();
      let offset = 0;
      t = testClient(sb.url, { now: () => Date.now() + offset, refreshMarginMs: 10 * 60_000 });
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      offset = 86_400_000 - 5 * 60_000; // inside the refresh margin
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      const c = await sb.customer();
      assert.equal(c.tokenRequests, 2);
      assert.equal(c.resultCodes['00040'], undefined);
    });

    it('stops with "contact support" when the new token is refused as well', async () => {
      // Tokens live one second and every organizations call is held 1.5 s before its token is
      // checked, so the repeat on the new token is refused too.
      await t.client.dispose();
      await sb.close();
      sb = await sandbox({}, 1);
      t = testClient(sb.url);
      ok(await t.client.refreshToken('b'));
      await sb.admin('POST', 'faults', { type: 'latency', latencyMs: 1500, path: '/V4.0/organizations' });
      const f = failed(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      assert.equal(f.code, 'SC001');
      assert.equal(f.kind, 'auth');
      assert.match(f.advice, /contact support/);
      const c = await sb.customer();
      assert.equal(c.tokenRequests, 2, 'exactly one re-authentication');
      assert.equal(c.resultCodes.SC001, 2);
    });
  });

  describe('other operations (request files) with the managed token', () => {
    it('sends any operation of either interface with the same token, and gives back headers', async () => {
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      const a = ok(await t.client.send({ interfaceId: 'a', method: 'GET', url: `${sb.url}/v1/duns-search/ip/198.51.100.4?view=standard`, headers: { 'X-Trace': 't-1' } }));
      assert.equal((a.body as { inquiryDetail: { ipAddress: string } }).inquiryDetail.ipAddress, '198.51.100.4');
      assert.equal(a.headers?.['content-type'], 'application/json; charset=utf-8');
      assert.equal(a.request.headers.authorization, `Bearer ${PLACEHOLDER.token}`);
      assert.equal(a.request.headers['x-trace'], 't-1');
      const b = ok(await t.client.send({ interfaceId: 'b', method: 'GET', url: `${sb.url}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true`, headers: {} }));
      assert.equal(b.code, 'CM000');
      assert.equal(b.request.headers.authorization, PLACEHOLDER.token);
      const c = await sb.customer();
      assert.equal(c.tokenRequests, 2, 'the lookup and the request file share the A token');
      assert.equal(c.dataCalls, 3);
    });

    it('never sends the token to another host, and never takes a credential header from the request', async () => {
      const before = (await sb.stats()).requests;
      const port = new URL(sb.url).port;
      const foreign = failed(await t.client.send({ interfaceId: 'a', method: 'GET', url: `http://127.0.0.2:${port}/v1/duns-search/ip/1.2.3.4`, headers: {} }));
      assert.equal(foreign.kind, 'input');
      assert.match(foreign.text, new RegExp(`goes to http://127\\.0\\.0\\.2:${port}, which is not a service host of Interface A: its token goes only to http://127\\.0\\.0\\.1:${port} `));
      const own = failed(await t.client.send({ interfaceId: 'b', method: 'GET', url: `${sb.url}/V4.0/organizations`, headers: { Authorization: 'mine' } }));
      assert.equal(own.kind, 'input');
      assert.match(own.text, /Authorization is set by the client/);
      const creds = failed(await t.client.send({ interfaceId: 'b', method: 'GET', url: `${sb.url.replace('127.0.0.1', 'user:pw@127.0.0.1')}/V4.0/organizations`, headers: {} }));
      assert.match(creds.text, /user name or password before the host/);
      assert.ok(!creds.text.includes('pw@'));
      assert.equal((await sb.stats()).requests, before, 'nothing was sent');
    });

    it('gives a large answer of another operation back as text when asked to (a host parses it elsewhere), never a lookup\'s', async () => {
      const big = { items: Array.from({ length: 200 }, (_, i) => ({ i, name: `item ${i}` })) };
      await t.client.dispose();
      t = testClient(sb.url, { http: { maxParseBytes: 1024 } });
      await sb.admin('POST', 'faults', { type: 'respond', path: '/v1/duns-search/ip/', status: 200, body: big, count: 2 });
      const sent = ok(await t.client.send({ interfaceId: 'a', method: 'GET', url: `${sb.url}/v1/duns-search/ip/203.0.113.7`, headers: {} }));
      assert.equal(sent.body, undefined);
      assert.deepEqual(JSON.parse(sent.text ?? ''), big, 'the text is the answer as sent');
      const looked = ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      assert.deepEqual(looked.body, big, 'a lookup is always parsed');
      assert.equal(looked.text, undefined);
    });

    it('replaces an expired token once for a request file too', async () => {
      ok(await t.client.send({ interfaceId: 'a', method: 'GET', url: `${sb.url}/v1/duns-search/ip/203.0.113.7`, headers: {} }));
      await sb.admin('POST', 'clock', { advanceSeconds: 86_400 + 60 });
      ok(await t.client.send({ interfaceId: 'a', method: 'GET', url: `${sb.url}/v1/duns-search/ip/203.0.113.7`, headers: {} }));
      const c = await sb.customer();
      assert.equal(c.tokenRequests, 2);
      assert.equal(c.resultCodes['00040'], 1);
    });
  });
});
