// A data-driven run (issue 26): the requests of a request file run by the engine once per row of a
// data file (core/data/rows.ts), each column a variable (`{{country}}`), each row with its own chain.
// Rows a results file already holds as done are skipped, so a second run resumes; each row's result
// is written as soon as its run ends. A failure of stops.ts ends the whole run (every later row would
// meet it too) and its row is written as not done, so it runs again. Hosts give a host per row (its
// row as `FileInputs.row`) and show the progress.
import type { CallFailure } from '../model';
import type { DataRow, DataTable } from '../data/rows';
import type { ResultsFile, RowResult } from '../data/resultTypes';
import type { ParsedRequest, ParsedRequestFile } from '../requests/requestFile';
import { chainedAnswer } from './chain';
import { runRequests, type RunHost, type RunSummary } from './engine';
import type { RunStep } from './step';

export interface DataRunPlan {
  readonly file: ParsedRequestFile;
  /** The requests each row runs, in file order. */
  readonly requests: readonly ParsedRequest[];
  readonly table: DataTable;
  readonly results: ResultsFile;
}

export interface DataProgress {
  readonly total: number;
  /** Rows run now, and rows an earlier run had done (skipped). */
  readonly done: number;
  readonly skipped: number;
  /** Of the rows run now: every request passed, or not. */
  readonly ok: number;
  readonly failed: number;
}

export interface DataRunSummary extends DataProgress {
  /** The failure (stops.ts) that ended the run. */
  readonly stoppedBy?: CallFailure;
  /** Cancelled by the host (its `stopped()`): the row on its way is not written, and runs again. */
  readonly cancelled: boolean;
}

/**
 * Runs every row not done yet, taken in file order, `concurrency` rows at a time (each row's requests
 * in order; the client's limiter keeps the rate); `onProgress` after each row. After a stop or a
 * cancel no row starts, and the rows on their way end as the engine ends them.
 */
export async function runRows(plan: DataRunPlan, hostFor: (row: DataRow) => RunHost, onProgress?: (p: DataProgress) => void, concurrency = 1): Promise<DataRunSummary> {
  const { table, results } = plan;
  const counts = { total: table.rows.length, done: 0, skipped: 0, ok: 0, failed: 0 };
  let stoppedBy: CallFailure | undefined;
  let cancelled = false;
  const pending = table.rows.filter((row) => {
    const done = results.isDone(row);
    if (done) counts.skipped++;
    return !done;
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length && !stoppedBy && !cancelled) {
      const row = pending[next++];
      const host = hostFor(row);
      if (host.stopped?.()) {
        cancelled = true;
        return;
      }
      let last: RunStep | undefined;
      const summary = await runRequests(
        { file: plan.file, requests: plan.requests, until: 'end' },
        {
          ...host,
          on: async (e) => {
            if (e.kind === 'answered') last = e.step;
            await host.on?.(e);
          },
        },
      );
      // Cut short by the host (a cancelled run): no result for this row, which runs again next time.
      if (summary.stopped && !summary.stopped.failure) {
        cancelled = true;
        return;
      }
      const result = rowResult(row, summary, last, host.redact);
      results.write(result);
      counts.done++;
      if (result.ok) counts.ok++;
      else counts.failed++;
      onProgress?.({ ...counts });
      if (summary.stopped?.failure) stoppedBy ??= summary.stopped.failure;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, pending.length)) }, worker));
  return { ...counts, cancelled, ...(stoppedBy ? { stoppedBy } : {}) };
}

/**
 * What a row's run comes to: ok when every request passed; the status, code and answer (redacted) of
 * its last answered request; why it did not pass. Final (a later run skips it) unless it ended the run,
 * met no answer (the network) or ran no request: those are worth trying again.
 */
export function rowResult(row: DataRow, summary: RunSummary, last: RunStep | undefined, redact: (text: string) => string): RowResult {
  const outcomes = summary.outcomes;
  const ok = outcomes.length > 0 && outcomes.every((o) => o.verdict === 'passed');
  const lastOutcome = outcomes.at(-1);
  const answer = last ? chainedAnswer(last.result, redact)?.body : undefined;
  const failure = summary.stopped?.failure;
  const notPassed = outcomes.find((o) => o.verdict !== 'passed');
  const error: RowResult['error'] = failure
    ? { kind: failure.kind, text: redact(failure.text), ...(failure.meaning !== undefined ? { meaning: failure.meaning } : {}), advice: failure.advice }
    : notPassed
      ? { kind: notPassed.verdict, text: redact(notPassed.message ?? notPassed.assertions.filter((a) => !a.passed).map((a) => a.message).join('; ')), advice: `See ${notPassed.name} at line ${notPassed.line + 1} of the request file.` }
      : undefined;
  // A row none of whose requests ran (a `# @note` declined, a prompt closed) is not done either.
  const final = failure === undefined && outcomes.length > 0 && outcomes.every((o) => o.verdict !== 'error' || o.status !== undefined);
  return {
    row,
    ok,
    ...(lastOutcome?.status !== undefined ? { status: lastOutcome.status } : {}),
    ...(lastOutcome?.code !== undefined ? { code: lastOutcome.code } : {}),
    ...(answer !== undefined ? { answer } : {}),
    ...(error && !ok ? { error } : {}),
    final,
  };
}
