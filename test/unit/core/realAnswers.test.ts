// The client against answers in the shapes the real service documents, played by the sandbox's
// `respond` fault (after the usual authentication, so tokens are spent as they would be).
import * as assert from 'node:assert/strict';
import { assertNoCanary, failed, ok, sandbox, testClient, type Sandbox, type TestClient } from './harness';

const HOSTILE = 'Refused \u001b]0;owned\u0007 \u009b31m \u202eevil';

describe('client against the real service\'s documented answers (sandbox respond fault)', () => {
  let sb: Sandbox;
  let t: TestClient;

  beforeEach(async () => {
    sb = await sandbox();
    t = testClient(sb.url, { retry: { baseDelayMs: 10 } });
  });

  afterEach(async () => {
    assertNoCanary(t.logs);
    await t.client.dispose();
    await sb.close();
  });

  const respond = (path: string, status: number, body: unknown, headers: Record<string, string> = {}, count = 1): Promise<unknown> =>
    sb.admin('POST', 'faults', { type: 'respond', path, status, body, headers, count });

  it('00040 in the IP product\'s {"result": …} shape: the token leaves "valid", one new token, one repeat', async () => {
    ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    const states: string[] = [];
    const sub = t.client.onDidChangeStatus((s) => states.push(s.state));
    await respond('/v1/duns-search', 401, { result: { errorCode: '00040', errorMessage: 'Access token expired', actionStatus: '401' } });
    ok(await t.client.lookupIp({ ip: '203.0.113.8' }));
    sub.dispose();
    assert.ok(states.includes('invalid'), states.join(','));
    assert.equal((await t.client.status('a')).state, 'valid');
    assert.equal((await sb.customer()).tokenRequests, 2);
  });

  it('429 with Retry-After in seconds or as an HTTP date holds every caller that long, same token', async () => {
    ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    await respond('/v1/duns-search', 429, { error: { errorCode: '00045', errorMessage: 'Too Many Requests' } }, { 'retry-after': '1' });
    ok(await t.client.lookupIp({ ip: '203.0.113.8' }));
    assert.ok(t.logs.some((l) => /HTTP 429 \(00045\): every call waits 1000 ms/.test(l)), t.logs.join('\n'));
    await respond('/v1/duns-search', 429, 'slow down', { 'retry-after': new Date(Date.now() + 2000).toUTCString() });
    ok(await t.client.lookupIp({ ip: '203.0.113.9' }));
    assert.ok(t.logs.some((l) => /HTTP 429: every call waits (1[0-9]{3}|2000) ms/.test(l)), t.logs.join('\n'));
    assert.equal((await sb.customer()).tokenRequests, 1);
  });

  it('a 503 with Retry-After on a lookup waits that long before the one retry', async () => {
    await respond('/v1/duns-search', 503, 'maintenance', { 'retry-after': '1' });
    ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    assert.ok(t.logs.some((l) => /waiting 1000 ms, then retry 1 of 2 after HTTP 503/.test(l)), t.logs.join('\n'));
  });

  it('CM001, CM004 and CM018 in a TransactionResult are failures with the published text, else the service\'s own', async () => {
    for (const [code, status, text] of [['CM001', 400, 'Invalid request'], ['CM004', 500, 'Internal error'], ['CM018', 404, 'service text']] as const) {
      await respond('/V4.0/organizations', status, { MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: code, ResultText: 'service text' } } });
      const f = failed(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      assert.deepEqual([f.code, f.status, f.kind, f.known, f.text], [code, status, 'api', true, text], code);
    }
  });

  it("an unknown code carries the service's own text, made safe for a terminal, and says it is unknown", async () => {
    await respond('/V4.0/organizations', 400, { MatchResponse: { TransactionResult: { SeverityText: 'Error', ResultID: 'CM026', ResultText: HOSTILE } } });
    const f = failed(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
    assert.deepEqual([f.code, f.known], ['CM026', false]);
    assert.equal(f.text, 'Refused \\u001B]0;owned\\u0007 \\u009B31m \\u202Eevil');
  });

  it('an OAuth-style refusal of a sign-in with the code inside its text is read, and not counted as a wrong password', async () => {
    await respond('/Authentication', 400, { error: 'invalid_request', error_description: 'Form refused. ErrorCode: 05007' });
    const f = failed(await t.client.refreshToken('b'));
    assert.deepEqual([f.code, f.status, f.known], ['05007', 400, false]);
    assert.equal((await t.client.status('b')).credentialFailures, 0);
  });

  it('reads expires_in, and keeps an out-of-range lifetime within 24 hours', async () => {
    await respond('/v1/token', 200, { access_token: 'tok-from-respond-1', expires_in: 3600, token_type: 'Bearer' });
    ok(await t.client.refreshToken('a'));
    const s = await t.client.status('a');
    assert.equal((s.expiresAt ?? 0) - (s.issuedAt ?? 0), 3_600_000);
    await respond('/v1/token', 200, { access_token: 'tok-from-respond-2', expiresIn: 1e13 });
    ok(await t.client.refreshToken('a'));
    const clamped = await t.client.status('a');
    assert.equal((clamped.expiresAt ?? 0) - (clamped.issuedAt ?? 0), 86_400_000);
    assert.ok(t.logs.some((l) => /out of range/.test(l)));
  });

  it('a 2xx with an empty or non-object body is a failure for organizations too', async () => {
    for (const body of ['', 'null', '[]']) {
      await respond('/V4.0/organizations', 200, body, { 'content-type': 'application/json' });
      const f = failed(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      assert.deepEqual([f.kind, f.status], ['api', 200], body);
    }
  });
});
