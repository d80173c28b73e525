// A data-driven run (issue 26): a request file's requests as the template of the rows runner
// (rows.ts), run by the engine (engine.ts) once per row of a data file (core/data), each row with
// its own chained answers and its values as variables (a row's value overrides the file's default of
// that name). Every row goes through the host's routes, so one client per connection serves them all.
// What a row came to is decided here once, for every host (`bizdata send/test --data`, Run with Data,
// the Test Explorer's data rows): written to the results file (core/data) as it completes, its last
// answer or the failure that ended it; final (skipped next time) unless it is worth trying again.
import type { CallResult } from '../model';
import type { DataRow } from '../data/rows';
import type { ResultsFile, RowResult } from '../data/resultTypes';
import { answerOf } from '../requests/assertions';
import type { ParsedRequest, ParsedRequestFile } from '../requests/requestFile';
import { redactedBody } from './chain';
import { runRequests, type RunHost } from './engine';
import type { RequestOutcome } from './judge';
import { finalResult, rowOfResult, runRows, type RowRun, type RowSignals, type RowsProgress, type RowsSummary } from './rows';

export interface DataRunPlan {
  readonly file: ParsedRequestFile;
  readonly requests: readonly ParsedRequest[];
  /** As runRequests' plan: `first-failure` for `bizdata send` (a row is a script), `end` for `bizdata test` and the editor. */
  readonly until: 'end' | 'first-failure';
  readonly rows: readonly DataRow[];
  /** Where each row's result is appended and what an earlier run finished; none: every row runs, nothing is written. */
  readonly results?: Pick<ResultsFile, 'isDone' | 'write'>;
  readonly concurrency: number;
  /** Stops the run cleanly: no new row starts; rows in flight finish and are written. */
  readonly stop?: AbortSignal;
  /** Cancels the run (the editor's Cancel): no new row starts, and a row it cuts short is not written, so it runs again. */
  readonly signal?: AbortSignal;
  /** The run's one redaction: what is written holds no secret it knows. */
  redact(text: string): string;
  onProgress?(p: RowsProgress): void;
  /** Told what each row came to, as it is written (the Test Explorer's verdict of the row). */
  onRow?(row: DataRow, run: FileRowRun): void;
}

/** What one row of a request file came to, with its requests' verdicts. */
export interface FileRowRun extends RowRun {
  readonly outcomes: readonly RequestOutcome[];
}

/**
 * Runs the file once per row. `hostFor` gives each row its host (its events are that row's); the
 * row's values are added to what its requests may read. The host's clean stop never cuts a row in
 * flight (it finishes and is written); the plan's `signal` does, and that row runs again next time.
 */
export async function runDataRows(plan: DataRunPlan, hostFor: (row: DataRow) => RunHost): Promise<RowsSummary> {
  const { results } = plan;
  return runRows<DataRow, FileRowRun>({
    rows: plan.rows,
    isDone: (row) => results?.isDone(row) ?? false,
    runRow: (row, signals) => runFileRow(plan, hostFor(row), row, signals),
    write: (row, run) => {
      results?.write(rowResult(row, run, plan.redact));
      plan.onRow?.(row, run);
    },
    concurrency: plan.concurrency,
    ...(plan.signal ? { signal: plan.signal } : {}),
    ...(plan.stop ? { stop: plan.stop } : {}),
    ...(plan.onProgress ? { onProgress: plan.onProgress } : {}),
  });
}

async function runFileRow(plan: DataRunPlan, host: RunHost, row: DataRow, signals: RowSignals): Promise<FileRowRun> {
  const values = new Map(Object.entries(row.values));
  const answered: CallResult[] = [];
  let declined = false;
  /** Cut short by the cancel: a call cut on the wire, or a request not started (never a stop the engine told). */
  let cut = false;
  let told = false;
  const rowHost: RunHost = {
    ...host,
    // Every call goes with the rows runner's signals: a stop another row meets drops it while it waits in the limiter.
    route: (name) => {
      const route = host.route(name);
      return route && { ...route, send: (request, r) => route.send(request, r, signals) };
    },
    inputs: async (r) => {
      const inputs = await host.inputs(r);
      return inputs && { ...inputs, row: values };
    },
    // Only a cancel cuts a row short; a stop (the host's, or another row's failure) lets it finish.
    stopped: () => plan.signal?.aborted === true,
    on: (e) => {
      if (e.kind === 'answered') answered.push(e.step.result);
      if (e.kind === 'skipped' && e.why === 'declined') declined = true;
      if (e.kind === 'skipped' && (e.why === 'cancelled' || (e.why === 'stopped' && !told))) cut = true;
      if (e.kind === 'stopped') told = true;
      return host.on?.(e);
    },
  };
  const summary = await runRequests({ file: plan.file, requests: plan.requests, until: plan.until }, rowHost);
  return fileRowRun(plan, summary.outcomes, answered, declined, cut);
}

/**
 * The one rule of what a row came to. Cut short by a cancel: nothing is written, it runs again. Ok
 * when every request ran and passed. Final unless a call is worth trying again (finalResult), the row
 * met a failure that stops the run, or a request did not run because the user declined it (a
 * `# @note` declined, a prompt closed): a row none of whose requests ran is never done.
 */
function fileRowRun(plan: DataRunPlan, outcomes: readonly RequestOutcome[], answered: readonly CallResult[], declined: boolean, cut: boolean): FileRowRun {
  const last = answered.at(-1);
  if (cut) return { ok: false, final: false, unwritten: true, outcomes, ...(last ? { result: last } : {}) };
  const sent = plan.requests.filter((r) => !r.settings.disabled).length;
  const passed = outcomes.length === sent && outcomes.every((o) => o.verdict === 'passed');
  const final = !declined && outcomes.length > 0 && answered.every(finalResult);
  const failed = outcomes.find((o) => o.verdict !== 'passed');
  const why = failed && (failed.message ?? failed.assertions.filter((a) => !a.passed).map((a) => a.message).join('; '));
  const failure = why ? { failure: plan.redact(why), advice: `See ${failed.name} at line ${failed.line + 1} of the request file; correct the row or the request, and run it again.` } : {};
  // No request answered (a value missing at its turn, or none ran): the row's own failure.
  if (!last) return { ok: false, final, outcomes, ...failure };
  const run = rowOfResult(last, passed, final);
  return { ...run, outcomes, ...(run.result?.ok ? failure : {}) };
}

/** A row's line in the results: the values, status, code and answer of its last request, or why it failed. */
function rowResult(row: DataRow, run: RowRun, redact: (text: string) => string): RowResult {
  const r = run.result;
  const answer = r && answerOf(r);
  const body = answer?.body ?? answer?.text;
  const redacted = redactedBody(body, redact);
  const error =
    r && !r.ok
      ? { kind: r.kind, text: redact(r.text), ...(r.meaning !== undefined ? { meaning: r.meaning } : {}), advice: r.advice }
      : run.failure !== undefined
        ? { kind: 'failed', text: run.failure, advice: run.advice ?? 'See the request file at the line named; correct the row or the request, and run it again.' }
        : undefined;
  return { row, ok: run.ok, ...(answer?.status !== undefined ? { status: answer.status } : {}), ...(answer?.code !== undefined ? { code: answer.code } : {}), ...(redacted !== undefined ? { answer: redacted } : {}), ...(error ? { error } : {}), final: run.final };
}
