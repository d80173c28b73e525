// Calls in flight before the first refusal (issue 27): one refusal closes the service's window, so the
// start lets the rate's limit (found with the window used in full) be met before the concurrency's
// (which closes it after a few calls). Checked on a controlled clock by the limiter's own counts of
// calls in flight, never by a rate.
import * as assert from 'node:assert/strict';
import { adaptiveLimiter } from '../../../src/core/limits/adaptiveControl';
import { onProbeAnswer, probeNeed, startProbe } from '../../../src/core/limits/inFlightProbe';
import type { Limiter, Permit } from '../../../src/core/ports';
import { controlledClock } from './controlledClock';

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 100));

/**
 * `calls` callers, each answered (accepted) `roundTripMs` after it starts, on the controlled clock.
 * Returns each call's start and end (ms from the first) and the calls in flight when it started.
 */
async function run(clock: ReturnType<typeof controlledClock>, l: Limiter, calls: number, roundTripMs: number): Promise<Array<{ at: number; level: number; end: number }>> {
  const t0 = clock.now();
  let active = 0;
  const starts: Array<{ at: number; level: number; end: number }> = [];
  const one = async (): Promise<void> => {
    const p = await l.acquire();
    active++;
    const call = { at: clock.now() - t0, level: active, end: Infinity };
    starts.push(call);
    await new Promise((r) => setTimeout(r, roundTripMs));
    active--;
    call.end = clock.now() - t0;
    p.release();
  };
  await clock.runUntil(Promise.all(Array.from({ length: calls }, one)));
  return starts;
}

const most = (starts: ReadonlyArray<{ at: number; level: number; end: number }>, from: number, to: number): number => Math.max(0, ...starts.filter((s) => s.at >= from && s.at < to).map((s) => s.level));

describe('calls in flight before the first refusal', () => {
  describe('on a controlled clock', () => {
    const clock = controlledClock();

    it('a given cap far above the service, fast answers: the accepted rate needs two in flight, so no more start', async () => {
      // --qps 500 --concurrency 50 against a service whose answers take 12 ms: 2 in flight take 166/s,
      // so a service of 50/s refuses the window's 51st call (the rate's refusal) long before a 6th in flight.
      const l = adaptiveLimiter({ caps: { qps: 500, concurrency: 50 }, account: async () => 'a|loopback|probe-fast', now: clock.now });
      const starts = await run(clock, l, 60, 12);
      assert.equal(starts.length, 60);
      assert.equal(most(starts, 0, Infinity), 2);
      assert.equal(l.state().concurrency, 50, 'the given cap is still the limit shown');
      l.dispose();
    });

    it('slow answers: no more in flight than answers have shown the service takes, plus one, one more per round trip', async () => {
      // auto against 200 ms answers: before, the ramp had 8 in flight before the first answer came back.
      const l = adaptiveLimiter({ caps: { qps: Infinity, concurrency: Infinity }, account: async () => 'a|loopback|probe-slow', now: clock.now });
      const starts = await run(clock, l, 40, 200);
      const perTrip = [0, 1, 2, 3, 4].map((i) => most(starts, i * 200, (i + 1) * 200));
      assert.deepEqual(perTrip, [2, 3, 4, 5, 6]);
      l.dispose();
    });

    it('a given concurrency with the rate still ramping: never more in flight than answers have shown, plus one, up to the cap', async () => {
      // --concurrency 32 with 4 ms answers: the rate ramp (x4 a tenth of a second) asks for more in flight.
      const l = adaptiveLimiter({ caps: { qps: Infinity, concurrency: 32 }, account: async () => 'a|loopback|probe-given', now: clock.now });
      const starts = await run(clock, l, 3000, 4);
      for (const c of starts) {
        const shown = Math.max(1, ...starts.filter((x) => x.end <= c.at).map((x) => x.level));
        assert.ok(c.level <= shown + 1, `${c.level} in flight at ${c.at} ms, when answers had shown ${shown}`);
      }
      const top = most(starts, 0, Infinity);
      assert.ok(top > 8 && top <= 32, `${top} in flight at most`);
      l.dispose();
    });
  });

  it('the rule: one step per round trip, only when a call ran with all the calls allowed, only while the rate needs more', () => {
    let p = startProbe(1000);
    assert.equal(p.allowed, 2);
    assert.equal(onProbeAnswer(p, { startedAt: 1000, level: 1 }, 1010, 5), p, 'not shown with two in flight');
    assert.equal(onProbeAnswer(p, { startedAt: 1000, level: 2 }, 1010, 2), p, 'the rate needs no more');
    p = onProbeAnswer(p, { startedAt: 1000, level: 2 }, 1010, 5);
    assert.deepEqual(p, { allowed: 3, raisedAt: 1010 });
    assert.equal(onProbeAnswer(p, { startedAt: 1002, level: 3 }, 1012, 5), p, 'started before the last step: no round trip at 3 yet');
    assert.equal(onProbeAnswer(p, { startedAt: 1010, level: 3 }, 1022, 5).allowed, 4);
    // Little's law with fast answers; slow answers are bounded only by what they showed.
    assert.equal(probeNeed(50, 12, false), 2);
    assert.equal(probeNeed(2000, 4, false), 11);
    assert.equal(probeNeed(25, 200, true), Infinity);
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
