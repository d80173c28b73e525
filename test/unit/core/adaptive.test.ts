import * as assert from 'node:assert/strict';
import { capped, estimate, onAccepted, onBlocked, onThrottled, RAMP_MS, START, startState, toLearned, type AdaptiveState, type Caps } from '../../../src/core/limits/adaptive';

const AUTO: Caps = { qps: Infinity, concurrency: Infinity };

/** Blocked on `by` again and again, RAMP_MS apart, until it stops growing. */
function grow(s: AdaptiveState, by: 'qps' | 'concurrency', caps: Caps, t: number, times: number, latencyMs?: number): { s: AdaptiveState; t: number } {
  for (let i = 0; i < times; i++) {
    t += RAMP_MS;
    s = onBlocked(s, by, t, caps, latencyMs) ?? s;
  }
  return { s, t };
}

describe('adaptive limits (the reducer)', () => {
  it('with nothing known starts low, grows a limit that binds fast (x4 a tenth of a second for the rate), and never above a cap', () => {
    const caps: Caps = { qps: 2000, concurrency: 3 };
    let s = startState({ qps: Infinity, concurrency: Infinity }, undefined, 0);
    assert.deepEqual(capped(s, AUTO), { qps: START.qps, concurrency: START.concurrency });
    assert.equal(onBlocked(s, 'qps', 10, AUTO), undefined, 'not before RAMP_MS');
    const rates: number[] = [];
    let t = 0;
    for (let i = 0; i < 4; i++) {
      ({ s, t } = grow(s, 'qps', AUTO, t, 1));
      rates.push(s.qps);
    }
    assert.deepEqual(rates, [20, 80, 320, 1280], 'from 5/s to over a thousand in 400 ms');
    let c = startState({ qps: Infinity, concurrency: 3 }, undefined, 0);
    ({ s: c } = grow(c, 'concurrency', caps, 0, 10));
    assert.equal(capped(c, caps).concurrency, 3, 'never above the cap');
    assert.equal(c.exact, false);
  });

  it('an explicit cap is where it starts, not only a ceiling; a learned limit under it wins', () => {
    const caps: Caps = { qps: 50, concurrency: 5 };
    assert.deepEqual(capped(startState(caps, undefined, 0), caps), { qps: 50, concurrency: 5 });
    // Only the rate given: it starts there; concurrency starts low and grows.
    const rateOnly: Caps = { qps: 2000, concurrency: Infinity };
    assert.deepEqual(capped(startState(rateOnly, undefined, 0), rateOnly), { qps: 2000, concurrency: START.concurrency });
    const learned = { qps: 40, concurrency: 4, exact: true, at: 1 };
    assert.deepEqual(capped(startState(caps, learned, 0), caps), { qps: 40, concurrency: 4 });
  });

  it('on a refusal at a new high drops to what the service surely took, then probes up rarely', () => {
    let t = 0;
    let s = startState(AUTO, undefined, t);
    ({ s, t } = grow(s, 'qps', AUTO, t, 3)); // 5 -> 320/s
    // 50 surely accepted in the service's last second, the call alone in flight: the rate refused.
    s = onAccepted(s, { recent: 47, level: 1 }) ?? s;
    s = onThrottled(s, { recent: 50, level: 1 }, t);
    assert.equal(s.qps, 50, 'the limiter keeps its margin in its count window, not in the rate');
    assert.equal(s.exact, true);
    assert.deepEqual(estimate(s), { qps: 50, concurrency: s.okConcurrency || 1, exact: true }, 'the limit found');
    assert.equal(onBlocked(s, 'qps', t + 3500, AUTO), undefined, 'no probe for 4 s after the refusal that found it');
    const above = onBlocked(s, 'qps', t + 4000, AUTO) as AdaptiveState;
    assert.equal(above.qps, 51, 'one small step above');
    const further = onBlocked(above, 'qps', t + 8000, AUTO) as AdaptiveState;
    assert.equal(further.qps, 53, 'a larger step once the last one held');
    // Refused above: back to what it took, and the next probe waits twice as long.
    const again = onThrottled(further, { recent: 50, level: 1 }, t + 8000);
    assert.equal(again.qps, 50);
    assert.equal(onBlocked(again, 'qps', t + 15_500, AUTO), undefined);
    assert.equal(onBlocked(again, 'qps', t + 16_000, AUTO)?.qps, 51);
  });

  it('answers of the burst read after its refusal raise the rate to what the service was shown to take', () => {
    let s = startState(AUTO, undefined, 0);
    ({ s } = grow(s, 'qps', AUTO, 0, 3));
    s = onThrottled(s, { recent: 46, level: 1 }, 300);
    assert.equal(s.qps, 46);
    // The first call after the window slid counts 49 others the service surely took with it.
    s = onAccepted(s, { recent: 49, level: 1 }) ?? s;
    assert.deepEqual({ qps: s.qps, okQps: s.okQps }, { qps: 50, okQps: 50 });
  });

  it('a refusal at a rate the service took before costs one call a second for a moment; three close together lower what was learned', () => {
    let s = startState(AUTO, { qps: 50, concurrency: 5, exact: true, at: 0 }, 0);
    s = onThrottled(s, { recent: 49, level: 1 }, 1000);
    assert.deepEqual({ qps: s.qps, okQps: s.okQps }, { qps: 49, okQps: 50 });
    assert.equal(onBlocked(s, 'qps', 2000, AUTO)?.qps, 50, 'back a second later');
    s = onThrottled(s, { recent: 48, level: 1 }, 3000);
    s = onThrottled(s, { recent: 48, level: 1 }, 4000);
    assert.equal(s.okQps, 49, 'the third within ten seconds: the limit moved');
    // Far apart, they are noise (a call that reached the service early) and cost nothing learned.
    let t = startState(AUTO, { qps: 50, concurrency: 5, exact: true, at: 0 }, 0);
    for (const at of [1000, 20_000, 40_000]) t = onThrottled(t, { recent: 49, level: 1 }, at);
    assert.equal(t.okQps, 50);
  });

  it('reads a refusal with a window far fuller than the calls in flight as the rate, and one with few more as the concurrency', () => {
    // 2,000 calls in the window and 10 in flight: the window filled.
    let fast = startState(AUTO, undefined, 0);
    ({ s: fast } = grow(fast, 'qps', AUTO, 0, 5));
    ({ s: fast } = grow(fast, 'concurrency', AUTO, 0, 4));
    fast = onAccepted(fast, { recent: 1900, level: 1 }) ?? fast;
    const before = fast.concurrency;
    fast = onThrottled(fast, { recent: 1990, level: 10, recentAtMost: 2000 }, 500);
    assert.deepEqual({ qps: fast.qps, concurrency: fast.concurrency }, { qps: 1990, concurrency: before });
    // Calls of 200 ms: 8 in the window, 8 in flight: the concurrency refused, the rate did not.
    let slow = startState(AUTO, undefined, 0);
    ({ s: slow } = grow(slow, 'concurrency', AUTO, 0, 2));
    slow = onThrottled(slow, { recent: 0, level: 8, recentAtMost: 8 }, 300);
    assert.equal(slow.concurrency, 7);
    assert.equal(slow.qps, START.qps, 'the rate is left as it was');
    assert.equal(slow.refusedConcurrency, 8);
  });

  it('reads a refusal with slow answers at a concurrency just probed as the concurrency, though the window counts one more than before', () => {
    // 200 ms answers, 5 at once: about 20 calls surely accepted in a window, 5 proven in flight, and
    // 6 refused before. The probe to 6 is refused with 20 surely in the window (one more than the
    // accepted calls showed: the count varies by one) and 25 counting those in flight.
    let s = startState(AUTO, undefined, 0);
    ({ s } = grow(s, 'qps', AUTO, 0, 3));
    ({ s } = grow(s, 'concurrency', AUTO, 0, 2));
    s = onThrottled(s, { recent: 0, level: 6, recentAtMost: 5 }, 300);
    for (let i = 0; i < 3; i++) s = onAccepted(s, { recent: 19, level: 5 }) ?? s;
    assert.deepEqual({ okQps: s.okQps, okConcurrency: s.okConcurrency, refusedConcurrency: s.refusedConcurrency }, { okQps: 20, okConcurrency: 5, refusedConcurrency: 6 });
    const probed = { ...s, concurrency: 6 };
    const after = onThrottled(probed, { recent: 20, level: 6, recentAtMost: 25 }, 5000, 200);
    assert.equal(after.qps, s.qps, 'the rate is left as it was');
    assert.equal(after.concurrency, 5);
    // Calls in flight the service took before: the same window is the rate's.
    const rate = onThrottled(s, { recent: 20, level: 5, recentAtMost: 25 }, 5000, 200);
    assert.equal(rate.qps, 20);
    // Fast answers (5 ms; 30 ms on a busy machine): 50 in the window and 4 in flight, more than proven: still the rate's.
    for (const roundTrip of [5, 30]) {
      const fast = onThrottled(startState(AUTO, { qps: 50, concurrency: 3, exact: true, at: 0 }, 0), { recent: 49, level: 4, recentAtMost: 50 }, 1000, roundTrip);
      assert.deepEqual({ qps: fast.qps, concurrency: fast.concurrency, refusedConcurrency: fast.refusedConcurrency }, { qps: 50, concurrency: 3, refusedConcurrency: undefined });
    }
  });

  it('a concurrency accepted at a level and refused one above is found: the next probe above it waits as long as a learned one', () => {
    // A ramp's doubling refused at 6, 7 and 8 in flight: found only roughly, probed again 4 s later.
    let s = startState(AUTO, undefined, 0);
    ({ s } = grow(s, 'concurrency', AUTO, 0, 2));
    s = onThrottled(s, { recent: 0, level: 6, recentAtMost: 5 }, 300);
    assert.equal(s.probe.concurrency.at, 300 + 4000);
    for (let i = 0; i < 3; i++) s = onAccepted(s, { recent: 19, level: 5 }) ?? s;
    // The probe to 6 is refused: accepted at 5, refused at 6, so 5 it is.
    s = onBlocked(s, 'concurrency', 4300, AUTO) as AdaptiveState;
    assert.equal(s.concurrency, 6);
    s = onThrottled(s, { recent: 19, level: 6, recentAtMost: 24 }, 4400, 200);
    assert.equal(s.concurrency, 5);
    assert.equal(onBlocked(s, 'concurrency', 4400 + 29_000, AUTO), undefined, 'not probed again within 30 s');
    assert.equal(onBlocked(s, 'concurrency', 4400 + 30_000, AUTO)?.concurrency, 6);
  });

  it('a start’s probe that showed a level by an accepted answer and was refused one above has found the concurrency', () => {
    // Slow answers, 6 allowed in flight after an answer showed 5 (the probe's step), refused at 6.
    const s = { ...startState(AUTO, undefined, 0), concurrency: 6 };
    const found = onThrottled(s, { recent: 19, level: 6, recentAtMost: 20 }, 900, 200, 5);
    assert.equal(found.concurrency, 5);
    assert.equal(found.probe.concurrency.at, 900 + 30_000, 'probed again as rarely as a learned one');
    // Without an answer that showed 5, the ramp's refusal is found only roughly: probed again after 4 s.
    assert.equal(onThrottled(s, { recent: 19, level: 6, recentAtMost: 20 }, 900, 200).probe.concurrency.at, 900 + 4000);
  });

  it('grows concurrency to what the rate needs (Little’s law) while calls wait for a slot, and no higher than a refusal left it', () => {
    let s = startState(AUTO, { qps: 2000, concurrency: 2, exact: true, at: 0 }, 0);
    // 2,000/s with answers in 4 ms: 8 in flight on average, 10 with headroom, and one more.
    const grown = onBlocked(s, 'concurrency', 10, AUTO, 4) as AdaptiveState;
    assert.equal(grown.concurrency, 11);
    assert.equal(onBlocked(grown, 'concurrency', 20, AUTO, 4), undefined, 'enough: no probing above');
    // A refusal the concurrency made at 7 in flight: it grows to 6 and probes beyond only when due.
    s = onThrottled(s, { recent: 100, level: 7, recentAtMost: 100 }, 30);
    s = { ...s, concurrency: 2 };
    const capped6 = onBlocked(s, 'concurrency', 40, AUTO, 4) as AdaptiveState;
    assert.equal(capped6.concurrency, 6);
    assert.equal(onBlocked(capped6, 'concurrency', 50, AUTO, 4), undefined, 'the probe is not due yet');
    assert.equal(onBlocked(capped6, 'concurrency', 30 + 60_000, AUTO, 4)?.concurrency, 7, 'one above, when due');
    // The probe's calls, accepted with 7 in flight, outdo the refusal: it no longer holds concurrency down.
    let outdone = onBlocked(capped6, 'concurrency', 30 + 60_000, AUTO, 4) as AdaptiveState;
    for (let i = 0; i < 3; i++) outdone = onAccepted(outdone, { recent: 100, level: 7 }) ?? outdone;
    assert.equal(outdone.refusedConcurrency, undefined);
  });

  it('in a ramp, grows concurrency only as far as the rate needs, so it does not find the concurrency limit by refusals', () => {
    let s = startState(AUTO, undefined, 0);
    ({ s } = grow(s, 'qps', AUTO, 0, 3)); // 320/s
    // 320/s with answers in 3 ms: about one in flight; with headroom and one more, 3.
    const grown = onBlocked(s, 'concurrency', 400, AUTO, 3) as AdaptiveState;
    assert.equal(grown.concurrency, 3);
    assert.equal(onBlocked(grown, 'concurrency', 600, AUTO, 3), undefined, 'the rate grows first');
    // With no answer timed yet, it doubles.
    assert.equal(onBlocked(s, 'concurrency', 400, AUTO)?.concurrency, 4);
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

  it('starts from exact learned limits at once, and remembers only what is not held down by a cap', () => {
    const learned = { qps: 50, concurrency: 5, exact: true, at: 1 };
    const s = startState(AUTO, learned, 0);
    assert.deepEqual(capped(s, AUTO), { qps: 50, concurrency: 5 }, 'the rate the service took, as it was learned');
    assert.equal(onBlocked(s, 'qps', 10_000, AUTO), undefined, 'learned limits are probed rarely');
    assert.equal(onBlocked(s, 'qps', 30_000, AUTO)?.qps, 51);
    const capsBelow: Caps = { qps: 20, concurrency: 2 };
    const held = startState(capsBelow, learned, 0);
    assert.deepEqual(capped(held, capsBelow), { qps: 20, concurrency: 2 });
    assert.equal(toLearned(held, capsBelow, learned, 5), undefined, 'a capped run does not overwrite what was learned');
    const refused = onThrottled(startState(AUTO, undefined, 0), { recent: 12, level: 1 }, 10);
    assert.deepEqual(toLearned(refused, AUTO, undefined, 99), { qps: 12, concurrency: 1, exact: true, at: 99 });
  });
});
