// A data-driven run (issue 26): a request file's requests as the template of the rows runner
// (rows.ts), run by the engine (engine.ts) once per row of a data file (core/data), each row with
// its own chained answers and its values as variables (a row's value overrides the file's default of
// that name). Every row goes through the host's routes, so one client per connection serves them all.
// What a row came to is written to the results file (core/data) as it completes: its last answer, or
// the failure that ended it; a row that met nothing worth trying again is final, and skipped next time.
import type { CallResult } from '../model';
import type { DataRow } from '../data/rows';
import type { ResultsFile, RowResult } from '../data/resultTypes';
import { answerOf } from '../requests/assertions';
import type { ParsedRequest, ParsedRequestFile } from '../requests/requestFile';
import { redactedBody } from './chain';
import { runRequests, type RunHost } from './engine';
import { finalResult, rowOfResult, runRows, type RowRun, type RowsProgress, type RowsSummary } from './rows';

export interface DataRunPlan {
  readonly file: ParsedRequestFile;
  readonly requests: readonly ParsedRequest[];
  /** As runRequests' plan: `first-failure` for `bizdata send` (a row is a script), `end` for `bizdata test`. */
  readonly until: 'end' | 'first-failure';
  readonly rows: readonly DataRow[];
  /** Where each row's result is appended and what an earlier run finished; none: every row runs, nothing is written. */
  readonly results?: Pick<ResultsFile, 'isDone' | 'write'>;
  readonly concurrency: number;
  /** Stops the run cleanly: no new row starts; rows in flight finish and are written. */
  readonly stop?: AbortSignal;
  /** The run's one redaction: what is written holds no secret it knows. */
  redact(text: string): string;
  onProgress?(p: RowsProgress): void;
}

/**
 * Runs the file once per row. `hostFor` gives each row its host (its events are that row's); the
 * row's values are added to what its requests may read, and a row in flight is never cut short by
 * the host's stop: it finishes and is written.
 */
export async function runDataRows(plan: DataRunPlan, hostFor: (row: DataRow) => RunHost): Promise<RowsSummary> {
  const { results } = plan;
  return runRows<DataRow>({
    rows: plan.rows,
    isDone: (row) => results?.isDone(row) ?? false,
    runRow: (row) => runFileRow(plan, hostFor(row), row),
    write: (row, run) => results?.write(rowResult(row, run, plan.redact)),
    concurrency: plan.concurrency,
    stop: plan.stop,
    onProgress: plan.onProgress,
  });
}

async function runFileRow(plan: DataRunPlan, host: RunHost, row: DataRow): Promise<RowRun> {
  const values = new Map(Object.entries(row.values));
  const answered: CallResult[] = [];
  const rowHost: RunHost = {
    ...host,
    inputs: async (r) => {
      const inputs = await host.inputs(r);
      return inputs && { ...inputs, row: values };
    },
    stopped: undefined,
    on: (e) => {
      if (e.kind === 'answered') answered.push(e.step.result);
      return host.on?.(e);
    },
  };
  const summary = await runRequests({ file: plan.file, requests: plan.requests, until: plan.until }, rowHost);
  const last = answered.at(-1);
  const sent = plan.requests.filter((r) => !r.settings.disabled).length;
  const passed = summary.outcomes.length === sent && summary.outcomes.every((o) => o.verdict === 'passed');
  const final = answered.every(finalResult);
  const failed = summary.outcomes.find((o) => o.verdict !== 'passed');
  // No request answered (a value missing at its turn): the row's own failure, the same next time.
  if (!last) return { ok: false, final: summary.outcomes.length > 0, ...(failed?.message !== undefined ? { failure: plan.redact(failed.message) } : {}) };
  const run = rowOfResult(last, passed, final);
  const why = failed && (failed.message ?? failed.assertions.filter((a) => !a.passed).map((a) => a.message).join('; '));
  return { ...run, ...(why && run.result?.ok ? { failure: plan.redact(why) } : {}) };
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
        ? { kind: 'failed', text: run.failure, advice: 'See the request file at the line named; correct the row or the request, and run it again.' }
        : undefined;
  return { row, ok: run.ok, ...(answer?.status !== undefined ? { status: answer.status } : {}), ...(answer?.code !== undefined ? { code: answer.code } : {}), ...(redacted !== undefined ? { answer: redacted } : {}), ...(error ? { error } : {}), final: run.final };
}
