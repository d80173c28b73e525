// The requests of one transport that are on the wire, and what may cut them: the transport's overall
// deadline and the caller's AbortSignal. Both used to cost each request an AbortController, a timer
// and AbortSignal.any, about a tenth of a local lookup. Here one timer serves every deadline (they
// all have the same length, so they expire in the order the requests started), and a caller's signal
// gets one 'abort' listener for all of its requests, however many a batch runs at once.
import { EventEmitter } from 'node:events';

/**
 * What undici is given as the request's signal: undici takes an EventEmitter (its documented
 * alternative to an AbortSignal), which is far cheaper to make and to listen to.
 */
export class WireRequestAbort extends EventEmitter {
  /** Why the request was cut, once it was. */
  cut: 'deadline' | 'cancelled' | undefined;

  constructor(readonly deadline: number) {
    super();
  }

  /** Read by undici before it sends. */
  get aborted(): boolean {
    return this.cut !== undefined;
  }

  abort(why: 'deadline' | 'cancelled'): void {
    if (this.cut !== undefined) return;
    this.cut = why;
    this.emit('abort');
  }
}

export class OnTheWire {
  /** In start order, which is deadline order. */
  private readonly requests = new Set<WireRequestAbort>();
  /** The requests of each caller's signal; the signal's one listener cuts them all. */
  private readonly bySignal = new WeakMap<AbortSignal, Set<WireRequestAbort>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** A request about to be sent; `done` it when its answer is read or it failed. */
  start(signal: AbortSignal | undefined): WireRequestAbort {
    const r = new WireRequestAbort(performance.now() + this.timeoutMs);
    if (signal?.aborted) {
      r.abort('cancelled');
      return r;
    }
    this.requests.add(r);
    if (this.timer === undefined) this.wakeAt(r.deadline);
    if (signal) this.ofSignal(signal).add(r);
    return r;
  }

  done(r: WireRequestAbort, signal: AbortSignal | undefined): void {
    this.requests.delete(r);
    if (signal) this.bySignal.get(signal)?.delete(r);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private ofSignal(signal: AbortSignal): Set<WireRequestAbort> {
    let cut = this.bySignal.get(signal);
    if (!cut) {
      // Kept for the signal's life: a signal a batch shares would otherwise gain and lose a listener per call.
      const requests = new Set<WireRequestAbort>();
      signal.addEventListener('abort', () => {
        for (const r of requests) r.abort('cancelled');
        requests.clear();
      }, { once: true });
      this.bySignal.set(signal, requests);
      cut = requests;
    }
    return cut;
  }

  private wakeAt(at: number): void {
    // Unref'd: a request on the wire keeps the process alive by its socket.
    this.timer = setTimeout(() => this.expire(), Math.max(1, Math.ceil(at - performance.now())));
    this.timer.unref();
  }

  private expire(): void {
    this.timer = undefined;
    const now = performance.now();
    for (const r of this.requests) {
      if (r.deadline > now) {
        this.wakeAt(r.deadline);
        return;
      }
      this.requests.delete(r);
      r.abort('deadline');
    }
  }
}
