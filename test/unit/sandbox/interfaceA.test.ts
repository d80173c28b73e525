import * as assert from 'node:assert/strict';
import { startSandbox } from '../../../src/sandbox/server';
import { ORIGIN, admin, assertErrorA, basic, conditionsConfig, useSandbox, call, ipLookup, roomyConfig, tokenA, tokenRequest } from './helpers';

describe('sandbox: Interface A errors and bad inputs', () => {
  const sb = useSandbox({ config: conditionsConfig() });

  const good = { authorization: basic('sandbox-key', 'sandbox-secret'), origin: ORIGIN };

  it('a wrong secret or unknown key is invalid_client (401)', async () => {
    assertErrorA(await tokenRequest(sb, 'sandbox-key', 'nope'), 401, 'invalid_client');
    assertErrorA(await tokenRequest(sb, 'who', 'nope'), 401, 'invalid_client');
  });

  it('no client authentication is invalid_client (401) and says how to send it', async () => {
    const r = await call(sb, 'POST', '/v1/token', { headers: { origin: ORIGIN }, body: { grant_type: 'client_credentials' } });
    assertErrorA(r, 401, 'invalid_client', /Basic/);
  });

  const badTokenRequests: Array<[string, { headers: Record<string, string>; body?: unknown; rawBody?: string }, RegExp]> = [
    ['missing Origin', { headers: { authorization: basic('sandbox-key', 'sandbox-secret') }, body: { grant_type: 'client_credentials' } }, /Origin/],
    ['wrong grant_type', { headers: good, body: { grant_type: 'password' } }, /client_credentials/],
    ['missing grant_type', { headers: good, body: {} }, /client_credentials/],
    ['a JSON array body', { headers: good, body: [] }, /client_credentials/],
    ['wrong content type', { headers: { ...good, 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'grant_type=client_credentials' }, /application\/json/],
    ['invalid JSON', { headers: { ...good, 'content-type': 'application/json' }, rawBody: '{"grant_type":' }, /not valid JSON/],
    ['an empty body', { headers: { ...good, 'content-type': 'application/json' }, rawBody: '' }, /empty/],
    ['a Bearer scheme instead of Basic', { headers: { ...good, authorization: 'Bearer abc' }, body: { grant_type: 'client_credentials' } }, /Basic/],
    ['bad base64', { headers: { ...good, authorization: 'Basic %%%' }, body: { grant_type: 'client_credentials' } }, /base64/],
    ['Basic without a colon', { headers: { ...good, authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` }, body: { grant_type: 'client_credentials' } }, /consumer_key:consumer_secret/],
  ];
  for (const [name, req, message] of badTokenRequests) {
    it(`token request with ${name} is invalid_request (400)`, async () => {
      assertErrorA(await call(sb, 'POST', '/v1/token', req), 400, 'invalid_request', message);
    });
  }

  it('a body over 64 KiB is refused with 413', async () => {
    const r = await call(sb, 'POST', '/v1/token', { headers: good, body: { grant_type: 'client_credentials', pad: 'x'.repeat(70000) } });
    assertErrorA(r, 413, 'invalid_request', /64 KiB/);
  });

  it('an expired subscriber number gives SC004 on the token request', async () => {
    assertErrorA(await tokenRequest(sb, 'lapsed-key', 'lapsed-secret'), 401, 'SC004', /Subscriber number has expired/);
  });

  it('an expired token gives 00040 (401); a new token works', async () => {
    const local = await startSandbox({ config: roomyConfig() });
    try {
      const token = await tokenA(local);
      await admin(local, 'POST', 'clock', { advanceSeconds: 86400 });
      assertErrorA(await ipLookup(local, token), 401, '00040', /expired/);
      assert.equal((await ipLookup(local, await tokenA(local))).status, 200);
      const stats = (await admin(local, 'GET', 'stats')).json;
      assert.equal(stats.customers.sandbox.resultCodes['00040'], 1);
    } finally {
      await local.close();
    }
  });

  it('a missing, malformed or unknown bearer token is invalid_token (401)', async () => {
    assertErrorA(await call(sb, 'GET', '/v1/duns-search/ip/203.0.113.7?view=standard', { headers: { origin: ORIGIN } }), 401, 'invalid_token', /Bearer/);
    assertErrorA(await ipLookup(sb, 'sbx.unknown'), 401, 'invalid_token');
    const token = await tokenA(sb);
    const raw = await call(sb, 'GET', '/v1/duns-search/ip/203.0.113.7?view=standard', { headers: { origin: ORIGIN, authorization: token } });
    assertErrorA(raw, 401, 'invalid_token');
  });

  it('invalidated A tokens are invalid_token', async () => {
    const local = await startSandbox({ config: roomyConfig() });
    try {
      const token = await tokenA(local);
      assert.equal((await admin(local, 'POST', 'tokens/invalidate', { consumerKey: 'sandbox-key' })).json.invalidated, 1);
      assertErrorA(await ipLookup(local, token), 401, 'invalid_token');
    } finally {
      await local.close();
    }
  });

  it('a B token is not accepted on Interface A', async () => {
    const b = await call(sb, 'POST', '/Authentication/V2.0/', {
      headers: { 'x-svc-user': 'sandbox-user', 'x-svc-pwd': 'sandbox-password' },
      body: { TransactionDetail: { ApplicationTransactionID: 'a', ServiceTransactionID: 'b', TransactionTimestamp: '2025-01-01T00:00:00Z' } },
    });
    assertErrorA(await ipLookup(sb, b.headers.authorization as string), 401, 'invalid_token');
  });

  const badLookups: Array<[string, string, Record<string, string>, RegExp]> = [
    ['an invalid IP', '/v1/duns-search/ip/999.1.1.1?view=standard', {}, /not an IP address/],
    ['a name instead of an IP', '/v1/duns-search/ip/example.com?view=standard', {}, /not an IP address/],
    ['broken URL encoding', '/v1/duns-search/ip/%E0%A4%A?view=standard', {}, /URL-encoded/],
    ['an unknown view', '/v1/duns-search/ip/203.0.113.7?view=full', {}, /view=standard/],
  ];
  for (const [name, path, extra, message] of badLookups) {
    it(`IP lookup with ${name} is invalid_request (400)`, async () => {
      const token = await tokenA(sb);
      assertErrorA(await call(sb, 'GET', path, { headers: { authorization: `Bearer ${token}`, origin: ORIGIN, ...extra } }), 400, 'invalid_request', message);
    });
  }

  it('IP lookup without Origin is invalid_request (400)', async () => {
    const token = await tokenA(sb);
    const r = await call(sb, 'GET', '/v1/duns-search/ip/203.0.113.7?view=standard', { headers: { authorization: `Bearer ${token}` } });
    assertErrorA(r, 400, 'invalid_request', /Origin/);
  });

  it('a missing view means standard', async () => {
    const token = await tokenA(sb);
    const r = await call(sb, 'GET', '/v1/duns-search/ip/203.0.113.7', { headers: { authorization: `Bearer ${token}`, origin: ORIGIN } });
    assert.equal(r.status, 200);
    assert.equal(r.json.inquiryDetail.view, 'standard');
  });

  it('gzip on IP lookups when accepted', async () => {
    const r = await ipLookup(sb, await tokenA(sb), '203.0.113.7', { 'accept-encoding': 'br, gzip' });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.json.sandbox, true);
  });

  it('wrong methods get 405 and unknown paths 404, both in JSON', async () => {
    const m = await call(sb, 'GET', '/v1/token');
    assertErrorA(m, 405, 'method_not_allowed');
    assert.equal(m.headers.allow, 'POST');
    assertErrorA(await call(sb, 'GET', '/v2/whatever'), 404, 'not_found', /Endpoints/);
    assertErrorA(await call(sb, 'GET', '/v1/duns-search/ip/'), 404, 'not_found');
    assertErrorA(await call(sb, 'GET', '/V3.0/organizations'), 404, 'not_found');
  });
});
