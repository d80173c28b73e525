import * as assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { admin, call, ipLookup, orgLookup, tokenA, tokenB, useSandbox } from './helpers';

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
