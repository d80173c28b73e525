// Recovery as real clients need it, against a real sandbox over loopback and a hostile server:
// one new token on a 401 the catalog does not explain, 429 handled like SC006, bounded retries of
// lookups (never of sign-ins), a lost sign-in counted by the guard, a 2xx that is not the answer, and
// an overall deadline that a dripping server cannot outlast.
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBatch } from '../../../src/core/run/batch';
import { assertNoCanary, failed, ok, sandbox, testClient, type Sandbox, type TestClient } from './harness';
import { startDripServer, type DripServer } from './network';

describe('client recovery against real servers', () => {
  let sb: Sandbox | undefined;
  let t: TestClient | undefined;
  let drip: DripServer | undefined;

  afterEach(async () => {
    if (t) assertNoCanary(t.logs);
    await t?.client.dispose();
    await sb?.close();
    await drip?.close();
    sb = t = drip = undefined;
  });

  it('a 401 whose code is not in the catalog gets one new token and one repeat', async () => {
    sb = await sandbox();
    t = testClient(sb.url);
    ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    await sb.admin('POST', 'faults', { type: 'status', status: 401, path: '/v1/duns-search', count: 1 });
    ok(await t.client.lookupIp({ ip: '203.0.113.8' }));
    assert.equal((await sb.customer()).tokenRequests, 2);
    assert.ok(t.logs.some((l) => /token refused with sandbox_fault; getting a new one/.test(l)), t.logs.join('\n'));
  });

  it('HTTP 429, whatever its body, holds every caller and retries with the same token', async () => {
    sb = await sandbox();
    t = testClient(sb.url);
    ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    await sb.admin('POST', 'faults', { type: 'status', status: 429, path: '/v1/duns-search', count: 2 });
    const rs = await Promise.all([1, 2, 3].map((i) => t!.client.lookupIp({ ip: `198.51.100.${i}` })));
    rs.forEach(ok);
    assert.equal((await sb.customer()).tokenRequests, 1, 'no new token for a throttle');
    assert.ok(t.logs.some((l) => /HTTP 429 \(sandbox_fault\): every call waits \d+ ms, then retry 1 of 8 with the same token/.test(l)), t.logs.join('\n'));
  });

  it('retries a lookup after a reset and a 503, but never a sign-in', async () => {
    sb = await sandbox();
    t = testClient(sb.url, { retry: { baseDelayMs: 20 } });
    await sb.admin('POST', 'faults', { type: 'status', status: 503, path: '/v1/token', count: 1 });
    const refused = failed(await t.client.lookupIp({ ip: '203.0.113.7' }));
    assert.deepEqual([refused.kind, refused.status], ['api', 503]);
    assert.equal((await sb.customer()).tokenRequests, 0, 'the sandbox answered the sign-in before counting it');
    await sb.admin('POST', 'faults', { type: 'reset', path: '/v1/duns-search', count: 1 });
    await sb.admin('POST', 'faults', { type: 'status', status: 503, path: '/v1/duns-search', count: 1 });
    ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    assert.equal((await sb.customer()).dataCalls, 1, 'the faults were answered before the call counted');
    assert.equal(t.logs.filter((l) => /waiting \d+ ms, then retry \d of 2 after/.test(l)).length, 2, t.logs.join('\n'));
  });

  it('counts a sign-in whose answer was lost as a possible failure', async () => {
    sb = await sandbox();
    t = testClient(sb.url);
    await sb.admin('POST', 'faults', { type: 'reset', path: '/Authentication', count: 1 });
    const lost = failed(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
    assert.equal(lost.kind, 'network');
    assert.equal((await t.client.status('b')).credentialFailures, 1);
    ok(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
    assert.equal((await t.client.status('b')).credentialFailures, 0);
  });

  it('a 200 whose body is not JSON is an api failure, and a batch runs it again', async () => {
    sb = await sandbox();
    t = testClient(sb.url);
    await sb.admin('POST', 'faults', { type: 'malformed-json', path: '/v1/duns-search', count: 1 });
    const f = failed(await t.client.lookupIp({ ip: '203.0.113.7' }));
    assert.deepEqual([f.kind, f.status], ['api', 200]);
    assert.match(f.text, /HTTP 200 with text that is not JSON/);
    const dir = await mkdtemp(join(tmpdir(), 'bizdata-batch-'));
    try {
      const out = join(dir, 'out.jsonl');
      await sb.admin('POST', 'faults', { type: 'malformed-json', path: '/v1/duns-search', count: 1 });
      const first = await runBatch({ client: t.client, inputs: [{ kind: 'ip', ip: '203.0.113.7' }], outFile: out, concurrency: 1 });
      assert.equal(first.failed, 1);
      const [line] = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; final: boolean });
      assert.deepEqual([line.ok, line.final], [false, false]);
      const second = await runBatch({ client: t.client, inputs: [{ kind: 'ip', ip: '203.0.113.7' }], outFile: out, concurrency: 1 });
      assert.deepEqual([second.skipped, second.ok], [0, 1]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('SC003 carries the spec advice and never counts toward the lockout guard', async () => {
    sb = await sandbox({ credentialsExpired: true });
    t = testClient(sb.url);
    for (let i = 0; i < 4; i++) {
      const f = failed(await t.client.refreshToken('b'));
      assert.equal(f.code, 'SC003', f.text);
      assert.equal(f.kind, 'auth');
      assert.equal(f.advice, 'Contact support.');
      assert.equal((await t.client.status('b')).credentialFailures, 0);
    }
  });

  it('ends a call that a server drips one byte at a time, at the overall deadline', async () => {
    drip = await startDripServer(200);
    t = testClient(drip.url, { http: { requestTimeoutMs: 700, bodyTimeoutMs: 30_000 }, retry: { maxTransientRetries: 1, baseDelayMs: 10 } });
    const f = failed(await t.client.lookupIp({ ip: '203.0.113.7' }));
    assert.equal(f.kind, 'network');
    assert.match(f.text, /no complete answer within the 0\.7 s request deadline/);
    assert.equal(drip.dataCalls(), 2, 'one retry after the deadline');
    // Two deadlines of 0.7 s ended it (the message names the deadline); the idle timer alone (30 s)
    // would outlast this test's 20 s timeout.
  });
});
