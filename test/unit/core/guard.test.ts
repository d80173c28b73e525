import * as assert from 'node:assert/strict';
import type { Credentials } from '../../../src/core/model';
import { accountKey, type Session } from '../../../src/core/accounts/session';
import { LockoutGuard } from '../../../src/core/accounts/guard';
import { MemoryGuardStore } from '../../../src/core/storage/stores';
import { describeCode } from '../../../src/core/codes/codes';
import { CANARY, closeAll, endpointsFor, failed, sandbox, sandboxWithClient, testClient, type Sandbox, type TestClient } from './harness';

const ORG = { country: 'US', name: 'Example Corp' } as const;

describe('lockout guard and calls that must not be retried', () => {
  let sb: Sandbox;
  let t: TestClient;

  afterEach(() => closeAll(t, sb));

  describe('wrong credentials', () => {
    beforeEach(async () => ({ sb, t } = await sandboxWithClient()));

    it('B: one authentication attempt, never repeated automatically with the same credentials', async () => {
      t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'wrong-1' };
      const first = failed(await t.client.lookupOrganization(ORG));
      assert.equal(first.kind, 'auth');
      assert.equal(first.code, 'SC001');
      assert.equal(first.status, 401);
      assert.match(first.advice, /1 failed sign-in in a row/);
      // Ten more lookups (as a batch would make) send nothing: the same credentials were refused.
      const again = await Promise.all(Array.from({ length: 10 }, () => t.client.lookupOrganization(ORG)));
      for (const r of again) assert.equal(failed(r).kind, 'auth');
      const c = await sb.customer();
      assert.equal(c.tokenRequests, 1);
      assert.equal(c.authFailures, 1);
      assert.equal(await t.guard.read(accountKey(endpointsFor(sb.url), t.credentials.b as Credentials)), 1);
    });

    it('B: refuses the attempt that could lock the account, and never lets the client lock it', async () => {
      for (const pw of ['wrong-1', 'wrong-2']) {
        t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: pw };
        assert.equal(failed(await t.client.lookupOrganization(ORG)).kind, 'auth');
      }
      t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'wrong-3' };
      const guard = failed(await t.client.lookupOrganization(ORG));
      assert.equal(guard.kind, 'guard');
      // The account is on a local sandbox: the words say so, and how to clear the count there.
      assert.match(guard.text, /2 sign-ins in a row have failed for this account, and one more failure makes the sandbox lock the account\./);
      assert.match(guard.advice, /bizdata token --interface b --sandbox URL --confirm-risk\): a successful sign-in resets it/);
      assert.equal((await t.client.status('b')).state, 'locked');
      // A client started later with the persisted counts (an extension restart) shows it as well.
      const restarted = testClient(sb.url, { guardStore: t.guard });
      const status = await restarted.client.status('b');
      await restarted.client.dispose();
      assert.deepEqual([status.state, status.credentialFailures], ['locked', 2]);
      // Even the right password is held back until the caller confirms the risk.
      t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: CANARY.password };
      assert.equal(failed(await t.client.refreshToken('b')).kind, 'guard');
      const user = (await sb.admin('GET', `users/${CANARY.user}`)) as { locked: boolean; failures: number };
      assert.deepEqual({ locked: user.locked, failures: user.failures }, { locked: false, failures: 2 });
      assert.equal((await sb.customer()).tokenRequests, 2);

      // With confirmation and the right password: success, and the guard's count is reset.
      const r = await t.client.lookupOrganization(ORG, { confirmRisk: true });
      assert.ok(r.ok);
      assert.equal((await t.client.status('b')).credentialFailures, 0);
    });

    it('B: a second client sharing the guard store (another window) is held back too', async () => {
      t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'wrong-1' };
      failed(await t.client.lookupOrganization(ORG));
      const other = testClient(sb.url, { guardStore: t.guard });
      try {
        other.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'wrong-2' };
        assert.equal(failed(await other.client.lookupOrganization(ORG)).kind, 'auth');
        assert.equal(failed(await t.client.lookupOrganization(ORG)).kind, 'guard');
      } finally {
        await other.client.dispose();
      }
      const user = (await sb.admin('GET', `users/${CANARY.user}`)) as { locked: boolean };
      assert.equal(user.locked, false);
    });

    it('A: a wrong secret is tried exactly once', async () => {
      t.credentials.a = { interfaceId: 'a', consumerKey: CANARY.consumerKey, consumerSecret: 'wrong' };
      const f = failed(await t.client.lookupIp({ ip: '203.0.113.7' }));
      assert.equal(f.kind, 'auth');
      assert.equal(f.code, 'invalid_client');
      assert.equal(failed(await t.client.lookupIp({ ip: '203.0.113.7' })).kind, 'auth');
      assert.equal((await sb.customer()).tokenRequests, 1);
    });
  });

  describe('codes that stop at once', () => {
    it('SC003: expired credentials stop after one attempt', async () => {
      sb = await sandbox({ credentialsExpired: true });
      t = testClient(sb.url);
      const f = failed(await t.client.lookupOrganization(ORG));
      assert.equal(f.code, 'SC003');
      // The service's own words: its ResultText and the ResultDescription after it.
      assert.equal(f.text, "Your user credentials have expired. The API user's credentials have expired; support must renew them.");
      assert.equal(f.kind, 'auth');
      assert.equal((await sb.customer()).tokenRequests, 1);
    });

    it('SC004: an expired subscriber number stops the data call with no retry', async () => {
      sb = await sandbox({ subscriberExpires: new Date(Date.now() + 3_600_000).toISOString() });
      t = testClient(sb.url);
      assert.ok((await t.client.refreshToken('a')).ok);
      await sb.admin('POST', 'clock', { advanceSeconds: 7200 });
      const f = failed(await t.client.lookupIp({ ip: '203.0.113.7' }));
      assert.equal(f.code, 'SC004');
      assert.equal(f.kind, 'limit');
      assert.equal(f.advice, 'Contact support.');
      const c = await sb.customer();
      assert.equal(c.resultCodes.SC004, 1);
      assert.equal(c.tokenRequests, 1);
    });

    it('SC005: the contract limit stops at once, on both interfaces', async () => {
      sb = await sandbox({ contractLimit: 2 });
      t = testClient(sb.url);
      assert.ok((await t.client.lookupIp({ ip: '203.0.113.7' })).ok);
      assert.ok((await t.client.lookupOrganization(ORG)).ok);
      const a = failed(await t.client.lookupIp({ ip: '203.0.113.7' }));
      const b = failed(await t.client.lookupOrganization(ORG));
      for (const f of [a, b]) {
        assert.equal(f.code, 'SC005');
        assert.equal(f.kind, 'limit');
        assert.match(f.text, /^Maximum limit permitted by the contract reached\. The customer has used every data call its contract permits/);
        assert.equal(f.meaning, describeCode('SC005')?.meaning);
      }
      const c = await sb.customer();
      assert.equal(c.resultCodes.SC005, 2, 'no retries');
      assert.equal(c.tokenRequests, 2);
    });
  });

  describe('SC006', () => {
    it('recovers under a tight limit by waiting and retrying with the same token', async () => {
      sb = await sandbox({ qps: 5, concurrency: 2, responseDelayMs: 30 });
      // The client's own limiter is set far looser than the contract, so SC006 does happen.
      t = testClient(sb.url, { limits: { qps: 100, concurrency: 10 } });
      const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => t.client.lookupIp({ ip: `198.51.100.${i + 1}` })));
      for (const r of rs) assert.ok(r.ok, r.ok ? '' : `${r.code} ${r.text}`);
      const c = await sb.customer();
      assert.ok((c.resultCodes.SC006 ?? 0) > 0, 'the limit was hit');
      assert.equal(c.tokenRequests, 1, 'the same token throughout');
      assert.equal(c.resultCodes.CM000, 13);
      assert.ok(t.logs.some((l) => /SC006: every call waits \d+ ms/.test(l)));
    });

    it('meets the limit without SC006 when the limiter matches the contract', async () => {
      sb = await sandbox({ qps: 20, concurrency: 2, responseDelayMs: 5 });
      t = testClient(sb.url, { limits: { qps: 20, concurrency: 2 } });
      const rs = await Promise.all(Array.from({ length: 30 }, (_, i) => t.client.lookupIp({ ip: `198.51.100.${i + 1}` })));
      rs.forEach((r) => assert.ok(r.ok));
      const c = await sb.customer();
      assert.equal(c.resultCodes.SC006 ?? 0, 0);
      assert.ok(c.maxConcurrency <= 2);
    });
  });
});

describe('the lockout guard\'s words: the service\'s support, or how to clear a local sandbox\'s count', () => {
  const session = (host: string): Session => ({
    id: 'b',
    key: `b|${host}|user`,
    account: 'user',
    credentials: { interfaceId: 'b', user: 'user', password: 'p' },
    owner: { key: `v2|b|${host}|user`, secret: 'p' },
  });
  for (const [host, says, advice] of [
    ['api.example.com', /one more failure locks the account until the service operator's support unlocks it\./, /^Check the user name and password first\./],
    ['loopback:8080', /one more failure makes the sandbox lock the account\./, /local sandbox.*resets it.*POST \/_sandbox\/users\/USER\/unlock/],
  ] as const) {
    it(`after two failures at ${host}`, async () => {
      const store = new MemoryGuardStore();
      const guard = new LockoutGuard(store);
      const s = session(host);
      for (let i = 0; i < 2; i++) {
        await store.begin(s.key);
        await store.end(s.key, 'failed');
      }
      const verdict = await guard.begin(s, false);
      assert.equal(verdict.ok, false);
      if (verdict.ok) return;
      assert.match(verdict.text, says);
      assert.match(verdict.advice, advice);
    });
  }
});
