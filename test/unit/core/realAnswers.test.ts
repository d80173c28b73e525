// The client against answers in the shapes the real service documents, played by the sandbox's
// `respond` fault (after the usual authentication, so tokens are spent as they would be).
import * as assert from 'node:assert/strict';
import { describeCode } from '../../../src/core/codes/codes';
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
    // At least the second asked; a little more when the window of the refusal ends later (limits/: one refusal closes it).
    const first = t.logs.map((l) => /HTTP 429 \(00045\): every call waits (\d+) ms/.exec(l)).find((m) => m !== null);
    assert.ok(first && Number(first[1]) >= 1000 && Number(first[1]) < 2000, t.logs.join('\n'));
    // An HTTP date has whole seconds: 2 to 3 s ahead, so the wait is the date less when the answer came.
    const until = (Math.floor(Date.now() / 1000) + 3) * 1000;
    await respond('/v1/duns-search', 429, 'slow down', { 'retry-after': new Date(until).toUTCString() });
    const before = Date.now();
    ok(await t.client.lookupIp({ ip: '203.0.113.9' }));
    const held = Date.now() - before;
    const waited = t.logs.map((l) => /HTTP 429: every call waits (\d+) ms/.exec(l)).find((m) => m !== null);
    assert.ok(waited, t.logs.join('\n'));
    const ms = Number(waited[1]);
    assert.ok(ms >= 1000 && ms <= until - before, `waits ${ms} ms for a date ${until - before} ms ahead`);
    assert.ok(held >= ms, `the caller was held ${held} ms, less than the ${ms} ms asked`);
    assert.equal((await sb.customer()).tokenRequests, 1);
  });

  it('a Retry-After over 60 s (429, SC006, 503) stops the call at once with the time to come back, absolute and as a wait', async () => {
    ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    const throttled = { error: { errorCode: '00045', errorMessage: 'Too Many Requests' } };
    const sc006 = { MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: 'SC006', ResultText: 'Transaction not processed, permitted concurrency limit exceeded.' } } };
    const cases = [
      ['/v1/duns-search', 429, throttled, '120', 120_000, /in 2 minutes/],
      ['/V4.0/organizations', 401, sc006, '7200', 7_200_000, /in 2 hours/],
      ['/v1/duns-search', 503, 'maintenance', 'date', 90_000, /in (8\d|90) seconds/],
    ] as const;
    // Each wait is far beyond this test's 20 s timeout: a call that slept would fail the test by it.
    for (const [path, status, body, after, waitMs, words] of cases) {
      const started = Date.now();
      // An HTTP date has whole seconds: up to one before started + waitMs.
      await respond(path, status, body, { 'retry-after': after === 'date' ? new Date(started + waitMs).toUTCString() : after });
      const r = path === '/v1/duns-search' ? await t.client.lookupIp({ ip: '203.0.113.8' }) : await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' });
      const answered = Date.now();
      const f = failed(r);
      assert.equal(f.status, status);
      assert.ok(f.comeBackAt !== undefined && f.comeBackAt >= started + waitMs - 1000 && f.comeBackAt <= answered + waitMs, `${status}: comeBackAt ${f.comeBackAt}`);
      const at = new Date(Math.ceil(f.comeBackAt / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      assert.ok(f.advice.startsWith(`Try again after ${at} (`), f.advice);
      assert.match(f.advice, words);
    }
    const c = await sb.customer();
    assert.equal(c.resultCodes['fault:respond'], 3, 'each answered once: none was sent again');
  });

  it('a 503 with Retry-After on a lookup waits that long before the one retry', async () => {
    await respond('/v1/duns-search', 503, 'maintenance', { 'retry-after': '1' });
    ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
    assert.ok(t.logs.some((l) => /waiting 1000 ms, then retry 1 of 2 after HTTP 503/.test(l)), t.logs.join('\n'));
  });

  it("CM001, CM004 and CM018: the service's own words first, with the catalog's meaning and action; the catalog's text only where the answer has none", async () => {
    const cases = [
      ['CM001', 400, { ResultText: 'The given request is invalid.' }, 'The given request is invalid.'],
      ['CM004', 500, { ResultText: 'Internal D&B system error.' }, 'Internal D&B system error.'],
      ['CM001', 400, { ResultText: 'The given request is invalid.', ResultMessage: [{ ResultDescription: 'SubjectName is required' }] }, 'The given request is invalid. SubjectName is required'],
      ['CM018', 404, {}, 'Not found'],
    ] as const;
    for (const [code, status, said, text] of cases) {
      await respond('/V4.0/organizations', status, { MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: code, ...said } } });
      const f = failed(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      const info = describeCode(code);
      assert.deepEqual([f.code, f.status, f.kind, f.known, f.text, f.meaning, f.advice], [code, status, 'api', true, text, info?.meaning, info?.action], code);
    }
  });

  it("00041 with the IP product's own text: that text, not the catalog's \"Unauthorized\", after one new token", async () => {
    const said = 'You are not currently authorised to access this product';
    await respond('/v1/duns-search', 401, { error: { errorCode: '00041', errorMessage: said } }, {}, 2);
    const f = failed(await t.client.lookupIp({ ip: '203.0.113.7' }));
    assert.deepEqual([f.code, f.status, f.kind, f.text, f.meaning], ['00041', 401, 'auth', said, describeCode('00041')?.meaning]);
    assert.equal((await sb.customer()).tokenRequests, 2, 'one new token, then the repeat was refused too');
    assert.equal((await t.client.status('a')).lastError?.text, said);
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
