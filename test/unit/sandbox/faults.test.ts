import * as assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { admin, authB, call, ipLookup, orgLookup, tokenA, tokenB, tokenRequest, useSandbox } from './helpers';

describe('sandbox: fault injection', () => {
  const sb = useSandbox({}, true);

  it('status: the next N matching requests get the status, then normal service resumes', async () => {
    const token = await tokenB(sb);
    const f = await admin(sb, 'POST', 'faults', { type: 'status', status: 503, count: 2, path: '/V4.0/' });
    assert.equal(f.status, 201);
    assert.equal(f.json.fault.type, 'status');
    assert.equal((await orgLookup(sb, token)).status, 503);
    const second = await orgLookup(sb, token);
    assert.equal(second.status, 503);
    assert.equal(second.json.error.errorCode, 'sandbox_fault');
    assert.equal((await orgLookup(sb, token)).status, 200);
    assert.deepEqual((await admin(sb, 'GET', 'faults')).json.faults, []);
  });

  it('a path limits a fault to matching requests', async () => {
    await admin(sb, 'POST', 'faults', { type: 'status', status: 500, path: '/v1/duns-search/' });
    assert.equal((await orgLookup(sb, await tokenB(sb))).status, 200);
    assert.equal((await ipLookup(sb, await tokenA(sb))).status, 500);
  });

  it('probability 0 never fires, probability 1 always does, until DELETE', async () => {
    const token = await tokenB(sb);
    await admin(sb, 'POST', 'faults', { type: 'status', status: 502, probability: 0 });
    assert.equal((await orgLookup(sb, token)).status, 200);
    await admin(sb, 'DELETE', 'faults');
    await admin(sb, 'POST', 'faults', { type: 'status', status: 502, probability: 1 });
    assert.equal((await orgLookup(sb, token)).status, 502);
    assert.equal((await orgLookup(sb, token)).status, 502);
    assert.equal((await admin(sb, 'DELETE', 'faults')).json.cleared, 1);
    assert.equal((await orgLookup(sb, token)).status, 200);
  });

  it('latency delays the answer and then serves it normally', async () => {
    const token = await tokenB(sb);
    await admin(sb, 'POST', 'faults', { type: 'latency', latencyMs: 250, count: 1 });
    const t0 = performance.now();
    const r = await orgLookup(sb, token);
    assert.equal(r.status, 200);
    assert.ok(performance.now() - t0 >= 240);
  });

  it('reset drops the connection', async () => {
    const token = await tokenB(sb);
    await admin(sb, 'POST', 'faults', { type: 'reset', count: 1 });
    await assert.rejects(orgLookup(sb, token));
    assert.equal((await orgLookup(sb, token)).status, 200);
  });

  it('malformed-json sends a body that does not parse', async () => {
    const token = await tokenB(sb);
    await admin(sb, 'POST', 'faults', { type: 'malformed-json', count: 1, path: '/V4.0/' });
    const bad = await orgLookup(sb, token);
    assert.equal(bad.status, 200);
    assert.match(String(bad.headers['content-type']), /application\/json/);
    assert.throws(() => JSON.parse(bad.text) as unknown);
  });

  it('truncated-gzip sends a gzip body cut in half', async () => {
    const token = await tokenB(sb);
    await admin(sb, 'POST', 'faults', { type: 'truncated-gzip', count: 1 });
    const res = await request(`${sb.url}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=A&match=true`, {
      headers: { authorization: token, 'accept-encoding': 'gzip' },
    });
    assert.equal(res.headers['content-encoding'], 'gzip');
    const raw = Buffer.from(await res.body.arrayBuffer());
    assert.throws(() => gunzipSync(raw));
  });

  it('admin requests are never faulted', async () => {
    await admin(sb, 'POST', 'faults', { type: 'status', status: 500 });
    assert.equal((await admin(sb, 'GET', 'stats')).status, 200);
  });

  describe('respond: exactly this answer, after the usual checks', () => {
    const EXPIRED_RESULT = { result: { errorCode: '00040', errorMessage: 'Access token expired', actionStatus: '401' } };
    const failure = (code: string, text: string): unknown => ({
      MatchResponse: { TransactionDetail: { ApplicationTransactionID: 'x', ServiceTransactionID: 'y', TransactionTimestamp: '2025-01-31T12:00:00Z' },
        TransactionResult: { SeverityText: 'Error', ResultID: code, ResultText: text } },
    });

    it('A data call: the IP product\'s {"result": ...} 00040 shape, once, then normal service', async () => {
      const token = await tokenA(sb);
      const f = await admin(sb, 'POST', 'faults', { type: 'respond', status: 401, body: EXPIRED_RESULT, path: '/v1/duns-search/ip/', count: 1 });
      assert.equal(f.status, 201, f.text);
      const r = await ipLookup(sb, token);
      assert.equal(r.status, 401);
      assert.deepEqual(r.json, EXPIRED_RESULT);
      assert.match(String(r.headers['content-type']), /^application\/json/);
      assert.equal((await ipLookup(sb, token)).status, 200);
      const stats = (await admin(sb, 'GET', 'stats')).json.customers.sandbox;
      assert.equal(stats.resultCodes['fault:respond'], 1);
      assert.equal(stats.contractUsed, 1, 'a respond answer uses no contract');
    });

    for (const [status, code, text] of [[400, 'CM001', 'Invalid request'], [500, 'CM004', 'Internal error'], [404, 'CM018', 'No match found']] as const) {
      it(`B data call: ${code} (${status}) in a TransactionResult`, async () => {
        const token = await tokenB(sb);
        await admin(sb, 'POST', 'faults', { type: 'respond', status, body: failure(code, text), path: '/V4.0/organizations', count: 1 });
        const r = await orgLookup(sb, token);
        assert.equal(r.status, status);
        assert.deepEqual(r.json, failure(code, text));
      });
    }

    it('429 with Retry-After and a text body; a string body goes out as is, text/plain unless told', async () => {
      const token = await tokenB(sb);
      await admin(sb, 'POST', 'faults', { type: 'respond', status: 429, headers: { 'Retry-After': 2 }, body: 'Too Many Requests', count: 1 });
      const r = await orgLookup(sb, token);
      assert.equal(r.status, 429);
      assert.equal(r.headers['retry-after'], '2');
      assert.equal(r.text, 'Too Many Requests');
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    });

    it('a 200 whose body is not JSON, with the content type given', async () => {
      const token = await tokenA(sb);
      await admin(sb, 'POST', 'faults', { type: 'respond', status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html>maintenance</html>', count: 1 });
      const r = await ipLookup(sb, token);
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], 'text/html');
      assert.equal(r.text, '<html>maintenance</html>');
    });

    it('a data call with a bad token or over its limits gets the usual refusal, and the fault waits', async () => {
      await admin(sb, 'POST', 'faults', { type: 'respond', status: 503, body: { down: true }, path: '/V4.0/', count: 1 });
      const r = await orgLookup(sb, 'sbx.not-a-token');
      assert.equal(r.json.MatchResponse.TransactionResult.ResultID, 'SC001');
      assert.equal((await admin(sb, 'GET', 'faults')).json.faults[0].remaining, 1);
      assert.equal((await orgLookup(sb, await tokenB(sb))).status, 503);
    });

    it('a token call checks the credentials first: a wrong secret is refused as usual, the right one gets the fault', async () => {
      await admin(sb, 'POST', 'faults', { type: 'respond', status: 429, headers: { 'retry-after': '1' }, path: '/v1/token', count: 1 });
      const wrong = await tokenRequest(sb, 'sandbox-key', 'not-the-secret');
      assert.equal(wrong.json.error.errorCode, 'invalid_client');
      const right = await tokenRequest(sb);
      assert.equal(right.status, 429);
      assert.equal(right.text, '');
      assert.equal(right.headers['content-type'], undefined, 'no body, no content type');
      assert.equal((await tokenRequest(sb)).status, 200);
    });

    it('an authentication call counts a wrong password toward the lockout; the right one resets it and gets the fault', async () => {
      await admin(sb, 'POST', 'faults', { type: 'respond', status: 500, body: 'upstream timeout', path: '/Authentication/', count: 1 });
      assert.equal((await authB(sb, 'sandbox-user', 'wrong')).status, 401);
      assert.equal((await admin(sb, 'GET', 'users/sandbox-user')).json.failures, 1);
      const right = await authB(sb);
      assert.equal(right.status, 500);
      assert.equal(right.text, 'upstream timeout');
      assert.equal((await admin(sb, 'GET', 'users/sandbox-user')).json.failures, 0);
    });

    it('a path with no endpoint answers the fault directly; latency and respond can both apply', async () => {
      await admin(sb, 'POST', 'faults', { type: 'latency', latencyMs: 100, path: '/v3/', count: 1 });
      await admin(sb, 'POST', 'faults', { type: 'respond', status: 404, body: { error: { errorCode: '40105', errorMessage: 'Not found' } }, path: '/v3/', count: 1 });
      const t0 = performance.now();
      const r = await call(sb, 'GET', '/v3/anything');
      assert.ok(performance.now() - t0 >= 90);
      assert.deepEqual(r.json, { error: { errorCode: '40105', errorMessage: 'Not found' } });
      assert.equal((await call(sb, 'GET', '/v3/anything')).json.error.errorCode, 'not_found');
    });

    it('the Date header follows the virtual clock unless the fault gives one', async () => {
      await admin(sb, 'POST', 'faults', { type: 'respond', status: 503, headers: { Date: 'Wed, 21 Oct 2015 07:28:00 GMT' }, count: 1 });
      const r = await call(sb, 'GET', '/v3/x');
      assert.equal(r.headers.date, 'Wed, 21 Oct 2015 07:28:00 GMT');
    });
  });

  const bad: Array<[unknown, RegExp]> = [
    [{}, /type/],
    [{ type: 'explode' }, /type/],
    [{ type: 'latency' }, /latencyMs/],
    [{ type: 'status' }, /status/],
    [{ type: 'status', status: 42 }, /status/],
    [{ type: 'reset', probability: 2 }, /probability/],
    [{ type: 'reset', count: 0 }, /count/],
    [{ type: 'reset', path: 'no-slash' }, /path/],
    [{ type: 'reset', colour: 'red' }, /Unknown property/],
    [{ type: 'status', status: 503, body: 'x' }, /Unknown property "body" for a status fault/],
    [{ type: 'respond' }, /A respond fault needs "status"/],
    [{ type: 'respond', status: 101 }, /"status" must be an HTTP status from 200 to 599/],
    [{ type: 'respond', status: 204, body: 'x' }, /A 204 answer has no body/],
    [{ type: 'respond', status: 200, headers: [] }, /"headers" must be an object/],
    [{ type: 'respond', status: 200, headers: { 'bad name': 'x' } }, /"bad name" is not a valid header name/],
    [{ type: 'respond', status: 200, headers: { 'Content-Length': '5' } }, /"Content-Length" is set by the sandbox/],
    [{ type: 'respond', status: 200, headers: { 'X-A': 'a\r\nX-B: b' } }, /must not contain line breaks/],
    [{ type: 'respond', status: 200, headers: { 'X-A': true } }, /must be a string or a number/],
    [{ type: 'respond', status: 200, headers: { 'X-A': '1', 'x-a': '2' } }, /given twice/],
    [{ type: 'respond', status: 200, latencyMs: 5 }, /Unknown property "latencyMs" for a respond fault/],
    [[], /JSON object/],
  ];
  for (const [body, message] of bad) {
    it(`refuses the fault ${JSON.stringify(body)} with a clear 400`, async () => {
      const r = await admin(sb, 'POST', 'faults', body);
      assert.equal(r.status, 400);
      assert.match(r.json.error.errorMessage, message);
    });
  }

  it('unknown routes under /_sandbox/ with the key are 404 in JSON', async () => {
    const r = await call(sb, 'GET', '/_sandbox/faults/1', { headers: { 'x-sandbox-admin': sb.adminKey } });
    assert.equal(r.status, 404);
  });
});
