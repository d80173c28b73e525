import * as assert from 'node:assert/strict';
import { CustomerLimiter } from '../../../src/sandbox/limits';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/server';
import { request } from 'undici';
import { ORG_QUERY, admin, delay, ipLookup, orgLookup, roomyConfig, tokenA, tokenB } from './helpers';

const SC006 = 'Transaction not processed, permitted concurrency limit exceeded.';

describe('sandbox: customer limits (SC005, SC006)', () => {
  const open: RunningSandbox[] = [];
  async function start(customer: Record<string, unknown>): Promise<RunningSandbox> {
    const sb = await startSandbox({ config: roomyConfig(customer) });
    open.push(sb);
    return sb;
  }
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('QPS is one window per customer across both interfaces and all tokens: SC006 over it', async () => {
    const sb = await start({ qps: 3 });
    const [a, b1, b2] = [await tokenA(sb), await tokenB(sb), await tokenB(sb)];
    assert.notEqual(b1, b2);
    assert.equal((await ipLookup(sb, a)).status, 200);
    assert.equal((await orgLookup(sb, b1)).status, 200);
    assert.equal((await orgLookup(sb, b2)).status, 200);
    const over = await orgLookup(sb, b1);
    assert.equal(over.status, 401);
    assert.equal(over.json.MatchResponse.TransactionResult.ResultID, 'SC006');
    assert.equal(over.json.MatchResponse.TransactionResult.ResultText, SC006);
    assert.equal(over.json.MatchResponse.TransactionResult.SeverityText, 'Error');
    const overA = await ipLookup(sb, a);
    assert.equal(overA.status, 401);
    assert.equal(overA.json.error.errorCode, 'SC006');
    assert.match(overA.json.error.errorMessage, /concurrency limit exceeded/);
    await delay(1050);
    assert.equal((await orgLookup(sb, b1)).status, 200, 'the same token works again after the window');
  });

  it('concurrency counts calls in flight across tokens: SC006 beyond it; maxConcurrency in stats', async () => {
    const sb = await start({ concurrency: 2, responseDelayMs: 300 });
    const [a, b] = [await tokenA(sb), await tokenB(sb)];
    const results = await Promise.all([ipLookup(sb, a), orgLookup(sb, b), orgLookup(sb, b)]);
    const codes = results.map((r) => (r.status === 200 ? 'ok' : (r.json.MatchResponse?.TransactionResult.ResultID ?? r.json.error.errorCode)));
    assert.deepEqual(codes.slice().sort(), ['SC006', 'ok', 'ok']);
    const stats = (await admin(sb, 'GET', 'stats')).json.customers.sandbox;
    assert.equal(stats.maxConcurrency, 2);
    assert.equal(stats.resultCodes.SC006, 1);
    assert.equal((await orgLookup(sb, b)).status, 200, 'a slot frees when a call finishes');
  });

  it('a client that hangs up while a call waits does not keep its concurrency slot', async () => {
    const sb = await start({ concurrency: 1 });
    const token = await tokenB(sb);
    await admin(sb, 'POST', 'faults', { type: 'latency', latencyMs: 200, count: 1, path: '/V4.0/' });
    await assert.rejects(request(`${sb.url}/V4.0/organizations?${ORG_QUERY}`, { headers: { authorization: token }, signal: AbortSignal.timeout(50) }));
    await delay(300);
    assert.equal((await orgLookup(sb, token)).status, 200);
    assert.equal((await orgLookup(sb, token)).status, 200);
  });

  it('contractLimit successful data calls, then SC005 on both interfaces', async () => {
    const sb = await start({ contractLimit: 2 });
    const [a, b] = [await tokenA(sb), await tokenB(sb)];
    assert.equal((await orgLookup(sb, b, 'CountryISOAlpha2Code=XX&SubjectName=A&match=true')).status, 400, 'bad input uses no contract');
    assert.equal((await ipLookup(sb, a)).status, 200);
    assert.equal((await orgLookup(sb, b)).status, 200);
    const over = await orgLookup(sb, b);
    assert.equal(over.status, 401);
    assert.equal(over.json.MatchResponse.TransactionResult.ResultID, 'SC005');
    assert.equal(over.json.MatchResponse.TransactionResult.ResultText, 'Maximum limit permitted by the contract reached.');
    const overA = await ipLookup(sb, a);
    assert.equal(overA.json.error.errorCode, 'SC005');
    const stats = (await admin(sb, 'GET', 'stats')).json.customers.sandbox;
    assert.equal(stats.contractUsed, 2);
    assert.equal(stats.dataCalls, 5);
    assert.equal(stats.resultCodes.SC005, 2);
  });

  it('an expired subscriber number refuses data calls of existing tokens with SC004', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const sb = await start({ subscriberExpires: soon });
    const [a, b] = [await tokenA(sb), await tokenB(sb)];
    await admin(sb, 'POST', 'clock', { advanceSeconds: 7200 });
    const r = await orgLookup(sb, b);
    assert.equal(r.status, 401);
    assert.equal(r.json.MatchResponse.TransactionResult.ResultID, 'SC004');
    assert.equal((await ipLookup(sb, a)).json.error.errorCode, 'SC004');
  });

  it('limits of one customer do not touch another', async () => {
    const sb = await startSandbox({
      config: {
        customers: [
          { id: 'one', qps: 1, users: [{ user: 'u1', password: 'password-1' }] },
          { id: 'two', qps: 1, users: [{ user: 'u2', password: 'password-2' }] },
        ],
      },
    });
    open.push(sb);
    const [t1, t2] = [await tokenB(sb, 'u1', 'password-1'), await tokenB(sb, 'u2', 'password-2')];
    assert.equal((await orgLookup(sb, t1)).status, 200);
    assert.equal((await orgLookup(sb, t2)).status, 200);
    assert.equal((await orgLookup(sb, t1)).status, 401);
  });
});

describe('CustomerLimiter (a clock passed in)', () => {
  it('accepts qps calls in any one-second window, growing its ring as calls come', () => {
    let t = 0;
    const limiter = new CustomerLimiter(200, 1000, () => t);
    for (let i = 0; i < 200; i++) {
      assert.ok(limiter.tryAcquire(), `call ${i}`);
      t += 1;
    }
    assert.equal(limiter.tryAcquire(), false, 'the 201st call within one second');
    t = 1000;
    assert.ok(limiter.tryAcquire(), 'the first call has left the window');
    assert.equal(limiter.tryAcquire(), false, 'only one left');
    t = 1199.5;
    for (let i = 0; i < 199; i++) assert.ok(limiter.tryAcquire(), `after the window, call ${i}`);
    assert.equal(limiter.tryAcquire(), false);
  });

  it('a qps of a million allocates by use, not by the limit', () => {
    const limiter = new CustomerLimiter(1_000_000, 1_000_000, () => 0);
    // The ring starts small: a Float64Array of a million entries would be 8 MB per customer.
    assert.ok(((limiter as unknown as { stamps: Float64Array }).stamps.length) <= 64);
    for (let i = 0; i < 1000; i++) assert.ok(limiter.tryAcquire());
    assert.ok(((limiter as unknown as { stamps: Float64Array }).stamps.length) <= 1024);
  });

  it('concurrency counts calls until release', () => {
    const limiter = new CustomerLimiter(100, 2, () => 0);
    assert.ok(limiter.tryAcquire());
    assert.ok(limiter.tryAcquire());
    assert.equal(limiter.tryAcquire(), false);
    limiter.release();
    assert.ok(limiter.tryAcquire());
    assert.equal(limiter.active, 2);
  });
});
