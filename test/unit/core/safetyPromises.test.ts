// Safety promises that each had no test to notice them broken, checked against a real sandbox and
// counted by its own request log: one sign-in shared by every caller even when it fails uncounted,
// the guard's second look after counting, a bounded number of throttle retries, and a new token
// hidden like any secret from the moment it is issued.
import * as assert from 'node:assert/strict';
import type { AttemptOutcome, GuardStore } from '../../../src/core/ports';
import { MemoryGuardStore } from '../../../src/core/storage/stores';
import { CANARY, closeAll, failed, ok, sandbox, testClient, type Sandbox, type TestClient } from './harness';

const ORG = { country: 'US', name: 'Example Corp' } as const;
const SIGN_IN = { a: / POST \/v1\/token /, b: / POST \/Authentication\b/ } as const;

/** A guard store shared with another process, which counts an attempt of its own just before this one's. */
class CountedMeanwhile implements GuardStore {
  constructor(
    private readonly shared: GuardStore,
    public meanwhile?: () => Promise<void>,
  ) {}
  read(account: string): Promise<number> {
    return this.shared.read(account);
  }
  async begin(account: string): Promise<number> {
    const other = this.meanwhile;
    this.meanwhile = undefined;
    if (other) await other();
    return this.shared.begin(account);
  }
  end(account: string, outcome: AttemptOutcome): Promise<void> {
    return this.shared.end(account, outcome);
  }
}

describe('safety promises, each counted by the sandbox', () => {
  let sb: Sandbox;
  let t: TestClient;
  let log: string[];
  const opened: TestClient[] = [];
  const count = (pattern: RegExp): number => log.filter((l) => pattern.test(l)).length;

  beforeEach(async () => {
    log = [];
    sb = await sandbox({}, undefined, undefined, { log: (line) => log.push(line) });
  });
  afterEach(async () => {
    for (const c of opened.splice(0)) await c.client.dispose();
    await closeAll(t, sb);
  });

  for (const id of ['a', 'b'] as const) {
    it(`${id.toUpperCase()}: callers waiting on one sign-in that fails uncounted (503) share its failure: one sign-in is sent, not one each`, async () => {
      await sb.admin('POST', 'faults', { type: 'status', status: 503, path: id === 'a' ? '/v1/token' : '/Authentication' });
      t = testClient(sb.url);
      const call = (i: number): Promise<unknown> => (id === 'a' ? t.client.lookupIp({ ip: `198.51.100.${i + 1}` }) : t.client.lookupOrganization({ ...ORG, name: `Example ${i}` }));
      const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => call(i)));
      for (const r of rs) assert.equal(failed(r as never).status, 503);
      assert.equal(count(SIGN_IN[id]), 1, log.join('\n'));
    });
  }

  it('B: another process counting a failure between this one\'s read and its count stops this attempt: the third failure is never sent', async () => {
    const shared = new MemoryGuardStore();
    const store = new CountedMeanwhile(shared);
    t = testClient(sb.url, { guardStore: store });
    const other = testClient(sb.url, { guardStore: shared });
    opened.push(other);
    t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'wrong-1' };
    assert.equal(failed(await t.client.lookupOrganization(ORG)).kind, 'auth');

    // The other process signs in with another wrong password after this one read one failure, before it counts.
    other.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'wrong-2' };
    store.meanwhile = async () => assert.equal(failed(await other.client.lookupOrganization(ORG)).kind, 'auth');
    t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'wrong-3' };
    const third = failed(await t.client.lookupOrganization(ORG));
    assert.equal(store.meanwhile, undefined, 'the other process did not run between read and count');
    assert.equal(third.kind, 'guard', third.text);
    assert.equal(count(SIGN_IN.b), 2);
    assert.deepEqual(await sb.admin('GET', `users/${CANARY.user}`), { user: CANARY.user, locked: false, failures: 2 });
  });

  const throttles = [
    { name: 'SC006', status: 401, body: { error: { errorCode: 'SC006', errorMessage: 'Transaction not processed, permitted concurrency limit exceeded.' } } },
    { name: 'HTTP 429', status: 429, body: {} },
  ];
  for (const th of throttles) {
    it(`${th.name}: a throttled call is sent again at most maxRetries times, then its refusal reaches the caller`, async () => {
      // More refusals than the retries allow: a client that kept retrying would end with a success.
      await sb.admin('POST', 'faults', { type: 'respond', status: th.status, headers: { 'retry-after': '0' }, body: th.body, path: '/v1/duns-search', count: 10 });
      t = testClient(sb.url, { retry: { maxRetries: 3 } });
      const r = failed(await t.client.lookupIp({ ip: '198.51.100.7' }));
      assert.equal(r.status, th.status);
      assert.equal(count(/ GET \/v1\/duns-search\//), 1 + 3, log.join('\n'));
    });
  }

  it('a refreshed token is a secret from the moment it is issued: quoted in an error text, it is redacted', async () => {
    t = testClient(sb.url);
    ok(await t.client.lookupIp({ ip: '198.51.100.8' }));
    const first = await t.client.revealToken('a');
    ok(await t.client.refreshToken('a'));
    const token = await t.client.revealToken('a');
    assert.ok(token !== undefined && first !== undefined && token !== first, 'a new token was issued');
    const said = `The token ${token} was revoked by an administrator.`;
    await sb.admin('POST', 'faults', { type: 'respond', status: 500, body: { error: { errorCode: 'XY001', errorMessage: said } }, path: '/v1/duns-search', count: 1 });
    const r = failed(await t.client.lookupIp({ ip: '198.51.100.9' }));
    assert.equal(r.text, 'The token <redacted> was revoked by an administrator.');
    for (const line of t.logs) assert.ok(!line.includes(token), line);
  });
});
