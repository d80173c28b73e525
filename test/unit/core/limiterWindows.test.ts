// The two counts a fixed limiter keeps, checked exactly on a controlled clock: no sliding window of
// its count holds more than qps starts (the window, not the pacer, is what binds here), and never
// more than `concurrency` calls are in flight, seen at every start.
import * as assert from 'node:assert/strict';
import { COUNT_WINDOW_MS } from '../../../src/core/limits/budget';
import { RateLimiter } from '../../../src/core/limits/limiter';
import { controlledClock } from './controlledClock';

describe('rate limiter: its window and its cap, on a controlled clock', () => {
  const clock = controlledClock();

  it('a fixed qps: no window of COUNT_WINDOW_MS holds more than qps starts, and the next starts as the oldest leaves', async () => {
    const qps = 10;
    const l = new RateLimiter({ qps, concurrency: 100 });
    const starts: number[] = [];
    const calls = Array.from({ length: 35 }, async () => {
      const p = await l.acquire();
      starts.push(clock.now());
      p.release();
    });
    await clock.runUntil(Promise.all(calls));
    assert.equal(starts.length, 35);
    for (let i = qps; i < starts.length; i++) {
      const gap = starts[i] - starts[i - qps];
      assert.ok(gap >= COUNT_WINDOW_MS, `starts ${i - qps} and ${i} are ${gap} ms apart: ${qps + 1} starts in one window`);
    }
    // The window binds, not something slower: the 11th call starts as the 1st leaves the window.
    assert.equal(starts[qps] - starts[0], COUNT_WINDOW_MS);
    l.dispose();
  });

  it('never more than concurrency in flight, seen at every start, and the cap is reached', async () => {
    const concurrency = 3;
    const l = new RateLimiter({ qps: 0, concurrency });
    let active = 0;
    const seen: number[] = [];
    const calls = Array.from({ length: 20 }, async (_, i) => {
      const p = await l.acquire();
      seen.push(++active);
      assert.ok(l.state().active <= concurrency, `the limiter counts ${l.state().active} in flight`);
      await new Promise((r) => setTimeout(r, 1 + ((i * 7) % 5)));
      active--;
      p.release();
    });
    await clock.runUntil(Promise.all(calls));
    assert.equal(seen.length, 20);
    assert.ok(Math.max(...seen) <= concurrency, `in flight at the starts: ${seen.join(' ')}`);
    assert.equal(Math.max(...seen), concurrency);
    assert.deepEqual(l.state(), { qps: Infinity, concurrency, active: 0, queued: 0 });
    l.dispose();
  });
});
