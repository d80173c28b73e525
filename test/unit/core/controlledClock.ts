// A controlled clock for the tests of one describe block (@sinonjs/fake-timers): Date, setTimeout and
// setInterval move only when the test runs them, so what a limiter does in time is checked exactly
// and no test waits for, or depends on, the machine's real time. Installed before each test, removed
// after it; tests that do real I/O (sockets, processes) do not use it.
import * as FakeTimers from '@sinonjs/fake-timers';

export interface ControlledClock {
  now(): number;
  /** Runs timers (and the promises they settle) until `p` settles; fails if it never can. */
  runUntil<T>(p: Promise<T>): Promise<T>;
}

export function controlledClock(): ControlledClock {
  let clock: FakeTimers.Clock | undefined;
  beforeEach(() => {
    clock = FakeTimers.install({ now: 1_700_000_000_000, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    clock?.uninstall();
    clock = undefined;
  });
  const installed = (): FakeTimers.Clock => {
    if (!clock) throw new Error('The controlled clock is used outside a test.');
    return clock;
  };
  return {
    now: () => installed().now,
    async runUntil(p) {
      let settled = false;
      const watched = p.finally(() => (settled = true));
      // Each step runs the next timer, then lets the promises it settled run before looking again.
      for (let steps = 0; !settled; steps++) {
        if (steps > 100_000) throw new Error('runUntil: still not settled after 100,000 timers.');
        await installed().nextAsync();
        if (!settled && installed().countTimers() === 0) await new Promise<void>((r) => setImmediate(r));
        if (!settled && installed().countTimers() === 0) throw new Error('runUntil: nothing left to run, and the promise has not settled.');
      }
      return watched;
    },
  };
}
