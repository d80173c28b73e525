// A data-driven run (issue 26): a request file's requests as the template of the rows runner
// (rows.ts), run by the engine (engine.ts) once per row of a data file (core/data, streamed), each
// row with its own chained answers and its values as variables (a row's value overrides the file's
// default of that name). Every row goes through the host's routes, so one client per connection serves
// them all. What a row came to is decided here once, for every host (`bizdata send/test --data`, Run
// with Data, the Test Explorer's data rows): written to the results file (core/data) as it completes,
// its last answer or the failure that ended it; final (skipped next time) unless it is worth trying
// again. A row whose own values cannot be sent (a line break in a header, a URL moved off the service,
// a value too long) is that row's failure at ROWS:LINE, and the other rows run: the request file's own
// problems were refused before anything was sent (preflight.ts).
import type { CallResult } from '../model';
import type { DataRow } from '../data/rows';
import type { ResultsFile, RowResult } from '../data/resultTypes';
import { redactedBody, type RunSecrets } from '../redact';
import { answerOf } from '../requests/assertions';
import type { ParsedRequest, ParsedRequestFile } from '../requests/requestFile';
import { runRequests, type RunHost } from './engine';
import type { RequestOutcome } from './judge';
import { finalResult, rowOfResult, runRows, type RowRun, type RowsProgress, type RowsSummary } from './rows';

export interface DataRunPlan {
  readonly file: ParsedRequestFile;
  readonly requests: readonly ParsedRequest[];
  /** The request file and the data file as messages name them (`ROWS:LINE`). */
  readonly names: { readonly requestFile: string; readonly dataFile: string };
  /** As runRequests' plan: `first-failure` for `bizdata send` (a row is a script), `end` for `bizdata test` and the editor. */
  readonly until: 'end' | 'first-failure';
  /** The rows, as the data file streams them (or a list). */
  readonly rows: Iterable<DataRow> | AsyncIterable<DataRow>;
  /** How many rows the data file has (its check counted them). */
  readonly total?: number;
  /** Where each row's result is appended and what an earlier run finished; none: every row runs, nothing is written. */
  readonly results?: Pick<ResultsFile, 'isDone' | 'write'>;
  readonly concurrency: number;
  /** Stops the run cleanly: no new row starts; rows on the wire finish and are written. */
  readonly stop?: AbortSignal;
  /** Cancels the run (a signal's cut, the editor's Cancel): no new row starts, and a row it cuts short is not written, so it runs again. */
  readonly signal?: AbortSignal;
  /** The run's one set of secrets: what is written holds none it knows. */
  readonly secrets: RunSecrets;
  onProgress?(p: RowsProgress): void;
  /** Told what each row came to, as it is written (the Test Explorer's verdict of the row). */
  onRow?(row: DataRow, run: FileRowRun): void;
}

/** What one row of a request file came to, with its requests' verdicts. */
export interface FileRowRun extends RowRun {
  readonly outcomes: readonly RequestOutcome[];
  /** A request of the row could not be sent with the row's values: `failure` names the row's line. */
  readonly unsent?: boolean;
}

/**
 * Runs the file once per row. `hostFor` gives each row its host (its events are that row's); the
 * row's values are added to what its requests may read. The host's clean stop never cuts a row on
 * the wire (it finishes and is written); the plan's `signal` does, and that row runs again next time.
 */
export async function runDataRows(plan: DataRunPlan, hostFor: (row: DataRow) => RunHost): Promise<RowsSummary> {
  const { results } = plan;
  return runRows<DataRow, FileRowRun>({
    rows: plan.rows,
    ...(plan.total !== undefined ? { total: plan.total } : {}),
    isDone: (row) => results?.isDone(row) ?? false,
    runRow: (row) => runFileRow(plan, hostFor(row), row),
    write: (row, run) => {
      results?.write(rowResult(row, run, plan.secrets));
      plan.onRow?.(row, run);
    },
    concurrency: plan.concurrency,
    ...(plan.signal ? { signal: plan.signal } : {}),
    ...(plan.stop ? { stop: plan.stop } : {}),
    ...(plan.onProgress ? { onProgress: plan.onProgress } : {}),
  });
}

async function runFileRow(plan: DataRunPlan, host: RunHost, row: DataRow): Promise<FileRowRun> {
  const values = new Map(Object.entries(row.values));
  const answered: CallResult[] = [];
  /** Outcomes of requests this row's values kept from being sent. */
  const unsent = new Set<RequestOutcome>();
  let declined = false;
  /** Cut short by the cancel: a call cut on the wire, or a request not started (never a stop the engine told). */
  let cut = false;
  let told = false;
  const rowHost: RunHost = {
    ...host,
    inputs: async (r) => {
      const inputs = await host.inputs(r);
      return inputs && { ...inputs, row: values };
    },
    // Only a cancel cuts a row short; a stop (the host's, or another row's failure) lets it finish.
    stopped: () => plan.signal?.aborted === true,
    on: (e) => {
      if (e.kind === 'answered') answered.push(e.step.result);
      if (e.kind === 'judged' && !e.step) unsent.add(e.outcome);
      if (e.kind === 'skipped' && e.why === 'declined') declined = true;
      if (e.kind === 'skipped' && (e.why === 'cancelled' || (e.why === 'stopped' && !told))) cut = true;
      if (e.kind === 'stopped') told = true;
      return host.on?.(e);
    },
  };
  const summary = await runRequests({ file: plan.file, requests: plan.requests, until: plan.until }, rowHost);
  return fileRowRun(plan, row, { outcomes: summary.outcomes, answered, unsent, declined, cut });
}

interface RowEvents {
  readonly outcomes: readonly RequestOutcome[];
  readonly answered: readonly CallResult[];
  readonly unsent: ReadonlySet<RequestOutcome>;
  readonly declined: boolean;
  readonly cut: boolean;
}

/**
 * The one rule of what a row came to. Cut short by a cancel: nothing is written, it runs again. Ok
 * when every request ran and passed. Final unless a call is worth trying again (finalResult), the row
 * met a failure that stops the run, or a request did not run because the user declined it (a
 * `# @note` declined, a prompt closed): a row none of whose requests ran is never done. A request its
 * values kept from being sent fails the row at ROWS:LINE, finally (the same values would fail again).
 */
function fileRowRun(plan: DataRunPlan, row: DataRow, e: RowEvents): FileRowRun {
  const { outcomes, answered } = e;
  const last = answered.at(-1);
  if (e.cut) return { ok: false, final: false, unwritten: true, outcomes, ...(last ? { result: last } : {}) };
  const sent = plan.requests.filter((r) => !r.settings.disabled).length;
  const passed = outcomes.length === sent && outcomes.every((o) => o.verdict === 'passed');
  const final = !e.declined && outcomes.length > 0 && answered.every(finalResult);
  const failed = outcomes.find((o) => o.verdict !== 'passed');
  const unsent = failed !== undefined && e.unsent.has(failed);
  const failure = failed ? { ...failureOf(plan, row, failed, unsent), ...(unsent ? { unsent } : {}) } : {};
  // No request answered (a value the row cannot send, one missing at its turn, or none ran): the row's own failure.
  if (!last) return { ok: false, final, outcomes, ...failure };
  const run = rowOfResult(last, passed, final);
  return { ...run, outcomes, ...(run.result?.ok || unsent ? failure : {}) };
}

/** Why the row failed and where to look, redacted: the row's line for values it cannot send, else the request's. */
function failureOf(plan: DataRunPlan, row: DataRow, failed: RequestOutcome, unsent: boolean): Pick<RowRun, 'failure' | 'advice'> {
  const why = failed.message ?? failed.assertions.filter((a) => !a.passed).map((a) => a.message).join('; ');
  if (!why) return {};
  const { requestFile, dataFile } = plan.names;
  if (unsent) {
    return {
      failure: plan.secrets.redact(unsentText(plan.names, row, failed, why)),
      advice: `Correct line ${row.line} of ${dataFile}; the other rows ran. A rerun sends this row once it is changed.`,
    };
  }
  return { failure: plan.secrets.redact(why), advice: `See ${failed.name} at line ${failed.line + 1} of the request file (${requestFile}); correct the row or the request, and run it again.` };
}

/** Why a request was not sent with a row's values, at ROWS:LINE, as every host shows it. */
export function unsentText(names: DataRunPlan['names'], row: DataRow, o: RequestOutcome, why = o.message ?? ''): string {
  return `${names.dataFile}:${row.line}: ${o.name} (${names.requestFile}:${o.line + 1}) cannot be sent with this row's values: ${why}`;
}

/** A row's line in the results: the values, status, code and answer of its last request, or why it failed. */
function rowResult(row: DataRow, run: FileRowRun, secrets: RunSecrets): RowResult {
  const redact = (text: string): string => secrets.redact(text);
  const r = run.result;
  const answer = r && answerOf(r);
  const body = answer?.body ?? answer?.text;
  const redacted = redactedBody(body, redact);
  const own = run.failure !== undefined && (run.unsent === true || r === undefined || r.ok);
  const error = own
    ? { kind: run.unsent ? 'row' : 'failed', text: run.failure as string, advice: run.advice ?? 'See the request file at the line named; correct the row or the request, and run it again.' }
    : r && !r.ok
      ? { kind: r.kind, text: redact(r.text), ...(r.meaning !== undefined ? { meaning: r.meaning } : {}), advice: r.advice }
      : undefined;
  return { row, ok: run.ok, ...(answer?.status !== undefined ? { status: answer.status } : {}), ...(answer?.code !== undefined ? { code: answer.code } : {}), ...(redacted !== undefined ? { answer: redacted } : {}), ...(error ? { error } : {}), final: run.final };
}
