// The rows runner: one template run once per row (a request file's requests over a data file's rows,
// a batch's built-in lookup over its inputs), up to `concurrency` rows at once, each row's requests in
// order within it. Rows are pulled one at a time as a worker is free (a data file of any size streams
// through). Every row goes through the host's routes (one client per connection: one limiter, guard
// and token for all rows) and the one stop table (stops.ts): a stop ends the run cleanly, no new row
// starts, calls still waiting in the limiter are dropped, rows on the wire finish and are written, the
// rest run again next time. A cancel (`signal`: Ctrl-C's cut, the editor's Cancel) abandons the calls
// in flight and leaves their rows unwritten. Each row's result is written as it completes; rows the
// results already hold as done are skipped (resume).
import type { CallFailure, CallResult } from '../model';
import { stopOf } from './stops';

/** What one row came to. */
export interface RowRun {
  /** Every request of the row passed (a lookup: the client's success). */
  readonly ok: boolean;
  /** The result the row is written with: its last request's (or the one that stopped it). Absent when no request could be sent. */
  readonly result?: CallResult;
  /** Done with: a later run skips it. False for what is worth trying again (finalResult). */
  readonly final: boolean;
  /** The failure that ends the run (stops.ts), when one of the row's requests met it. */
  readonly stop?: CallFailure;
  /** Why the row failed where no call did (an assertion, a request that could not be sent), redacted. */
  readonly failure?: string;
  /** What to do about `failure` (where to look). */
  readonly advice?: string;
  /** Nothing to write: the row was cut short (cancelled) or nothing was sent (the coordinator is gone); it runs again next time. */
  readonly unwritten?: boolean;
}

export interface RowsProgress {
  readonly total: number;
  /** Rows the results held as done before the run (or duplicates of a row), not run again. */
  readonly skipped: number;
  readonly done: number;
  readonly ok: number;
  readonly failed: number;
  /** Since the run started, for a rate: done / elapsed. */
  readonly elapsedMs: number;
}

export interface RowsSummary extends Omit<RowsProgress, 'elapsedMs'> {
  /** Rows were left unrun by `signal` or `stop` (a failure of the stop table says `stoppedBy` instead). */
  readonly cancelled: boolean;
  /** The failure that stopped the run (stops.ts). */
  readonly stoppedBy?: CallFailure;
  readonly durationMs: number;
}

/** The signals a row's calls take: `signal` cuts them now, `stop` lets the calls on the wire be answered. */
export interface RowSignals {
  readonly signal: AbortSignal;
  readonly stop?: AbortSignal;
}

export interface RowsPlan<Row, Run extends RowRun = RowRun> {
  /** The rows, pulled one at a time (a streamed data file's, or a list). A read that fails rejects the run once the rows in flight are done. */
  readonly rows: Iterable<Row> | AsyncIterable<Row>;
  /** How many rows there are, when known before the run (counted by a data file's check); else the rows of a list. */
  readonly total?: number;
  /** Whether the results already hold the row as done (or it repeats a row of this run): skipped. Asked once per row, in order, as it is pulled. */
  isDone(row: Row): boolean;
  /** Runs the template for one row. Never rejects for a call's failure: those are results. */
  runRow(row: Row, signals: RowSignals): Promise<Run>;
  /** Appends the row's result as soon as it is known: a row counts as done only once it is written. */
  write(row: Row, run: Run): void;
  /** Rows run at once (at least 1). */
  readonly concurrency: number;
  /** Cancels the run now: calls in flight are cut, their rows run again next time. */
  readonly signal?: AbortSignal;
  /** Stops the run cleanly: no new row starts, calls still waiting to be sent are dropped, those sent are answered and written. */
  readonly stop?: AbortSignal;
  onProgress?(p: RowsProgress): void;
}

/**
 * Whether a call's result finishes its row: a success, or a 4xx answer the service would give again
 * (other than credentials and limits). Network trouble, 5xx, a 2xx that was not the expected answer,
 * limits, credentials and cancellation run again with the same results file.
 */
export function finalResult(r: CallResult): boolean {
  if (r.ok) return true;
  if (r.comeBackAt !== undefined) return false;
  return r.kind === 'api' && r.status !== undefined && r.status >= 400 && r.status < 500;
}

/** A row a template ran, judged by the stop table: `unwritten` for a cancelled call and for a coordinator that is gone (nothing was sent). */
export function rowOfResult(result: CallResult, ok: boolean, final: boolean): RowRun {
  const stop = stopOf(result);
  if (!result.ok && (result.kind === 'cancelled' || result.kind === 'coordinator')) return { ok: false, result, final: false, stop: result.kind === 'coordinator' ? result : undefined, unwritten: true };
  return { ok, result, final: final && stop === undefined, ...(stop ? { stop } : {}) };
}

/** Runs the plan's rows; see the file's first comment. Never rejects for a call's failure; a failed write or read rejects. */
export async function runRows<Row, Run extends RowRun = RowRun>(plan: RowsPlan<Row, Run>): Promise<RowsSummary> {
  const started = performance.now();
  const total = plan.total ?? (Array.isArray(plan.rows) ? plan.rows.length : 0);
  const progress = { total, skipped: 0, done: 0, ok: 0, failed: 0 };
  const tell = (): void => plan.onProgress?.({ ...progress, elapsedMs: performance.now() - started });
  let stoppedBy: CallFailure | undefined;
  /** A row met the stop table: no new row starts. */
  let halted = false;
  let readFailure: { readonly error: unknown } | undefined;
  // A stop aborts the calls still waiting in the limiter, so it takes effect at once.
  const stopping = new AbortController();
  const signal = plan.signal ? AbortSignal.any([plan.signal, stopping.signal]) : stopping.signal;
  const signals: RowSignals = { signal, ...(plan.stop ? { stop: plan.stop } : {}) };
  const more = (): boolean => !signal.aborted && !halted && plan.stop?.aborted !== true && readFailure === undefined;
  const source = rowsOf(plan.rows);
  /** The next row not done yet, or undefined at the end (one worker reads at a time: the source is a stream). */
  let reading: Promise<Row | undefined> = Promise.resolve(undefined);
  let exhausted = false;
  const next = (): Promise<Row | undefined> => {
    reading = reading.then(async (): Promise<Row | undefined> => {
      while (more()) {
        const got = await source.next();
        if (got.done) {
          exhausted = true;
          return undefined;
        }
        if (!plan.isDone(got.value)) return got.value;
        progress.skipped++;
      }
      return undefined;
    });
    return reading.catch((error: unknown) => {
      readFailure ??= { error };
      return undefined;
    });
  };
  tell();
  let started_ = 0;
  const worker = async (): Promise<void> => {
    for (let row = await next(); row !== undefined && more(); row = await next()) {
      started_++;
      const run = await plan.runRow(row, signals);
      if (run.stop) {
        stoppedBy ??= run.stop;
        halted = true;
        // Nothing was sent (the coordinator): the calls waiting may finish, as they would be refused the same way.
        if (!run.unwritten) stopping.abort();
      }
      if (run.unwritten) return;
      plan.write(row, run);
      progress.done++;
      if (run.ok) progress.ok++;
      else progress.failed++;
      tell();
    }
  };
  const workers = Math.max(1, Math.min(plan.concurrency, Array.isArray(plan.rows) ? plan.rows.length || 1 : plan.concurrency));
  try {
    await Promise.all(Array.from({ length: workers }, () => worker()));
  } finally {
    await source.return(undefined);
  }
  if (readFailure) throw readFailure.error;
  const left = !exhausted || started_ > progress.done;
  return {
    ...progress,
    cancelled: plan.signal?.aborted === true || (plan.stop?.aborted === true && left),
    ...(stoppedBy ? { stoppedBy } : {}),
    durationMs: performance.now() - started,
  };
}

async function* rowsOf<Row>(rows: Iterable<Row> | AsyncIterable<Row>): AsyncGenerator<Row, void> {
  yield* rows;
}
