// The one summary of a rows run (`bizdata batch`, `bizdata send --data`) as JSON on stdout: one shape,
// made here. It names its two scopes: `thisRun`, what this invocation did (the flat fields, as scripts
// have read them, are the same), and `job`, every row of the results file after it (rows an earlier
// run finished included), so after the last rerun the summary is the whole job's. The limit is named
// as limits.ts names it; `learnedQps` and `learnedConcurrency` are null until the service refused a
// call just above a rate.
import type { CallFailure } from '../model';
import type { JobCounts, RunCounts } from '../report/jobRows';
import { learnedOf, limitJson, type RunLimit } from '../report/limits';
import { wholeMs } from '../report/numbers';

/** What the rows runner says of this invocation (rows.ts `RowsSummary`, batch.ts `BatchSummary`). */
export interface InvocationOutcome {
  readonly total: number;
  readonly skipped: number;
  readonly done: number;
  readonly ok: number;
  readonly failed: number;
  readonly cancelled: boolean;
  readonly stoppedBy?: Omit<CallFailure, 'request' | 'body'>;
  readonly durationMs: number;
}

export interface JobSummary {
  /** This invocation (as `thisRun`): rows of the input, done before (skipped), written now, of them ok and failed. */
  readonly total: number;
  readonly skipped: number;
  readonly done: number;
  readonly ok: number;
  readonly failed: number;
  readonly outFile: string;
  readonly connection?: string;
  readonly cancelled: boolean;
  readonly stoppedBy?: {
    readonly kind: string;
    readonly code?: string;
    readonly status?: number;
    readonly text: string;
    readonly meaning?: string;
    readonly advice: string;
    readonly comeBackAt?: string;
  };
  readonly durationMs: number;
  readonly rowsPerSecond: number;
  readonly thisRun: RunCounts & { readonly durationMs: number; readonly rowsPerSecond: number };
  readonly job: JobCounts & { readonly complete: boolean };
  readonly limit: { readonly qps: number | null; readonly source: RunLimit['source'] };
  readonly learnedQps: number | null;
  readonly learnedConcurrency: number | null;
}

export interface JobSummaryInput {
  readonly run: InvocationOutcome;
  readonly outFile: string;
  readonly connection?: string;
  /** The job's rows and this run's, counted (report/jobRows.ts). */
  readonly rows: { readonly job: JobCounts; readonly thisRun: RunCounts };
  readonly limit: RunLimit;
  /** The run's one redaction: the stop's words may echo what was sent. */
  redact(text: string): string;
}

export function jobSummary(o: JobSummaryInput): JobSummary {
  const { run } = o;
  const durationMs = wholeMs(run.durationMs);
  const rowsPerSecond = durationMs > 0 ? Math.round((run.done / (durationMs / 1000)) * 10) / 10 : 0;
  const stop = run.stoppedBy;
  const learned = learnedOf(o.limit);
  return {
    total: run.total,
    skipped: run.skipped,
    done: run.done,
    ok: run.ok,
    failed: run.failed,
    outFile: o.outFile,
    ...(o.connection !== undefined ? { connection: o.connection } : {}),
    cancelled: run.cancelled,
    ...(stop
      ? {
          stoppedBy: {
            kind: stop.kind,
            ...(stop.code !== undefined ? { code: stop.code } : {}),
            ...(stop.status !== undefined ? { status: stop.status } : {}),
            text: o.redact(stop.text),
            ...(stop.meaning !== undefined ? { meaning: stop.meaning } : {}),
            advice: stop.advice,
            ...(stop.comeBackAt !== undefined ? { comeBackAt: new Date(stop.comeBackAt).toISOString() } : {}),
          },
        }
      : {}),
    durationMs,
    rowsPerSecond,
    thisRun: { ...o.rows.thisRun, durationMs, rowsPerSecond },
    job: { ...o.rows.job, complete: o.rows.job.notDone === 0 },
    limit: limitJson(o.limit),
    learnedQps: learned.qps,
    learnedConcurrency: learned.concurrency,
  };
}
