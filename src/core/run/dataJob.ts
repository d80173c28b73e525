// A data-driven run's job, as its summary and its report count it, for every host (`bizdata send/test
// --data`, Run with Data): the rows an earlier run finished (read from the results file before this
// run, report/earlierRows.ts) and this run's, told apart. It watches the run without changing it:
// the results file's `isDone` tells it every row in order, the row's host its calls, `onRow` what the
// row came to. Without a report it keeps counts only; with one, each row (for the grid and the codes),
// which row each call was for (the slowest calls), and the first failures with their request's line.
import type { CallResult } from '../model';
import type { DataRow } from '../data/rows';
import type { ResultsFile } from '../data/resultTypes';
import { readEarlierRows, type EarlierRows } from '../report/earlierRows';
import { RowTally, valuesLabel, type JobCounts, type ReportRow, type RunCounts } from '../report/jobRows';
import { FAILURES_SHOWN, type ReportJob, type ReportTest } from '../report/reportModel';
import type { FileRowRun } from './dataRows';
import type { RunHost } from './engine';
import type { RequestOutcome } from './judge';
import { outcomeTest } from './reportTest';

export interface DataJobOptions {
  /** The request file and the data file as the run names them: failures say FILE:LINE and ROWS:LINE. */
  readonly requestFile: string;
  readonly dataFile: string;
  /** The results file of the job, read before the run; none (a test run) when every row runs each time. */
  readonly resultsFile?: string;
  /** Keep what a report shows; without it, counts only. */
  readonly report: boolean;
  /** The data file's rows (its check counted them): those the run did not reach are the job's too, not done. */
  readonly total?: number;
}

type Results = Pick<ResultsFile, 'isDone' | 'write'>;

export class DataJob {
  private readonly tally = new RowTally();
  /** Rows not done before this run and not yet written by it. */
  private waiting = 0;
  /** Rows the run was told of (they stream by: the others it never reached). */
  private seen = 0;
  private readonly rows: ReportRow[] = [];
  private readonly places = new Map<number, number>();
  private readonly callers = new Map<string, string>();
  private readonly routes = new Set<string>();
  /** The first failures, each with its row's line (the report lists them in the data file's order). */
  private readonly failed: Array<{ readonly line: number; readonly test: ReportTest }> = [];
  private moreFailures = 0;
  /** A row in flight's first request that did not pass, with its call's result. */
  private readonly firstFailure = new Map<DataRow, { outcome: RequestOutcome; result?: CallResult; connection?: string }>();

  private constructor(
    private readonly o: DataJobOptions,
    private readonly earlier: EarlierRows,
  ) {}

  /** Reads what earlier runs finished (before the results file is opened for this run). */
  static async open(o: DataJobOptions): Promise<DataJob> {
    return new DataJob(o, await readEarlierRows(o.resultsFile, { texts: o.report }));
  }

  /** The run's results, watched: each row is told here in order as the runner asks whether it is done. */
  results(inner: Results | undefined): Results {
    return {
      isDone: (row) => {
        const done = inner?.isDone(row) ?? false;
        this.see(row, done);
        return done;
      },
      write: (result) => inner?.write(result),
    };
  }

  /** The row's host, heard: which calls were the row's, and its first request that did not pass. */
  host(row: DataRow, host: RunHost): RunHost {
    if (!this.o.report) return host;
    const label = `${this.where(row)} ${valuesLabel(row.values)}`;
    return {
      ...host,
      on: (e) => {
        if (e.kind === 'answered') this.routes.add(e.step.route.name);
        if (e.kind === 'answered' && e.step.result.request) this.callers.set(e.step.result.request.url, label);
        if (e.kind === 'judged' && e.outcome.verdict !== 'passed' && !this.firstFailure.has(row)) {
          this.firstFailure.set(row, { outcome: e.outcome, result: e.step?.result, connection: e.step?.route.name });
        }
        return host.on?.(e);
      },
    };
  }

  /** What the row came to in this run, as it is written (dataRows.ts `onRow`). */
  readonly onRow = (row: DataRow, run: FileRowRun): void => {
    const outcome: ReportRow['outcome'] = run.ok ? 'ok' : 'failed';
    const again = !run.ok && !run.final;
    this.waiting--;
    this.tally.add({ outcome, again });
    const first = this.firstFailure.get(row);
    this.firstFailure.delete(row);
    if (!this.o.report) return;
    const result = run.result;
    const answer = { ...(result?.status !== undefined ? { status: result.status } : {}), ...(result?.code !== undefined ? { code: result.code } : {}) };
    const text = run.failure !== undefined ? { text: run.failure } : {};
    this.put(row, { label: valuesLabel(row.values), where: this.where(row), outcome, ...(again ? { again } : {}), ...answer, ...text });
    if (!run.ok) this.keepFailure(row, this.failureOf(row, run, first));
  };

  /** For a report, the rows the run never reached (it stopped): shown not done, read as the data file streams by again. */
  async reachRest(rows: AsyncIterable<DataRow>): Promise<void> {
    if (!this.o.report || this.seen >= (this.o.total ?? 0)) return;
    for await (const row of rows) if (!this.places.has(row.line)) this.see(row, false);
  }

  /** The job's counts and this run's, now. */
  counts(): { readonly job: JobCounts; readonly thisRun: RunCounts } {
    const job = this.tally.job();
    const unreached = Math.max(0, (this.o.total ?? 0) - this.seen);
    return { job: { ...job, rows: job.rows + this.waiting + unreached, notDone: job.notDone + this.waiting + unreached }, thisRun: this.tally.thisRun() };
  }

  /** The job as its report shows it; `resultsFile` as the report names it. */
  reportJob(resultsFile: string | undefined): ReportJob {
    return {
      source: this.o.dataFile,
      ...(resultsFile !== undefined ? { resultsFile } : {}),
      rows: this.rows,
      failures: [...this.failed].sort((a, b) => a.line - b.line).map((f) => f.test),
      moreFailures: this.moreFailures,
      callers: this.callers,
    };
  }

  /** The connections the rows' requests went through. */
  connections(): string[] {
    return [...this.routes];
  }

  private where(row: DataRow): string {
    return `${this.o.dataFile}:${row.line}`;
  }

  private see(row: DataRow, done: boolean): void {
    this.seen++;
    if (!done) {
      this.waiting++;
      if (this.o.report) this.put(row, { label: valuesLabel(row.values), where: this.where(row), outcome: 'unsent' });
      return;
    }
    const before = this.earlier.of(row);
    const outcome: ReportRow['outcome'] = before?.ok === undefined ? 'done' : before.ok ? 'ok' : 'failed';
    this.tally.add({ outcome, earlier: true });
    if (!this.o.report) return;
    const answer = { ...(before?.status !== undefined ? { status: before.status } : {}), ...(before?.code !== undefined ? { code: before.code } : {}) };
    const text = before?.text !== undefined ? { text: before.text } : {};
    const where = this.where(row);
    this.put(row, { label: valuesLabel(row.values), where, outcome, earlier: true, ...answer, ...text });
    if (outcome !== 'failed') return;
    const failure = { name: valuesLabel(row.values), file: '', line: row.line, verdict: 'failed', method: '', failedAssertions: [] } as const;
    this.keepFailure(row, { ...failure, ...answer, message: before?.text ?? 'failed', row: where, earlier: true });
  }

  private put(row: DataRow, shown: ReportRow): void {
    const at = this.places.get(row.line);
    if (at === undefined) {
      this.places.set(row.line, this.rows.length);
      this.rows.push(shown);
    } else this.rows[at] = shown;
  }

  private failureOf(row: DataRow, run: FileRowRun, first: { outcome: RequestOutcome; result?: CallResult; connection?: string } | undefined): ReportTest {
    const where = this.where(row);
    const label = valuesLabel(row.values);
    if (first) {
      const test = outcomeTest(this.o.requestFile, first.outcome, first.result, first.connection);
      return { ...test, name: `${first.outcome.name}: ${label}`, row: where };
    }
    // No request of the row was judged a failure: it stopped, or was cut, or a note was declined.
    const message = run.failure ?? (run.result && !run.result.ok ? run.result.text : 'the row did not finish; the next run tries it again');
    return { name: label, file: '', line: row.line, verdict: 'error', method: '', failedAssertions: [], message, row: where };
  }

  private keepFailure(row: DataRow, test: ReportTest): void {
    if (this.failed.length < FAILURES_SHOWN) this.failed.push({ line: row.line, test });
    else this.moreFailures++;
  }
}
