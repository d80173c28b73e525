import * as assert from 'node:assert/strict';
import { admin, assertFailedAuth, assertMatchFailure, authB, call, conditionsConfig, orgLookup, tokenB, transactionDetail, useSandbox } from './helpers';

const SC001 = 'Your user credentials are invalid.';

describe('sandbox: Interface B states and security codes', () => {
  const sb = useSandbox({ config: conditionsConfig() }, true);

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
    assertMatchFailure(await orgLookup(sb, token), 401, 'SC001', SC001);
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
    assertMatchFailure(r, 401, 'SC001', SC001);
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
      assertMatchFailure(await orgLookup(sb, token), 401, 'SC001', SC001);
      assert.equal((await orgLookup(sb, await tokenB(sb))).status, 200);
    });
  }

  it('invalidation can target one user', async () => {
    const token = await tokenB(sb);
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate', { user: 'lapsed' })).json.invalidated, 0);
    assert.equal((await orgLookup(sb, token)).status, 200);
    assert.equal((await admin(sb, 'POST', 'tokens/invalidate', { user: 'sandbox-user' })).json.invalidated, 1);
    assertMatchFailure(await orgLookup(sb, token), 401, 'SC001', SC001);
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
    assertMatchFailure(await call(sb, 'GET', '/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=X&match=true'), 401, 'SC001', SC001);
    assertMatchFailure(await orgLookup(sb, 'sbx.not-a-token'), 401, 'SC001', SC001);
    const token = await tokenB(sb);
    const r = await orgLookup(sb, `Bearer ${token}`);
    assertMatchFailure(r, 401, 'SC001', SC001);
    assert.match(r.json.MatchResponse.TransactionResult.ResultMessage.ResultDescription, /without "Bearer"/);
  });

  it('an Interface A token is not accepted on Interface B', async () => {
    const a = await call(sb, 'POST', '/v1/token', {
      headers: { authorization: `Basic ${Buffer.from('sandbox-key:sandbox-secret').toString('base64')}`, origin: 'https://x.example' },
      body: { grant_type: 'client_credentials' },
    });
    assertMatchFailure(await orgLookup(sb, a.json.access_token as string), 401, 'SC001', SC001);
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

describe('sandbox: Interface B bad inputs', () => {
  const sb = useSandbox();
  let token: string;
  before(async () => {
    token = await tokenB(sb);
  });

  const creds = { 'x-svc-user': 'sandbox-user', 'x-svc-pwd': 'sandbox-password' };

  /** A 400 of the authentication call; it echoes the TransactionDetail the request sent, if any. */
  function assertBadAuth(r: Awaited<ReturnType<typeof call>>, message: RegExp, echo: unknown = {}): void {
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.json.TransactionDetail, echo);
    assert.equal(r.json.TransactionResult.ResultID, 'invalid_request');
    assert.match(r.json.TransactionResult.ResultMessage.ResultDescription, message);
  }

  it('/Authentication/ without a version is refused with the path to use', async () => {
    for (const path of ['/Authentication/', '/Authentication']) {
      assertBadAuth(await call(sb, 'POST', path, { headers: creds, body: transactionDetail() }), /version segment is mandatory.*\/Authentication\/V2\.0\//,
        transactionDetail().TransactionDetail);
    }
  });

  it('an unsupported authentication version is refused', async () => {
    assertBadAuth(await call(sb, 'POST', '/Authentication/V1.0/', { headers: creds, body: transactionDetail() }), /Unsupported.*V1\.0/,
      transactionDetail().TransactionDetail);
  });

  it('the version path works with and without the trailing slash', async () => {
    assert.equal((await call(sb, 'POST', '/Authentication/V2.0', { headers: creds, body: transactionDetail() })).status, 200);
  });

  const td = transactionDetail().TransactionDetail;
  const badBodies: Array<[string, unknown, RegExp]> = [
    ['no TransactionDetail', {}, /TransactionDetail is required/],
    ['TransactionDetail not an object', { TransactionDetail: 'x' }, /TransactionDetail is required/],
    ['no ApplicationTransactionID', { TransactionDetail: { ...td, ApplicationTransactionID: undefined } }, /ApplicationTransactionID/],
    ['an empty ServiceTransactionID', { TransactionDetail: { ...td, ServiceTransactionID: '' } }, /ServiceTransactionID/],
    ['no TransactionTimestamp', { TransactionDetail: { ...td, TransactionTimestamp: undefined } }, /TransactionTimestamp/],
    ['a timestamp that is not ISO 8601', { TransactionDetail: { ...td, TransactionTimestamp: 'yesterday' } }, /ISO 8601/],
    ['an impossible date', { TransactionDetail: { ...td, TransactionTimestamp: '2025-13-45T12:00:00Z' } }, /ISO 8601/],
    ['February 30th', { TransactionDetail: { ...td, TransactionTimestamp: '2025-02-30T12:00:00Z' } }, /2025-02-30T12:00:00Z.*not an ISO 8601 date-time that exists/],
    ['February 29th of a common year', { TransactionDetail: { ...td, TransactionTimestamp: '2025-02-29T12:00:00Z' } }, /exists/],
    ['April 31st', { TransactionDetail: { ...td, TransactionTimestamp: '2025-04-31T12:00:00+02:00' } }, /exists/],
    ['hour 24', { TransactionDetail: { ...td, TransactionTimestamp: '2025-01-31T24:00:00Z' } }, /exists/],
    ['an offset of 25 hours', { TransactionDetail: { ...td, TransactionTimestamp: '2025-01-31T12:00:00+25:00' } }, /ISO 8601/],
    ['a date without a time', { TransactionDetail: { ...td, TransactionTimestamp: '2025-01-31' } }, /date-time/],
    ['a time without an offset', { TransactionDetail: { ...td, TransactionTimestamp: '2025-01-31T12:00:00' } }, /\+02:00/],
    ['a JSON array', [], /JSON object/],
  ];
  for (const [name, body, message] of badBodies) {
    it(`authentication with ${name} is a 400 with a clear message`, async () => {
      const sent = (body as { TransactionDetail?: unknown }).TransactionDetail;
      const echo = typeof sent === 'object' && sent !== null ? JSON.parse(JSON.stringify(sent)) : {};
      assertBadAuth(await call(sb, 'POST', '/Authentication/V2.0/', { headers: creds, body }), message, echo);
    });
  }

  it('authentication with invalid JSON or no body is a 400', async () => {
    assertBadAuth(await call(sb, 'POST', '/Authentication/V2.0/', { headers: creds, rawBody: '{' }), /not valid JSON/);
    assertBadAuth(await call(sb, 'POST', '/Authentication/V2.0/', { headers: creds }), /empty/);
  });

  for (const stamp of ['2025-01-31T12:00:00.123+00:00', '2025-01-31T14:00:00+02:00', '2025-01-31T06:30:00-05:30', '2024-02-29T23:59:59.999Z', '2025-01-31T12:00Z', '2025-01-31T12:00:00+0000']) {
    it(`the timestamp ${stamp} is accepted and echoed`, async () => {
      const body = { TransactionDetail: { ...td, TransactionTimestamp: stamp } };
      const r = await call(sb, 'POST', '/Authentication/V2.0/', { headers: creds, body });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.TransactionDetail.TransactionTimestamp, stamp);
    });
  }

  const badQueries: Array<[string, string, RegExp]> = [
    ['no country', 'SubjectName=Acme&match=true', /CountryISOAlpha2Code.*required/],
    ['an unknown country', 'CountryISOAlpha2Code=XX&SubjectName=Acme&match=true', /not an assigned/],
    ['a three-letter country', 'CountryISOAlpha2Code=USA&SubjectName=Acme&match=true', /two letters/],
    ['no SubjectName', 'CountryISOAlpha2Code=US&match=true', /SubjectName.*required/],
    ['an empty SubjectName', 'CountryISOAlpha2Code=US&SubjectName=&match=true', /cannot be empty/],
    ['a SubjectName with a line break', 'CountryISOAlpha2Code=US&SubjectName=A%0ab&match=true', /line break/],
    ['a SubjectName over 256 characters', `CountryISOAlpha2Code=US&SubjectName=${'a'.repeat(300)}&match=true`, /256/],
    ['no match', 'CountryISOAlpha2Code=US&SubjectName=Acme', /match.*required/],
    ['match=false', 'CountryISOAlpha2Code=US&SubjectName=Acme&match=false', /match must be true/],
    ['an unknown MatchTypeText', 'CountryISOAlpha2Code=US&SubjectName=Acme&match=true&MatchTypeText=Fuzzy', /MatchTypeText=Advanced/],
    ['a TerritoryName with a NUL', 'CountryISOAlpha2Code=US&SubjectName=Acme&match=true&TerritoryName=a%00b', /TerritoryName/],
  ];
  for (const [name, query, message] of badQueries) {
    it(`organizations with ${name} is a 400 in the MatchResponse wrapper`, async () => {
      const r = await orgLookup(sb, token, query);
      assert.equal(r.status, 400, r.text);
      const result = r.json.MatchResponse.TransactionResult;
      assert.equal(result.SeverityText, 'Error');
      assert.equal(result.ResultID, 'invalid_request');
      assert.match(result.ResultMessage.ResultDescription, message);
    });
  }

  it('lower-case country codes and a missing MatchTypeText are accepted', async () => {
    const r = await orgLookup(sb, token, 'CountryISOAlpha2Code=de&SubjectName=Beispiel&match=true');
    assert.equal(r.status, 200);
    assert.equal(r.json.MatchResponse.MatchResponseDetail.InquiryDetail.CountryISOAlpha2Code, 'DE');
  });

  it('POST on organizations is a 405', async () => {
    const r = await call(sb, 'POST', '/V4.0/organizations', { headers: { authorization: token }, body: {} });
    assert.equal(r.status, 405);
  });
});
