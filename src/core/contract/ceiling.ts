// A run's ceiling of data calls (`--max-calls N`, the editor's run setting): one count for the whole
// run, whatever its connections. The exchange takes one before each data call goes on the wire (a
// retry after SC006 is a call too), so the service never counts more than N for the run; the rows
// runner starts a row only while the ceiling has room for all of its requests, so a run stops between
// rows, nothing half done, and the rows not run are there for the next run.
import type { CallFailure } from '../model';

export class CallCeiling {
  private taken = 0;

  constructor(readonly max: number) {}

  /** Data calls the run has sent (or is sending). */
  get sent(): number {
    return this.taken;
  }

  /** One more data call, or false: the run has made `max` already, and nothing more is sent. */
  take(): boolean {
    if (this.taken >= this.max) return false;
    this.taken++;
    return true;
  }

  /** A call taken that surely never reached the service (refused before it was sent). */
  giveBack(): void {
    this.taken = Math.max(0, this.taken - 1);
  }

  /**
   * Whether a row of `calls` requests may start while `inFlight` rows of as many are on their way.
   * A row in flight may already have taken some of its calls, so this errs towards waiting; with none
   * in flight it is exact.
   */
  room(calls: number, inFlight: number): boolean {
    return this.taken + (inFlight + 1) * calls <= this.max;
  }

  /** What a call past the ceiling, or the run stopped at it, comes to: the run ends cleanly. */
  failure(): CallFailure {
    return {
      ok: false,
      kind: 'ceiling',
      text: `The run made ${this.taken} of the ${this.max} data calls it may make (its ceiling, --max-calls); nothing more was sent.`,
      advice: 'Run it again to go on: the rows already done are skipped, and the rest run, up to the ceiling again.',
      durationMs: 0,
    };
  }
}

/**
 * Which rows may start under a ceiling: `next()` says go (the row is counted in flight until `done()`),
 * wait (a promise that resolves when a row in flight finishes: then ask again), or full (no room and
 * nothing in flight: the run stops here).
 */
export class RowGate {
  private inFlight = 0;
  private waiting: Array<() => void> = [];

  constructor(
    readonly ceiling: CallCeiling,
    /** Data calls one row makes (a request file's requests; a lookup is one). */
    private readonly calls: number,
  ) {}

  next(): 'go' | 'full' | Promise<void> {
    if (this.ceiling.room(Math.max(1, this.calls), this.inFlight)) {
      this.inFlight++;
      return 'go';
    }
    if (this.inFlight === 0) return 'full';
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  done(): void {
    this.inFlight--;
    for (const wake of this.waiting.splice(0)) wake();
  }
}
