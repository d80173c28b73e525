// `bizdata batch` and the editor's Run Batch on the rows runner (rows.ts): the batch's two built-in
// templates, the IP lookup (Interface A) and the organization lookup (Interface B), once per input.
// A built-in template has nothing to prepare but the row's values: the input is checked (a bad value
// is that input's own final failure, never a stop) and sent as the client's lookup, whose request the
// protocol builds (protocol.ts), through one client, so under its one limiter, guard and token. One
// line per input is appended as it is answered (batchLines.ts); a second run resumes.
import type { CallFailure, CallResult, LookupQuery } from '../model';
import { checkLookup } from '../requests/queries';
import { openBatchResults } from './batchLines';
import { finalResult, rowOfResult, runRows, type RowRun, type RowsProgress, type RowSignals } from './rows';

export type BatchProgress = Omit<RowsProgress, 'elapsedMs'>;

export interface BatchSummary extends BatchProgress {
  readonly outFile: string;
  readonly cancelled: boolean;
  /**
   * The failure that stopped the run: credentials, the lockout guard, a contract limit, or an answer
   * whose Retry-After is longer than the client waits (`comeBackAt` says when to run it again).
   */
  readonly stoppedBy?: Omit<CallFailure, 'request' | 'body'>;
  readonly durationMs: number;
}

/** What a batch sends through: a client's lookups (the CLI's client, the editor's connection). */
export interface LookupRoute {
  lookup(q: LookupQuery, o?: { readonly signal?: AbortSignal; readonly stop?: AbortSignal }): Promise<CallResult>;
}

export interface BatchOptions {
  readonly client: LookupRoute;
  readonly inputs: readonly LookupQuery[];
  readonly outFile: string;
  /** Lookups in flight at once from this batch (the client's limiter still applies). */
  readonly concurrency?: number;
  /** Cancels the run now: lookups in flight are cut, and run again next time. */
  readonly signal?: AbortSignal;
  /** Stops the run cleanly: no new input starts, lookups still waiting to be sent are dropped, those sent are answered and written. */
  readonly stop?: AbortSignal;
  readonly onProgress?: (p: BatchProgress) => void;
  /** The named connection the client talks to: written on every line; lines of another connection are not taken as done. */
  readonly connection?: string;
  /** The run's one redaction (the client's secrets): the results hold none of them. */
  readonly redact?: (text: string) => string;
}

/** A built-in template for one input: the input's own values checked, then the lookup. */
export async function lookupRow(client: LookupRoute, input: LookupQuery, signals: RowSignals): Promise<RowRun> {
  // Checked here too, so a bad value is told apart from an 'input' failure of the setup
  // (endpoints, credentials) that the client reports for every input alike: that one stops the run.
  const problem = checkLookup(input);
  if (problem) return { ok: false, final: true, result: { ok: false, kind: 'input', text: problem, advice: 'Correct this input in the file; the next run retries it.', durationMs: 0 } };
  const result = await client.lookup(input, signals);
  return rowOfResult(result, result.ok, finalResult(result));
}

export async function runBatch(options: BatchOptions): Promise<BatchSummary> {
  const results = await openBatchResults(options.outFile, options.connection, options.redact);
  try {
    const summary = await runRows<LookupQuery>({
      rows: options.inputs,
      isDone: (q) => results.isDone(q),
      runRow: (q, signals) => lookupRow(options.client, q, signals),
      write: (q, run) => results.write(q, run.result as CallResult, run.final),
      concurrency: options.concurrency ?? 4,
      signal: options.signal,
      stop: options.stop,
      onProgress: options.onProgress && ((p) => options.onProgress?.({ total: p.total, skipped: p.skipped, done: p.done, ok: p.ok, failed: p.failed })),
    });
    const { total, skipped, done, ok, failed, cancelled, stoppedBy, durationMs } = summary;
    return { total, skipped, done, ok, failed, outFile: options.outFile, cancelled, stoppedBy: stoppedBy ? withoutRequest(stoppedBy) : undefined, durationMs };
  } finally {
    // A failed write already rejected the worker that made it; here only the file is closed.
    await results.close();
  }
}

/** The failure as the summary keeps it: no request, no body. */
function withoutRequest(f: CallFailure): Omit<CallFailure, 'request' | 'body'> {
  const { kind, code, status, text, meaning, advice, comeBackAt, durationMs } = f;
  return { ok: false, kind, code, status, text, ...(meaning !== undefined ? { meaning } : {}), advice, ...(comeBackAt !== undefined ? { comeBackAt } : {}), durationMs };
}
