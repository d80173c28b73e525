import * as assert from 'node:assert/strict';
import { RateLimiter } from '../../../src/core/limits/limiter';
import { controlledClock } from './controlledClock';
import { drive } from './limiterLoad';

describe('rate limiter', () => {
  const clock = controlledClock();

  it('never starts more than qps in a window nor more than concurrency at once', async () => {
    // A controlled clock: the starts are where the limiter put them, whatever the machine's load.
    const l = new RateLimiter({ qps: 10, concurrency: 3 }, 200, () => clock.now());
    const { starts, peak } = await clock.runUntil(drive(l, 25, 5));
    assert.ok(peak <= 3);
    for (let i = 10; i < starts.length; i++) assert.ok(starts[i] - starts[i - 10] >= 200, `window ${i}`);
    assert.deepEqual(l.state(), { qps: 10, concurrency: 3, active: 0, queued: 0 });
    l.dispose();
  });

  it('cancels waiters by signal and on dispose', async () => {
    const l = new RateLimiter({ qps: 0, concurrency: 1 });
    const held = await l.acquire();
    const ac = new AbortController();
    const a = l.acquire(ac.signal);
    const b = l.acquire();
    assert.equal(l.state().queued, 2);
    ac.abort();
    await assert.rejects(a, /cancelled/);
    l.dispose();
    await assert.rejects(b, /disposed/);
    held.release();
  });
});
