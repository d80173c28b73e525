import * as assert from 'node:assert/strict';
import { DEMO_CREDENTIALS } from '../../../src/sandbox/defaults';
import { startSandbox } from '../../../src/sandbox/server';
import { admin, authB, ipLookup, orgLookup, tokenA, tokenB, tokenRequest, useSandbox } from './helpers';

describe('sandbox: happy paths of both interfaces', () => {
  const sb = useSandbox({ port: 0 });

  it('binds 127.0.0.1 on a free port and makes a random admin key', () => {
    assert.match(sb.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(sb.adminKey.length >= 20);
  });

  it('runs with no options at all on the demo credentials', async () => {
    const plain = await startSandbox();
    try {
      assert.notEqual(plain.adminKey, sb.adminKey);
      assert.equal((await ipLookup(plain, await tokenA(plain))).status, 200);
      assert.equal((await orgLookup(plain, await tokenB(plain))).status, 200);
    } finally {
      await plain.close();
    }
  });

  it('A: exchanges the demo key and secret for a 24-hour bearer token', async () => {
    const r = await tokenRequest(sb);
    assert.equal(r.status, 200);
    assert.equal(typeof r.json.access_token, 'string');
    assert.equal(r.json.expiresIn, 86400);
    assert.ok(r.headers.date);
  });

  it('A: looks an IP up with the bearer token and gives deterministic sandbox data', async () => {
    const token = await tokenA(sb);
    const r1 = await ipLookup(sb, token);
    const r2 = await ipLookup(sb, token);
    assert.equal(r1.status, 200);
    assert.equal(r1.json.sandbox, true);
    assert.equal(r1.json.candidatesMatchedQuantity, 1);
    assert.match(r1.json.matchCandidates[0].organization.primaryName, /\(Sandbox\)$/);
    assert.deepEqual(r1.json.matchCandidates, r2.json.matchCandidates);
    assert.notEqual(r1.json.transactionDetail.transactionID, r2.json.transactionDetail.transactionID);
  });

  it('A: private and reserved addresses are documented no-match cases', async () => {
    const token = await tokenA(sb);
    for (const ip of ['10.1.2.3', '192.168.0.1', '127.0.0.1', '::1', 'fd00::1']) {
      const r = await ipLookup(sb, token, ip);
      assert.equal(r.status, 200, ip);
      assert.equal(r.json.candidatesMatchedQuantity, 0, ip);
    }
    const v6 = await ipLookup(sb, token, '2001:db8::1');
    assert.equal(v6.json.candidatesMatchedQuantity, 1);
  });

  it('B: authenticates, token in the Authorization header and the body, Date header, echo', async () => {
    const r = await authB(sb);
    assert.equal(r.status, 200);
    assert.equal(typeof r.headers.authorization, 'string');
    assert.equal(r.json.AuthenticationDetail.Token, r.headers.authorization);
    assert.deepEqual(r.json.TransactionResult, { ResultID: 'CM000', ResultText: 'Success' });
    assert.equal(r.json.TransactionDetail.ServiceTransactionID, 'test-123');
    assert.equal(r.json.TransactionDetail.ApplicationTransactionID, 'TestApp');
    assert.ok(r.headers.date);
  });

  it('B: looks an organization up with the raw token, MatchResponse wrapper', async () => {
    const token = await tokenB(sb);
    const r = await orgLookup(sb, token);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const m = r.json.MatchResponse;
    assert.equal(m.TransactionResult.ResultID, 'CM000');
    assert.equal(m.TransactionDetail.ApplicationTransactionID, 'BizDataSandbox');
    assert.match(m.TransactionDetail.ServiceTransactionID, /^sbx-/);
    assert.equal(m.MatchResponseDetail.sandbox, true);
    assert.ok(m.MatchResponseDetail.CandidateMatchedQuantity >= 1);
    assert.equal(m.MatchResponseDetail.MatchCandidate[0].OrganizationPrimaryName.OrganizationName.$, 'Gadget Works (Sandbox)');
  });

  it('B: names starting with NoMatch give zero candidates', async () => {
    const token = await tokenB(sb);
    const r = await orgLookup(sb, token, 'CountryISOAlpha2Code=GB&SubjectName=NoMatch%20Ltd&match=true');
    assert.equal(r.status, 200);
    assert.equal(r.json.MatchResponse.MatchResponseDetail.CandidateMatchedQuantity, 0);
  });

  it('B: gzip when the request accepts it', async () => {
    const token = await tokenB(sb);
    const r = await orgLookup(sb, token, undefined, { 'accept-encoding': 'gzip' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.json.MatchResponse.TransactionResult.ResultID, 'CM000');
    const plain = await orgLookup(sb, token, undefined, { 'accept-encoding': 'gzip;q=0' });
    assert.equal(plain.headers['content-encoding'], undefined);
  });

  it('one token is reused across calls and connections', async () => {
    const token = await tokenB(sb);
    const results = await Promise.all([orgLookup(sb, token), orgLookup(sb, token), orgLookup(sb, token)]);
    for (const r of results) assert.equal(r.status, 200);
  });

  it('counts requests per customer in stats', async () => {
    const r = await admin(sb, 'GET', 'stats');
    assert.equal(r.status, 200);
    const c = r.json.customers.sandbox;
    assert.ok(r.json.requests >= 10);
    assert.ok(c.tokenRequests >= 5);
    assert.equal(c.authFailures, 0);
    assert.ok(c.dataCalls >= 5);
    assert.ok(c.resultCodes.CM000 >= 10);
    assert.ok(c.maxConcurrency >= 1);
    assert.equal(DEMO_CREDENTIALS.a.consumerKey, 'sandbox-key');
  });
});
