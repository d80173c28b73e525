import * as assert from 'node:assert/strict';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/server';
import { call, orgLookup, roomyConfig, tokenB, transactionDetail } from './helpers';

describe('sandbox: Interface B bad inputs', () => {
  let sb: RunningSandbox;
  let token: string;
  before(async () => {
    sb = await startSandbox({ config: roomyConfig() });
    token = await tokenB(sb);
  });
  after(async () => {
    await sb.close();
  });

  const creds = { 'x-svc-user': 'sandbox-user', 'x-svc-pwd': 'sandbox-password' };

  function assertBadAuth(r: Awaited<ReturnType<typeof call>>, message: RegExp): void {
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.TransactionResult.ResultID, 'invalid_request');
    assert.match(r.json.TransactionResult.ResultMessage.ResultDescription, message);
  }

  it('/Authentication/ without a version is refused with the path to use', async () => {
    for (const path of ['/Authentication/', '/Authentication']) {
      assertBadAuth(await call(sb, 'POST', path, { headers: creds, body: transactionDetail() }), /version segment is mandatory.*\/Authentication\/V2\.0\//);
    }
  });

  it('an unsupported authentication version is refused', async () => {
    assertBadAuth(await call(sb, 'POST', '/Authentication/V1.0/', { headers: creds, body: transactionDetail() }), /Unsupported.*V1\.0/);
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
    ['a timestamp not in UTC', { TransactionDetail: { ...td, TransactionTimestamp: '2025-01-31T12:00:00+02:00' } }, /UTC/],
    ['an impossible date', { TransactionDetail: { ...td, TransactionTimestamp: '2025-13-45T12:00:00Z' } }, /ISO 8601/],
    ['a JSON array', [], /JSON object/],
  ];
  for (const [name, body, message] of badBodies) {
    it(`authentication with ${name} is a 400 with a clear message`, async () => {
      assertBadAuth(await call(sb, 'POST', '/Authentication/V2.0/', { headers: creds, body }), message);
    });
  }

  it('authentication with invalid JSON or no body is a 400', async () => {
    assertBadAuth(await call(sb, 'POST', '/Authentication/V2.0/', { headers: creds, rawBody: '{' }), /not valid JSON/);
    assertBadAuth(await call(sb, 'POST', '/Authentication/V2.0/', { headers: creds }), /empty/);
  });

  it('a zero-offset timestamp is accepted as UTC', async () => {
    const body = { TransactionDetail: { ...td, TransactionTimestamp: '2025-01-31T12:00:00.123+00:00' } };
    assert.equal((await call(sb, 'POST', '/Authentication/V2.0/', { headers: creds, body })).status, 200);
  });

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
