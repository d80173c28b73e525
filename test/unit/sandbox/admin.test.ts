import * as assert from 'node:assert/strict';
import { startSandbox } from '../../../src/sandbox/server';
import { admin, call, ipLookup, orgLookup, roomyConfig, tokenA, tokenB, useSandbox } from './helpers';

describe('sandbox: admin API', () => {
  const sb = useSandbox({ adminKey: 'test-admin-key' }, true);

  it('uses the given admin key', () => {
    assert.equal(sb.adminKey, 'test-admin-key');
  });

  const routes: Array<['GET' | 'POST' | 'DELETE', string]> = [
    ['GET', 'stats'], ['POST', 'users/sandbox-user/unlock'], ['POST', 'users/sandbox-user/password'], ['POST', 'tokens/invalidate'],
    ['POST', 'clock'], ['POST', 'faults'], ['DELETE', 'faults'], ['GET', 'nothing-here'], ['GET', 'customers/sandbox/contract'], ['POST', 'customers/sandbox/contract'],
  ];
  for (const [method, path] of routes) {
    it(`${method} /_sandbox/${path} is 403 without the key or with a wrong one`, async () => {
      const none = await call(sb, method, `/_sandbox/${path}`);
      assert.equal(none.status, 403);
      assert.equal(none.json.error.errorCode, 'forbidden');
      const wrong = await call(sb, method, `/_sandbox/${path}`, { headers: { 'x-sandbox-admin': 'test-admin-kex' } });
      assert.equal(wrong.status, 403);
    });
  }

  it('the config adminKey applies when no option is given', async () => {
    const other = await startSandbox({ config: roomyConfig({}, { adminKey: 'from-config' }) });
    try {
      assert.equal(other.adminKey, 'from-config');
    } finally {
      await other.close();
    }
  });

  it('stats has the documented shape and does not count admin requests', async () => {
    await orgLookup(sb, await tokenB(sb));
    await admin(sb, 'GET', 'stats');
    const r = await admin(sb, 'GET', 'stats');
    assert.deepEqual(r.json, {
      requests: 2,
      customers: {
        sandbox: {
          tokenRequests: 1, authSuccesses: 1, authFailures: 0, dataCalls: 1, resultCodes: { CM000: 2 }, maxConcurrency: 1, contractUsed: 1,
        },
      },
    });
  });

  it("shows a customer's contract, and changes it as support would: a raised limit lets calls through after SC005", async () => {
    assert.deepEqual((await admin(sb, 'POST', 'customers/sandbox/contract', { contractLimit: 1 })).json, { customer: 'sandbox', contractLimit: 1, contractUsed: 0, dataCalls: 0 });
    const token = await tokenB(sb);
    assert.equal((await orgLookup(sb, token)).status, 200);
    const refused = await orgLookup(sb, token);
    assert.equal(refused.json.MatchResponse.TransactionResult.ResultID, 'SC005');
    assert.deepEqual((await admin(sb, 'GET', 'customers/sandbox/contract')).json, { customer: 'sandbox', contractLimit: 1, contractUsed: 1, dataCalls: 2 });
    assert.equal((await admin(sb, 'POST', 'customers/sandbox/contract', { contractLimit: 2 })).status, 200);
    assert.equal((await orgLookup(sb, token)).status, 200);
    assert.deepEqual((await admin(sb, 'POST', 'customers/sandbox/contract', { contractLimit: null, resetUsed: true })).json, { customer: 'sandbox', contractLimit: null, contractUsed: 0, dataCalls: 3 });
    for (const bad of [{ contractLimit: -1 }, { contractLimit: 1.5 }, { contractLimit: '5' }, { resetUsed: 'yes' }]) {
      const e = await admin(sb, 'POST', 'customers/sandbox/contract', bad);
      assert.equal(e.status, 400, JSON.stringify(bad));
    }
    assert.equal((await admin(sb, 'GET', 'customers/nobody/contract')).status, 404);
    assert.equal((await admin(sb, 'DELETE', 'customers/sandbox/contract')).status, 405);
  });

  it('the clock moves forward only and reports the offset', async () => {
    const r = await admin(sb, 'POST', 'clock', { advanceSeconds: 3600 });
    assert.equal(r.status, 200);
    assert.equal(r.json.offsetSeconds, 3600);
    assert.equal((await admin(sb, 'GET', 'clock')).json.offsetSeconds, 3600);
    for (const bad of [{ advanceSeconds: -1 }, { advanceSeconds: 'x' }, {}]) {
      const e = await admin(sb, 'POST', 'clock', bad);
      assert.equal(e.status, 400);
      assert.match(e.json.error.errorMessage, /advanceSeconds/);
    }
  });

  it('the clock refuses to run more than 100 years ahead, saying how far it may still move', async () => {
    assert.equal((await admin(sb, 'POST', 'clock', { advanceSeconds: 3_000_000_000 })).status, 200);
    const tooFar = await admin(sb, 'POST', 'clock', { advanceSeconds: 200_000_000 });
    assert.equal(tooFar.status, 400);
    assert.match(tooFar.json.error.errorMessage, /at most 3153600000 seconds \(100 years\) ahead.* at most 153600000 more seconds/);
    assert.equal((await admin(sb, 'GET', 'clock')).json.offsetSeconds, 3_000_000_000, 'a refused move moves nothing');
    assert.equal((await admin(sb, 'POST', 'clock', { advanceSeconds: 153_600_000 })).status, 200, 'up to the limit exactly');
    const stats = await admin(sb, 'GET', 'stats');
    assert.equal(stats.status, 200, 'every answer still works at the limit');
    const year = new Date(Date.now() + 3_153_600_000_000).getUTCFullYear();
    assert.match(String(stats.headers.date), new RegExp(` ${year} `));
  });

  it('unknown users are 404; bad passwords and reasons are 400', async () => {
    assert.equal((await admin(sb, 'POST', 'users/ghost/unlock')).status, 404);
    assert.equal((await admin(sb, 'POST', 'users/ghost/password', { password: 'x-password' })).status, 404);
    assert.equal((await admin(sb, 'POST', 'users/sandbox-user/password', {})).status, 400);
    assert.equal((await admin(sb, 'POST', 'users/sandbox-user/password', { password: 'a\nb' })).status, 400);
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate', { reason: 'boredom' })).status, 400);
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate', { user: 'ghost' })).status, 404);
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate', { user: 5 })).status, 400);
    const badJson = await call(sb, 'POST', '/_sandbox/clock', { headers: { 'x-sandbox-admin': 'test-admin-key' }, rawBody: '{' });
    assert.equal(badJson.status, 400);
    assert.equal((await admin(sb, 'GET', 'users/sandbox-user/unlock')).status, 405);
    assert.equal((await admin(sb, 'GET', 'nothing-here')).status, 404);
  });

  it('invalidation without a filter drops every B token but no A token; by customer drops both', async () => {
    const [a, b] = [await tokenA(sb), await tokenB(sb)];
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate')).json.invalidated, 1);
    assert.equal((await ipLookup(sb, a)).status, 200);
    assert.equal((await orgLookup(sb, b)).status, 401);
    await tokenB(sb);
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate', { customer: 'sandbox' })).json.invalidated, 2);
    assert.equal((await ipLookup(sb, a)).status, 401);
  });
});
