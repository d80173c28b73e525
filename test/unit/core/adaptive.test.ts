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
