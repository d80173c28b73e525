import * as assert from 'node:assert/strict';
import { capped, estimate, onAccepted, onBlocked, onThrottled, RAMP_MS, settle, START, startState, toLearned, type AdaptiveState, type Caps } from '../../../src/core/limits/adaptive';

const AUTO: Caps = { qps: Infinity, concurrency: Infinity };

/** Blocked on `by` again and again, RAMP_MS apart, until it stops growing. */
function grow(s: AdaptiveState, by: 'qps' | 'concurrency', caps: Caps, t: number, times: number): { s: AdaptiveState; t: number } {
  for (let i = 0; i < times; i++) {
    t += RAMP_MS;
    s = onBlocked(s, by, t, caps) ?? s;
  }
  return { s, t };
}

describe('adaptive limits (the reducer)', () => {
  it('starts safe, doubles a limit that binds, and never goes above a cap', () => {
    const caps: Caps = { qps: 20, concurrency: 3 };
    let s = startState(caps, undefined, 0);
    assert.deepEqual(capped(s, caps), { qps: START.qps, concurrency: START.concurrency });
    assert.equal(onBlocked(s, 'qps', 10, caps), undefined, 'not before RAMP_MS');
    ({ s } = grow(s, 'qps', caps, 0, 10));
    ({ s } = grow(s, 'concurrency', caps, 10_000, 10));
    assert.deepEqual(capped(s, caps), { qps: 20, concurrency: 3 });
    assert.equal(s.exact, false);
  });

  it('on a refusal at a new high drops just under what the service accepted, then probes up rarely', () => {
    let t = 0;
    let s = startState(AUTO, undefined, t);
    ({ s, t } = grow(s, 'qps', AUTO, t, 5)); // 5 -> 160/s
    // 50 accepted in the service's last second, the call alone in flight: the rate refused.
    s = onAccepted(s, { recent: 49, level: 1 }) ?? s;
    s = onThrottled(s, { recent: 50, level: 1 }, t);
    assert.equal(s.qps, settle(50));
    assert.equal(settle(50), 49, 'just under');
    assert.equal(s.exact, true);
    assert.deepEqual(estimate(s), { qps: 50, concurrency: s.okConcurrency || 1, exact: true }, 'the limit found');
    assert.equal(onBlocked(s, 'qps', t + 500, AUTO), undefined, 'no probe right after the refusal');
    const probed = onBlocked(s, 'qps', t + 1000, AUTO) as AdaptiveState;
    assert.equal(probed.qps, 50, 'back to the rate the service took');
    const above = onBlocked(probed, 'qps', t + 2000, AUTO) as AdaptiveState;
    assert.equal(above.qps, 51, 'one small step above');
    const further = onBlocked(above, 'qps', t + 3000, AUTO) as AdaptiveState;
    assert.equal(further.qps, 53, 'a larger step once the last one held');
    // Refused above: back under, and the next probe waits twice as long.
    const again = onThrottled(further, { recent: 50, level: 1 }, t + 3000);
    assert.equal(again.qps, 49);
    assert.equal(onBlocked(again, 'qps', t + 4500, AUTO), undefined);
    assert.equal(onBlocked(again, 'qps', t + 5000, AUTO)?.qps, 50);
  });

  it('blames concurrency for a refusal below the rate already accepted, and the rate when the call was alone', () => {
    let s = startState(AUTO, { qps: 50, concurrency: 8, exact: true, at: 0 }, 0);
    s = onThrottled(s, { recent: 20, level: 6 }, 100);
    assert.deepEqual(capped(s, AUTO), { qps: 50, concurrency: 5 });
    s = onThrottled(s, { recent: 30, level: 1 }, 200);
    assert.equal(s.qps, 30, 'alone: the rate refused');
    // A refusal below the rate accepted before passes: back soon, to one less than that rate.
    const back = onBlocked(s, 'qps', 200 + 1000, AUTO) as AdaptiveState;
    assert.equal(back.qps, 49);
  });

  it('proves more than one call in flight at once only when three accepted calls have shown it', () => {
    let s = startState(AUTO, undefined, 0);
    ({ s } = grow(s, 'concurrency', AUTO, 0, 3)); // 2 -> 16 at once
    // One call counted 6 in flight with it (an answer read late can do that): nothing proven yet.
    s = onAccepted(s, { recent: 3, level: 6 }) ?? s;
    assert.equal(s.okConcurrency, 1);
    s = onAccepted(s, { recent: 4, level: 3 }) ?? s;
    assert.equal(s.okConcurrency, 1);
    s = onAccepted(s, { recent: 5, level: 4 }) ?? s;
    assert.equal(s.okConcurrency, 3, 'three calls showed 3 or more');
    assert.deepEqual(s.shown, [6, 4]);
    s = onAccepted(s, { recent: 6, level: 5 }) ?? s;
    assert.equal(s.okConcurrency, 4);
  });

  it('an acceptance proves no more calls in flight than the concurrency a refusal since has left', () => {
    let s = startState(AUTO, { qps: 50, concurrency: 8, exact: true, at: 0 }, 0);
    s = onThrottled(s, { recent: 20, level: 3 }, 100);
    assert.equal(s.concurrency, 2);
    // Calls that started with 5 in flight, before that refusal, and were accepted after it.
    for (let i = 0; i < 3; i++) s = onAccepted(s, { recent: 20, level: 5 }) ?? s;
    assert.equal(estimate(s).concurrency, 2);
  });

  it('a refusal that calls of unknown outcome may have caused drops the rate to what was surely accepted', () => {
    let s = startState(AUTO, { qps: 50, concurrency: 8, exact: true, at: 0 }, 0);
    // 40 surely accepted in the service's last second, 55 perhaps: beyond the 50 it took before.
    s = onThrottled(s, { recent: 40, level: 6, recentAtMost: 55 }, 100);
    assert.deepEqual(capped(s, AUTO), { qps: settle(40), concurrency: 5 });
    assert.equal(estimate(s).qps, 50, 'what it took before still stands');
  });

  it('starts from exact learned limits at once, and remembers only what is not held down by a cap', () => {
    const learned = { qps: 50, concurrency: 5, exact: true, at: 1 };
    const s = startState(AUTO, learned, 0);
    assert.deepEqual(capped(s, AUTO), { qps: 50, concurrency: 5 }, 'the rate the service took, as it was learned');
    assert.equal(onBlocked(s, 'qps', 1000, AUTO), undefined, 'learned limits are probed rarely');
    const capsBelow: Caps = { qps: 20, concurrency: 2 };
    const held = startState(capsBelow, learned, 0);
    assert.deepEqual(capped(held, capsBelow), { qps: 20, concurrency: 2 });
    assert.equal(toLearned(held, capsBelow, learned, 5), undefined, 'a capped run does not overwrite what was learned');
    const refused = onThrottled(startState(AUTO, undefined, 0), { recent: 12, level: 1 }, 10);
    assert.deepEqual(toLearned(refused, AUTO, undefined, 99), { qps: 12, concurrency: 1, exact: true, at: 99 });
  });
});
