// Where a data call is counted (issue 35): the client counts every data call that may have reached
// the real sandbox (retries and a lost answer too), never a sign-in, gives back one that surely never
// left, and an SC005 marks the period for every client of the store; the run's ceiling stops the call
// past it. The stores: the state directory's files (a link is never written through, old periods go)
// and Redis (a real redis-server), each counting as one across clients.
import * as assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractScope } from '../../../src/core/accounts/session';
import { CallCeiling } from '../../../src/core/contract/ceiling';
import type { Contract } from '../../../src/core/contract/contract';
import { ContractMeter } from '../../../src/core/contract/meter';
import { connectCoordinator } from '../../../src/core/coordination/connect';
import type { UsageStore } from '../../../src/core/ports';
import { FileUsageStore } from '../../../src/core/storage/usageFiles';
import { closeAll, endpointsFor, failed, ok, sandbox, testClient, type Sandbox, type TestClient } from './harness';
import { startRedis, type RedisServer } from '../redisServer';

const CONTRACT: Contract = { maxCalls: 1000, period: 'month', startsOn: '2025-01-01' };

/** A loopback port nothing listens on (taken, then let go). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('the contract\'s count, where every data call is counted', function () {
  this.timeout(30_000);
  let dir = '';
  let sb: Sandbox | undefined;
  const clients: TestClient[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-usage-'));
  });
  afterEach(async () => {
    for (const t of clients.splice(0)) await t.client.dispose();
    await closeAll(undefined, sb);
    sb = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /** A client of the sandbox counting in `store` (the state directory by default). */
  const meteredClient = (store: UsageStore = new FileUsageStore(dir)): { t: TestClient; meter: ContractMeter } => {
    const url = sb?.url ?? '';
    const meter = new ContractMeter({ scope: contractScope('metered', endpointsFor(url)), connection: 'metered', contract: CONTRACT, store });
    const t = testClient(url, { contract: meter });
    clients.push(t);
    return { t, meter };
  };

  it('counts each data call the sandbox counted, sign-ins not, and a retry after a 503 as a call', async () => {
    sb = await sandbox();
    const busy = { error: { errorCode: 'busy', errorMessage: 'busy' } };
    await sb.admin('POST', 'faults', { type: 'respond', status: 503, path: '/v1/duns-search/ip/', count: 1, body: busy });
    const { t, meter } = meteredClient();
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) ok(await t.client.lookupIp({ ip }));
    ok(await t.client.refreshToken('a'));
    const service = await sb.customer();
    assert.equal(service.tokenRequests, 2);
    assert.equal(service.dataCalls, 4, 'three lookups, one of them sent twice');
    assert.equal((await meter.usage()).used, 4);
    assert.equal((await t.client.contractUsage())?.used, 4);
  });

  it('counts a call whose answer was lost (it may have reached the service), and gives back one refused before it was sent', async () => {
    sb = await sandbox();
    const { t, meter } = meteredClient();
    ok(await t.client.lookupIp({ ip: '203.0.113.1' }));
    // The connection is dropped: the service may have counted the call; it is sent again and answered.
    await sb.admin('POST', 'faults', { type: 'reset', path: '/v1/duns-search/ip/', count: 1 });
    ok(await t.client.lookupIp({ ip: '203.0.113.2' }));
    assert.equal((await meter.usage()).used, 3, 'the lost answer counts too');
    // Data calls to an address where nothing listens: each connection refused (the call and its two
    // retries) never reached anyone, and is given back. The token comes from the sandbox.
    const dead = await closedPort();
    const elsewhere = testClient(sb.url, { endpoints: { ...endpointsFor(sb.url), baseUrl: `http://127.0.0.1:${dead}` }, contract: meter });
    clients.push(elsewhere);
    assert.equal(failed(await elsewhere.client.lookupIp({ ip: '203.0.113.3' })).kind, 'network');
    assert.equal((await meter.usage()).used, 3);
  });

  it('marks the period at an SC005 for every client of the store: nothing more is sent until the mark is lifted', async () => {
    sb = await sandbox({ contractLimit: 1 });
    const store = new FileUsageStore(dir);
    const one = meteredClient(store);
    const two = meteredClient(store);
    ok(await one.t.client.lookupOrganization({ country: 'US', name: 'Gadget Works' }));
    const sc005 = failed(await one.t.client.lookupOrganization({ country: 'US', name: 'Widget Co' }));
    assert.deepEqual([sc005.kind, sc005.code], ['limit', 'SC005']);
    const calls = (await sb.customer()).dataCalls;
    const refused = failed(await two.t.client.lookupOrganization({ country: 'US', name: 'Other' }));
    assert.equal(refused.kind, 'limit');
    assert.match(refused.text, /The contract of the connection "metered" reached its limit this month: the service answered SC005 at .*; nothing was sent\./);
    assert.equal((await sb.customer()).dataCalls, calls, 'the second client sent nothing');
    assert.ok((await two.meter.usage()).reachedAt !== undefined);
    await store.clearReached(contractScope('metered', endpointsFor(sb.url)), (await two.meter.usage()).periodStart);
    await sb.admin('POST', 'customers/acme/contract', { contractLimit: 10 });
    ok(await two.t.client.lookupOrganization({ country: 'US', name: 'Other' }));
  });

  it('sends no call past the run\'s ceiling', async () => {
    sb = await sandbox();
    const { t } = meteredClient();
    const ceiling = new CallCeiling(2);
    ok(await t.client.lookupIp({ ip: '203.0.113.1' }, { ceiling }));
    ok(await t.client.lookupIp({ ip: '203.0.113.2' }, { ceiling }));
    const past = failed(await t.client.lookupIp({ ip: '203.0.113.3' }, { ceiling }));
    assert.equal(past.kind, 'ceiling');
    assert.equal((await sb.customer()).dataCalls, 2);
  });
});

describe('the state directory\'s count', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-usage-files-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('counts, gives back, marks and lifts; a mark cut short still marks', async () => {
    const store: UsageStore = new FileUsageStore(dir);
    await Promise.all(Array.from({ length: 50 }, () => store.take('s', '2025-06-01', 86_400_000)));
    await store.giveBack('s', '2025-06-01');
    assert.deepEqual(await store.read('s', '2025-06-01'), { used: 49 });
    assert.deepEqual(await store.read('s', '2025-07-01'), { used: 0 });
    await store.markReached('s', '2025-06-01', 1234, 86_400_000);
    assert.deepEqual(await store.take('s', '2025-06-01', 86_400_000), { counted: false, reachedAt: 1234 });
    assert.deepEqual(await store.read('s', '2025-06-01'), { used: 49, reachedAt: 1234 });
    await store.clearReached('s', '2025-06-01');
    assert.deepEqual(await store.take('s', '2025-06-01', 86_400_000), { counted: true });
    const files = await readdir(join(dir, 'usage'));
    assert.ok(files.every((f) => /^[0-9a-f]{32}-2025-06-01\.(calls|notsent)$/.test(f)), files.join(', '));
    await writeFile(join(dir, 'usage', files.find((f) => f.endsWith('.calls'))?.replace('.calls', '.reached') ?? ''), '{"at": 12');
    assert.equal((await store.take('s', '2025-06-01', 86_400_000)).counted, false);
  });

  it('never writes through a link at a count\'s place, and clears out periods untouched for longer than they are kept', async () => {
    const first = new FileUsageStore(dir);
    await first.take('s', '2025-04-01', 1000);
    const old = (await readdir(join(dir, 'usage')))[0];
    await utimes(join(dir, 'usage', old), new Date(0), new Date(0));
    await new FileUsageStore(dir).take('s', '2025-06-01', 1000);
    assert.deepEqual((await readdir(join(dir, 'usage'))).filter((f) => f.includes('2025-04-01')), [], 'the long-ended period is gone');
    const name = (await readdir(join(dir, 'usage')))[0].replace('2025-06-01', '2025-07-01');
    const target = join(dir, 'elsewhere');
    await mkdir(target);
    await symlink(join(target, 'victim'), join(dir, 'usage', name));
    await assert.rejects(new FileUsageStore(dir).take('s', '2025-07-01', 1000), /cannot be written \(ELOOP\)/);
    await assert.rejects(lstat(join(target, 'victim')), 'nothing was made through the link');
  });
});

describe('the count on a coordinator (real redis-server)', function () {
  this.timeout(30_000);
  let redis: RedisServer;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis?.stop());

  it('counts as one across clients, refuses a marked period, and keeps the keys only as long as asked, under hashed names', async () => {
    const [a, b] = await Promise.all([connectCoordinator({ url: redis.url }), connectCoordinator({ url: redis.url })]);
    try {
      await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).usage.take('contract|acct', '2025-06-01', 60_000)));
      await a.usage.giveBack('contract|acct', '2025-06-01');
      assert.deepEqual(await b.usage.read('contract|acct', '2025-06-01'), { used: 39 });
      await b.usage.markReached('contract|acct', '2025-06-01', 99, 60_000);
      assert.deepEqual(await a.usage.take('contract|acct', '2025-06-01', 60_000), { counted: false, reachedAt: 99 });
      assert.equal((await a.usage.read('contract|acct', '2025-06-01')).used, 39);
      const keys = redis.cli('--scan', '--pattern', 'bizdata:v1:*').trim().split('\n').sort();
      assert.equal(keys.length, 2);
      for (const k of keys) {
        assert.doesNotMatch(k, /acct/);
        const ttl = Number(redis.cli('PTTL', k).trim());
        assert.ok(ttl > 0 && ttl <= 60_000, `${k}: ${ttl}`);
      }
      await a.usage.clearReached('contract|acct', '2025-06-01');
      assert.deepEqual(await b.usage.take('contract|acct', '2025-06-01', 60_000), { counted: true });
    } finally {
      await a.dispose();
      await b.dispose();
    }
  });
});
