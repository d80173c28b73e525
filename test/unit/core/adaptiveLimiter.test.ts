// The adaptive limiter in real use: a client and a batch against a sandbox whose limits it is not
// told, learned limits remembered in a real state directory, and the limiter's caps and listeners.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adaptiveLimiter } from '../../../src/core/limits/adaptiveControl';
import { runBatch } from '../../../src/core/run/batch';
import { type BatchLine } from '../../../src/core/run/batchLines';
import { FileLimitsStore } from '../../../src/core/storage/fileStores';
import type { LookupQuery } from '../../../src/core/model';
import type { LearnedLimits, LimitsStore } from '../../../src/core/ports';
import { accountKey } from '../../../src/core/accounts/session';
import { endpointsFor, GOOD, sandbox, testClient, type Sandbox } from './harness';
import { controlledClock } from './controlledClock';
import { drive } from './limiterLoad';

const ips = (n: number, base = 0): LookupQuery[] => Array.from({ length: n }, (_, i) => ({ kind: 'ip', ip: `10.9.${(base + i) >> 8}.${(base + i) & 255}` }));

describe('adaptive limiter', () => {
  let sb: Sandbox | undefined;
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-adaptive-'));
  });
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('never exceeds its caps: no window of a second holds more starts, never more in flight', async () => {
    const l = adaptiveLimiter({ caps: { qps: 12, concurrency: 2 }, account: async () => 'a|loopback|x' });
    const { starts, peak } = await drive(l, 40, 3);
    l.dispose();
    assert.ok(peak <= 2, `peak ${peak}`);
    for (let i = 12; i < starts.length; i++) assert.ok(starts[i] - starts[i - 12] >= 1000, `13 starts within ${starts[i] - starts[i - 12]} ms`);
  });

  it('close() resolves only once what it learned is stored, so a process that exits then loses nothing', async () => {
    const stored: LearnedLimits[] = [];
    const memory: LimitsStore = {
      get: async () => undefined,
      set: async (_account, limits) => {
        await new Promise((r) => setTimeout(r, 200));
        stored.push(limits);
      },
    };
    const l = adaptiveLimiter({ caps: { qps: Infinity, concurrency: Infinity }, account: async () => 'a|loopback|x', memory });
    const permit = await l.acquire();
    // The service refuses the call for the rate: the first refusal makes the limits exact, worth remembering.
    permit.release({});
    await l.close();
    assert.equal(stored.length, 1, 'stored before close() resolved');
    assert.equal(stored[0].exact, true);
  });

  it('finds a sandbox limit it was not told after SC006, keeps SC006 from the caller, and the next run starts from it', async () => {
    sb = await sandbox({ qps: 20, concurrency: 3 });
    const memory = new FileLimitsStore(dir);
    const account = accountKey(endpointsFor(sb.url), GOOD.a);
    const t = testClient(sb.url, { limiter: adaptiveLimiter({ caps: { qps: Infinity, concurrency: Infinity }, account: async () => account, memory }) });
    const out = join(dir, 'out.jsonl');
    const summary = await runBatch({ client: t.client, inputs: ips(120), outFile: out, concurrency: 16 });
    const state = t.client.limiterState();
    await t.client.dispose();
    assert.equal(summary.ok, 120, JSON.stringify(summary));
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((x) => JSON.parse(x) as BatchLine);
    assert.equal(lines.filter((x) => x.code === 'SC006').length, 0, 'SC006 reaching the caller');
    const c = await sb.customer();
    assert.ok((c.resultCodes.SC006 ?? 0) > 0, 'the sandbox refused some calls: the limit was found, not told');
    assert.ok(c.maxConcurrency <= 3);
    assert.ok(state.learned?.exact, JSON.stringify(state));
    assert.ok((state.learned?.qps ?? 0) >= 15 && (state.learned?.qps ?? 0) <= 20, `learned ${JSON.stringify(state.learned)}`);
    const remembered = await memory.get(account);
    assert.ok(remembered?.exact && remembered.qps >= 15 && remembered.qps <= 20, JSON.stringify(remembered));
    // The file names no account.
    assert.ok(!(await readFile(join(dir, 'limits.json'), 'utf8')).includes(GOOD.a.interfaceId === 'a' ? GOOD.a.consumerKey : ''));
    // A second limiter for the same account starts at what was learned, before any call.
    const next = adaptiveLimiter({ caps: { qps: Infinity, concurrency: Infinity }, account: async () => account, memory });
    const p = await next.acquire();
    p.release();
    assert.equal(next.state().qps, remembered.qps);
    assert.equal(next.state().concurrency, remembered.concurrency);
    next.dispose();
  });

  it('starts at an explicit cap, before any answer: a given limit is the start, not only a ceiling', async () => {
    const l = adaptiveLimiter({ caps: { qps: 50, concurrency: 5 }, account: async () => 'a|loopback|x' });
    const p = await l.acquire();
    assert.deepEqual({ qps: l.state().qps, concurrency: l.state().concurrency }, { qps: 50, concurrency: 5 });
    p.release();
    l.dispose();
  });

  it('grows concurrency against a slow sandbox until its rate is met, never above what the sandbox allows', async () => {
    // 100 ms answers, 6 at once: concurrency, not the 200 QPS, binds (60/s).
    sb = await sandbox({ qps: 200, concurrency: 6, responseDelayMs: 100 });
    const account = accountKey(endpointsFor(sb.url), GOOD.a);
    const t = testClient(sb.url, { limiter: adaptiveLimiter({ caps: { qps: Infinity, concurrency: Infinity }, account: async () => account }) });
    const summary = await runBatch({ client: t.client, inputs: ips(240), outFile: join(dir, 'slow.jsonl'), concurrency: 16 });
    const state = t.client.limiterState();
    await t.client.dispose();
    assert.equal(summary.ok, 240, JSON.stringify(summary));
    const c = await sb.customer();
    assert.ok(c.maxConcurrency <= 6, `the sandbox saw ${c.maxConcurrency} at once`);
    assert.ok(state.concurrency >= 4, `concurrency grew from 2 to ${state.concurrency}`);
    // Counted, not timed: the sandbox had the grown concurrency in use (two at once would take 12 s; grown, about 4).
    assert.ok(c.maxConcurrency >= 4, `the sandbox saw at most ${c.maxConcurrency} at once: concurrency was not used as it grew`);
    assert.ok((state.learned?.concurrency ?? 0) <= 6 && (state.learned?.qps ?? 0) <= 200, `learned ${JSON.stringify(state.learned)}`);
  });

  it('learns no limit above the true one when it finds a high rate by itself', async () => {
    sb = await sandbox({ qps: 300, concurrency: 20 });
    const account = accountKey(endpointsFor(sb.url), GOOD.a);
    const t = testClient(sb.url, { limiter: adaptiveLimiter({ caps: { qps: Infinity, concurrency: Infinity }, account: async () => account }) });
    const summary = await runBatch({ client: t.client, inputs: ips(1200), outFile: join(dir, 'fast.jsonl'), concurrency: 32 });
    const state = t.client.limiterState();
    await t.client.dispose();
    assert.equal(summary.ok, 1200, JSON.stringify(summary));
    const c = await sb.customer();
    assert.ok((c.resultCodes.SC006 ?? 0) > 0, 'the sandbox refused some calls: the limit was found, not told');
    assert.ok(state.learned?.exact, JSON.stringify(state));
    const learned = state.learned as { qps: number; concurrency: number };
    assert.ok(learned.qps <= 300 && learned.qps >= 270, `learned ${learned.qps}/s of 300`);
    assert.ok(learned.concurrency <= 20, `learned ${learned.concurrency} at once of 20`);
  });

  describe('on a controlled clock', () => {
    const clock = controlledClock();

    it('lowers its limits after a refusal with Retry-After (HTTP 429) and holds every caller that long', async () => {
      const l = adaptiveLimiter({ caps: { qps: Infinity, concurrency: Infinity }, account: async () => undefined });
      // Three at once: two start, and a third only once an answer (slow, 200 ms) has shown the service takes two.
      const first = await clock.runUntil(Promise.all([l.acquire(), l.acquire()]));
      const more = Promise.all([l.acquire(), l.acquire()]);
      await clock.runUntil(new Promise((r) => setTimeout(r, 200)));
      first[1].release();
      const permits = [first[0], ...(await clock.runUntil(more))];
      assert.equal(l.state().active, 3);
      const before = l.state();
      permits[0].release();
      permits[1].release();
      // Refused with three in flight and hardly more in the window: the concurrency's refusal.
      const held = permits[2].release({ retryAfterMs: 300 });
      assert.ok(held >= 290, `held ${held}`);
      const after = l.state();
      assert.ok(after.concurrency < before.concurrency || after.qps < before.qps, `${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
      const t0 = clock.now();
      (await clock.runUntil(l.acquire())).release();
      assert.ok(clock.now() - t0 >= held, `waited ${clock.now() - t0} ms of the ${held} held`);
      l.dispose();
    });
  });

  it('1,000 callers waiting with one signal add one abort listener and no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const l = adaptiveLimiter({ caps: { qps: 1, concurrency: 1 }, account: async () => undefined });
      const ac = new AbortController();
      const waiting = Array.from({ length: 1000 }, () => l.acquire(ac.signal));
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(getEventListeners(ac.signal, 'abort').length <= 1, `${getEventListeners(ac.signal, 'abort').length} listeners`);
      ac.abort();
      const settled = await Promise.allSettled(waiting);
      assert.ok(settled.filter((s) => s.status === 'rejected').length >= 999);
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
      l.dispose();
      // Through the client and a batch: every lookup shares the batch's signal while it waits or is in flight.
      sb = await sandbox({ qps: 1000, concurrency: 50 });
      const t = testClient(sb.url, { limiter: adaptiveLimiter({ caps: { qps: 1000, concurrency: 20 }, account: async () => undefined }) });
      const summary = await runBatch({ client: t.client, inputs: ips(300), outFile: join(dir, 'b.jsonl'), concurrency: 40, signal: new AbortController().signal });
      await t.client.dispose();
      assert.equal(summary.ok, 300);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });
});
