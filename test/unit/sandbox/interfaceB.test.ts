import * as assert from 'node:assert/strict';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/server';
import { admin, authB, call, orgLookup, roomyConfig, tokenB, transactionDetail } from './helpers';

const SC001 = 'Your user credentials are invalid.';

function assertFailedAuth(r: Awaited<ReturnType<typeof authB>>, code = 'SC001'): void {
  assert.equal(r.status, 401);
  assert.equal(r.headers.authorization, 'INVALID CREDENTIALS');
  assert.equal(r.json.TransactionResult.SeverityText, 'Fatal');
  assert.equal(r.json.TransactionResult.ResultID, code);
  assert.equal(typeof r.json.TransactionResult.ResultMessage.ResultDescription, 'string');
  assert.equal(r.json.AuthenticationDetail, undefined);
}

function assertDataFailure(r: Awaited<ReturnType<typeof orgLookup>>, code: string, text: string): void {
  assert.equal(r.status, 401);
  const m = r.json.MatchResponse;
  assert.equal(m.TransactionResult.SeverityText, 'Error');
  assert.equal(m.TransactionResult.ResultID, code);
  assert.equal(m.TransactionResult.ResultText, text);
  assert.equal(typeof m.TransactionResult.ResultMessage.ResultDescription, 'string');
  assert.equal(m.TransactionDetail.ApplicationTransactionID, 'BizDataSandbox');
  assert.match(m.TransactionDetail.ServiceTransactionID, /^sbx-/);
}

describe('sandbox: Interface B states and security codes', () => {
  let sb: RunningSandbox;
  beforeEach(async () => {
    sb = await startSandbox({
      config: {
        customers: [
          roomyConfig().customers[0],
          {
            id: 'expired-creds', users: [{ user: 'old-user', password: 'old-password-1', credentialsExpired: true }],
          },
          {
            id: 'expired-subscriber', subscriberExpires: '2001-01-01', users: [{ user: 'lapsed', password: 'lapsed-password' }],
            clients: [{ consumerKey: 'lapsed-key', consumerSecret: 'lapsed-secret' }],
          },
          { id: 'locked-at-start', users: [{ user: 'frozen', password: 'frozen-password', locked: true }] },
        ],
      },
    });
  });
  afterEach(async () => {
    await sb.close();
  });

  it('a wrong password fails with 401, INVALID CREDENTIALS, Fatal, SC001 and the echoed TransactionDetail', async () => {
    const r = await authB(sb, 'sandbox-user', 'wrong');
    assertFailedAuth(r);
    assert.equal(r.json.TransactionResult.ResultText, SC001);
    assert.deepEqual(r.json.TransactionDetail, transactionDetail().TransactionDetail);
    assert.ok(r.headers.date);
  });

  it('an unknown user fails the same way', async () => {
    assertFailedAuth(await authB(sb, 'nobody', 'whatever'));
  });

  it('missing x-svc-user or x-svc-pwd fails with SC001 and says which headers are needed', async () => {
    const r = await call(sb, 'POST', '/Authentication/V2.0/', { headers: { 'x-svc-user': 'sandbox-user' }, body: transactionDetail() });
    assertFailedAuth(r);
    assert.match(r.json.TransactionResult.ResultMessage.ResultDescription, /x-svc-pwd/);
  });

  it('three failed attempts lock the account: the right password then gets SC001 until support unlocks', async () => {
    for (let i = 0; i < 3; i++) assertFailedAuth(await authB(sb, 'sandbox-user', `wrong-${i}`));
    const locked = await authB(sb);
    assertFailedAuth(locked);
    assert.match(locked.json.TransactionResult.ResultMessage.ResultDescription, /locked/);
    assert.deepEqual((await admin(sb, 'GET', 'users/sandbox-user')).json, { user: 'sandbox-user', locked: true, failures: 3 });
    const unlock = await admin(sb, 'POST', 'users/sandbox-user/unlock');
    assert.equal(unlock.status, 200);
    assert.equal(unlock.json.locked, false);
    assert.equal((await authB(sb)).status, 200);
  });

  it('a token issued before the lock stops working once the account is locked', async () => {
    const token = await tokenB(sb);
    for (let i = 0; i < 3; i++) await authB(sb, 'sandbox-user', 'wrong');
    assertDataFailure(await orgLookup(sb, token), 'SC001', SC001);
  });

  it('a successful authentication resets the failure count', async () => {
    await authB(sb, 'sandbox-user', 'wrong');
    await authB(sb, 'sandbox-user', 'wrong');
    assert.equal((await authB(sb)).status, 200);
    assert.equal((await admin(sb, 'GET', 'users/sandbox-user')).json.failures, 0);
    await authB(sb, 'sandbox-user', 'wrong');
    await authB(sb, 'sandbox-user', 'wrong');
    assert.equal((await authB(sb)).status, 200, 'two more failures after a success do not lock');
  });

  it('an account locked in the config refuses the right password', async () => {
    assertFailedAuth(await authB(sb, 'frozen', 'frozen-password'));
  });

  it('expired credentials give SC003 on authentication', async () => {
    const r = await authB(sb, 'old-user', 'old-password-1');
    assertFailedAuth(r, 'SC003');
    assert.equal(r.json.TransactionResult.ResultText, 'Your user credentials have expired.');
  });

  it('an expired subscriber number gives SC004 on authentication', async () => {
    const r = await authB(sb, 'lapsed', 'lapsed-password');
    assertFailedAuth(r, 'SC004');
    assert.equal(r.json.TransactionResult.ResultText, 'Your Subscriber number has expired.');
  });

  it('a token expires 24 hours after issue (virtual clock): SC001 with SeverityText Error; a new one works', async () => {
    const token = await tokenB(sb);
    await admin(sb, 'POST', 'clock', { advanceSeconds: 86399 });
    assert.equal((await orgLookup(sb, token)).status, 200, 'still valid one second before expiry');
    await admin(sb, 'POST', 'clock', { advanceSeconds: 1 });
    const r = await orgLookup(sb, token);
    assertDataFailure(r, 'SC001', SC001);
    assert.match(r.json.MatchResponse.TransactionResult.ResultMessage.ResultDescription, /expired/);
    assert.equal((await orgLookup(sb, await tokenB(sb))).status, 200);
  });

  for (const reason of ['release-update', 'disaster-recovery', 'contract-expiration']) {
    it(`a ${reason} invalidates B tokens before 24 hours: SC001, then a new token works`, async () => {
      const token = await tokenB(sb);
      const inv = await admin(sb, 'POST', 'tokens/invalidate', { reason });
      assert.equal(inv.status, 200);
      assert.equal(inv.json.invalidated, 1);
      assert.equal(inv.json.reason, reason);
      assertDataFailure(await orgLookup(sb, token), 'SC001', SC001);
      assert.equal((await orgLookup(sb, await tokenB(sb))).status, 200);
    });
  }

  it('invalidation can target one user', async () => {
    const token = await tokenB(sb);
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate', { user: 'lapsed' })).json.invalidated, 0);
    assert.equal((await orgLookup(sb, token)).status, 200);
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate', { user: 'sandbox-user' })).json.invalidated, 1);
    assertDataFailure(await orgLookup(sb, token), 'SC001', SC001);
  });

  it('a password change applies at once: the old password fails, the new one works', async () => {
    const token = await tokenB(sb);
    const r = await admin(sb, 'POST', 'users/sandbox-user/password', { password: 'brand-new-pass' });
    assert.equal(r.status, 200);
    assertFailedAuth(await authB(sb));
    assert.equal((await authB(sb, 'sandbox-user', 'brand-new-pass')).status, 200);
    assert.equal((await orgLookup(sb, token)).status, 200, 'tokens issued before the change stay valid');
  });

  it('a missing, unknown or Bearer-prefixed token gets SC001 with a hint', async () => {
    assertDataFailure(await call(sb, 'GET', '/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=X&match=true'), 'SC001', SC001);
    assertDataFailure(await orgLookup(sb, 'sbx.not-a-token'), 'SC001', SC001);
    const token = await tokenB(sb);
    const r = await orgLookup(sb, `Bearer ${token}`);
    assertDataFailure(r, 'SC001', SC001);
    assert.match(r.json.MatchResponse.TransactionResult.ResultMessage.ResultDescription, /without "Bearer"/);
  });

  it('an Interface A token is not accepted on Interface B', async () => {
    const a = await call(sb, 'POST', '/v1/token', {
      headers: { authorization: `Basic ${Buffer.from('sandbox-key:sandbox-secret').toString('base64')}`, origin: 'https://x.example' },
      body: { grant_type: 'client_credentials' },
    });
    assertDataFailure(await orgLookup(sb, a.json.access_token as string), 'SC001', SC001);
  });

  it('counts authentication successes, failures and result codes per customer', async () => {
    await authB(sb, 'sandbox-user', 'wrong');
    await tokenB(sb);
    await authB(sb, 'old-user', 'old-password-1');
    const s = (await admin(sb, 'GET', 'stats')).json;
    assert.equal(s.customers.sandbox.tokenRequests, 2);
    assert.equal(s.customers.sandbox.authFailures, 1);
    assert.equal(s.customers.sandbox.authSuccesses, 1);
    assert.equal(s.customers.sandbox.resultCodes.SC001, 1);
    assert.equal(s.customers.sandbox.resultCodes.CM000, 1);
    assert.equal(s.customers['expired-creds'].resultCodes.SC003, 1);
    assert.equal(s.requests, 3);
  });
});
