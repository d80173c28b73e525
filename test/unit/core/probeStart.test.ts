// A given concurrency not yet seen at work (issue 27): calls in flight start at two and grow by one
// per accepted answer, so a cap far above the service's is not sent as one burst before any answer
// can say it is too high. Counted by the limiter's own state, never by a rate.
import * as assert from 'node:assert/strict';
import { adaptiveLimiter } from '../../../src/core/limits/adaptiveControl';
import type { Permit } from '../../../src/core/ports';

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 100));

describe('a given concurrency is reached with the answers', () => {
  it('starts two calls, then one more per accepted answer, up to the cap; the cap is still the limit shown', async () => {
    const l = adaptiveLimiter({ caps: { qps: 500, concurrency: 50 }, account: async () => 'a|loopback|probe-start' });
    const granted: Permit[] = [];
    const waiting = Array.from({ length: 6 }, () => l.acquire().then((p) => granted.push(p)));
    await settle();
    assert.deepEqual({ active: l.state().active, queued: l.state().queued }, { active: 2, queued: 4 });
    assert.equal(l.state().concurrency, 50, 'the given cap is the limit');
    // One accepted answer: one slot back and one more allowed.
    granted[0].release();
    await settle();
    assert.deepEqual({ active: l.state().active, queued: l.state().queued }, { active: 3, queued: 2 });
    granted[1].release();
    granted[2].release();
    await Promise.all(waiting);
    assert.equal(l.state().active, 3);
    for (const p of granted) p.release();
    l.dispose();
  });

  it('a limit learned exactly before is used at once', async () => {
    const memory = { get: async () => ({ qps: 500, concurrency: 6, exact: true, at: 0 }), set: async () => undefined };
    const l = adaptiveLimiter({ caps: { qps: 500, concurrency: 50 }, account: async () => 'a|loopback|probe-learned', memory });
    const granted: Permit[] = [];
    void Array.from({ length: 8 }, () => l.acquire().then((p) => granted.push(p), () => undefined));
    await settle();
    assert.deepEqual({ active: l.state().active, queued: l.state().queued }, { active: 6, queued: 2 });
    for (const p of granted) p.release();
    l.dispose();
  });
});
