// A coordinator that is still connecting, for hosts that build their client at once (the extension):
// every operation waits for the connection, and fails with the coordinator's error if it never came.
import type { AdaptiveState } from '../limits/adaptive';
import type { SharedState } from '../limits/adaptiveControl';
import type { Budget, StartResult } from '../limits/budget';
import type { Limits } from '../limits/budget';
import type { AccountLocks, GuardStore, LimitsStore, TokenStore, UsageStore } from '../ports';
import type { Coordinator } from './coordinator';

export function deferredCoordinator(name: string, connecting: Promise<Coordinator>): Coordinator {
  // Seen as handled here: each operation below reports the failure to its own caller.
  connecting.catch(() => undefined);
  const on = async <T>(use: (c: Coordinator) => Promise<T>): Promise<T> => use(await connecting);
  const tokenStore: TokenStore = {
    get: (owner) => on((c) => c.tokenStore.get(owner)),
    set: (owner, t) => on((c) => c.tokenStore.set(owner, t)),
    delete: (owner, v) => on((c) => c.tokenStore.delete(owner, v)),
  };
  const guardStore: GuardStore = {
    read: (a) => on((c) => c.guardStore.read(a)),
    begin: (a) => on((c) => c.guardStore.begin(a)),
    end: (a, o) => on((c) => c.guardStore.end(a, o)),
  };
  const locks: AccountLocks = { withLock: (k, run, signal) => on((c) => c.locks.withLock(k, run, signal)) };
  const limits: LimitsStore = { get: (a) => on((c) => c.limits.get(a)), set: (a, l) => on((c) => c.limits.set(a, l)) };
  const usage: UsageStore = {
    take: (s, p, keep) => on((c) => c.usage.take(s, p, keep)),
    giveBack: (s, p) => on((c) => c.usage.giveBack(s, p)),
    read: (s, p) => on((c) => c.usage.read(s, p)),
    markReached: (s, p, at, keep) => on((c) => c.usage.markReached(s, p, at, keep)),
    clearReached: (s, p) => on((c) => c.usage.clearReached(s, p)),
  };
  return {
    name,
    tokenStore,
    guardStore,
    locks,
    limits,
    usage,
    limiter(account) {
      const parts = connecting.then((c) => c.limiter(account));
      parts.catch(() => undefined);
      const budget: Budget = {
        shared: true,
        tryStart: async (l: Limits): Promise<StartResult> => (await parts).budget.tryStart(l),
        end: (id, throttled) => void parts.then((p) => p.budget.end(id, throttled), () => undefined),
        closeWindow: (ms) => void parts.then((p) => p.budget.closeWindow(ms), () => undefined),
        dispose: () => void parts.then((p) => p.budget.dispose(), () => undefined),
      };
      const state = (a: string): SharedState => ({
        load: async () => (await parts).state(a).load(),
        swap: async (base: AdaptiveState | undefined, next: AdaptiveState) => (await parts).state(a).swap(base, next),
      });
      return { state, budget };
    },
    dispose: () => connecting.then((c) => c.dispose(), () => undefined),
  };
}
