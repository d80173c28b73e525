// A first-in, first-out queue of callers waiting for something, cancellable by AbortSignal. Callers
// usually share one signal (a batch passes the same one to every lookup): one 'abort' listener per
// distinct signal serves all of them, so 1,000 waiting callers add one listener, not 1,000, and
// Node never warns about a listener leak.
interface Waiter<T> {
  readonly resolve: (value: T) => void;
  readonly reject: (err: Error) => void;
  readonly signal?: AbortSignal;
}

export class SignalWaiters<T> {
  private readonly queue: Array<Waiter<T>> = [];
  private readonly bySignal = new Map<AbortSignal, { readonly waiters: Set<Waiter<T>>; readonly onAbort: () => void }>();

  constructor(private readonly abortError: () => Error) {}

  get size(): number {
    return this.queue.length;
  }

  /** A promise settled by `grantNext` in turn, by the signal, or by `failAll`. */
  add(signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const w: Waiter<T> = { resolve, reject, signal };
      this.queue.push(w);
      if (!signal) return;
      let entry = this.bySignal.get(signal);
      if (!entry) {
        const waiters = new Set<Waiter<T>>();
        const onAbort = (): void => {
          this.bySignal.delete(signal);
          for (const x of waiters) {
            const i = this.queue.indexOf(x);
            if (i >= 0) this.queue.splice(i, 1);
            x.reject(this.abortError());
          }
        };
        entry = { waiters, onAbort };
        this.bySignal.set(signal, entry);
        signal.addEventListener('abort', onAbort, { once: true });
      }
      entry.waiters.add(w);
    });
  }

  /** Gives the first waiter the value made by `make`; false (and `make` not called) when nobody waits. */
  grantNext(make: () => T): boolean {
    const w = this.queue.shift();
    if (!w) return false;
    this.forget(w);
    w.resolve(make());
    return true;
  }

  failAll(err: Error): void {
    for (const w of this.queue.splice(0)) {
      this.forget(w);
      w.reject(err);
    }
  }

  private forget(w: Waiter<T>): void {
    if (!w.signal) return;
    const entry = this.bySignal.get(w.signal);
    if (!entry) return;
    entry.waiters.delete(w);
    if (entry.waiters.size === 0) {
      w.signal.removeEventListener('abort', entry.onAbort);
      this.bySignal.delete(w.signal);
    }
  }
}
