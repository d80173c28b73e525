// What a call shows the adaptive limiter of the service's limits, counted by the budget of one
// process when the call's answer is read: on a clock of the test's own, answers read late (a slow
// network, a busy process), calls refused after another started, and sign-ins.
import * as assert from 'node:assert/strict';
import { LocalBudget, type Limits } from '../../../src/core/limits/budget';
import { RateLimiter, type Control } from '../../../src/core/limits/limiter';
import type { Observation } from '../../../src/core/limits/adaptive';
import type { Permit } from '../../../src/core/ports';

const OPEN: Limits = { qps: Infinity, concurrency: 100 };

/** A budget on a clock the test moves; `start(at)` starts a call at that time and returns its id. */
function budgetAt(): { budget: LocalBudget; start: (at: number) => string; end: (id: string, at: number, uncounted?: boolean) => Observation | undefined } {
  let now = 0;
  const budget = new LocalBudget(1020, () => now);
  return {
    budget,
    start: (at) => {
      now = at;
      const r = budget.tryStart(OPEN);
      assert.ok(r.ok);
      return r.id;
    },
    end: (id, at, uncounted = false) => {
      now = at;
      return budget.end(id, uncounted);
    },
  };
}

describe('local budget: what a call shows of the service limits', () => {
  it('answers read late do not make calls look in flight together', () => {
    const b = budgetAt();
    // Two calls the service answered at once; this process reads their answers only later.
    const a = b.start(0);
    const c = b.start(10);
    const y = b.start(90);
    assert.deepEqual(b.end(a, 100), { recent: 0, level: 1, recentAtMost: 0 });
    assert.equal(b.end(c, 101)?.level, 1);
    // Started while both answers were waiting unread, answered in 15 ms: it was alone at the service,
    // and all three were there within one second (the service took 3 in its window).
    assert.deepEqual(b.end(y, 105), { recent: 2, level: 1, recentAtMost: 2 });
  });

  it('calls answered as they were sent count as in flight together and accepted before', () => {
    const b = budgetAt();
    const x1 = b.start(0);
    const x2 = b.start(10);
    const y = b.start(20);
    b.end(x1, 200);
    b.end(x2, 210);
    assert.deepEqual(b.end(y, 220), { recent: 2, level: 3, recentAtMost: 2 });
  });

  it('counts as accepted with a call only calls the service surely took within one window with it', () => {
    const b = budgetAt();
    // Sent more than the service's window before the answer was read: it may have left the window.
    b.end(b.start(100), 110);
    b.end(b.start(150), 160);
    // A sign-in, and a call refused: neither counted as accepted.
    b.end(b.start(500), 550, true);
    const refused = b.start(900);
    // Still in flight when the call below is read: perhaps accepted, so not surely.
    const pending = b.start(950);
    const y = b.start(1000);
    b.end(refused, 1050, true);
    assert.deepEqual(b.end(y, 1100), { recent: 1, level: 1, recentAtMost: 4 });
    assert.equal(b.end(pending, 1120)?.recent, 2, 'read after it, and within the window with it: counted');
  });

  it('a refused call keeps the calls in flight at its start as its level: they may have filled the service', () => {
    const b = budgetAt();
    const x = b.start(0);
    const y = b.start(5);
    assert.deepEqual(b.end(y, 8, true), { recent: 0, level: 2, recentAtMost: 1 });
    b.end(x, 9);
  });
});

describe('rate limiter: what it tells its control', () => {
  it('what a call shows when its answer is read, and nothing of a sign-in', async () => {
    let now = 0;
    const told: Array<{ seen: Observation; throttled: boolean }> = [];
    const control: Control = {
      ready: async () => undefined,
      limits: () => OPEN,
      blocked: () => false,
      nextChangeAt: () => undefined,
      ended: (seen, throttled) => void told.push({ seen, throttled }),
      describe: () => ({}),
      dispose: () => undefined,
      saved: async () => undefined,
    };
    const l = new RateLimiter(control, 1020, () => now);
    const at = async (t: number): Promise<Permit> => {
      now = t;
      return l.acquire();
    };
    const signIn = await at(0);
    now = 5;
    signIn.release(undefined, true);
    assert.deepEqual(told, [], 'a sign-in tells nothing of the limits of data calls');
    const a = await at(10);
    const c = await at(20);
    const y = await at(90);
    now = 100;
    a.release();
    now = 101;
    c.release();
    now = 105;
    y.release();
    assert.deepEqual(told.at(-1), { seen: { recent: 2, level: 1, recentAtMost: 2 }, throttled: false }, 'counted when its answer was read, not when it started (level 3)');
    l.dispose();
  });
});
