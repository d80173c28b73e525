// What `bizdata send/test --data` (dataRun.ts) keeps beside the run for its summary and its report:
// the job (core/run/dataJob.ts: rows an earlier run finished, read before this run, and this run's),
// the calls on the wire when a report is asked for, and the limit as the run ended. It decides
// nothing; dataRun.ts calls it at four points: before the clients are made, around the rows, when
// they are done, and at the end (the summary on stdout, the report file).
import { dirname, relative, resolve } from 'node:path';
import type { DataRow } from '../core/data/rows';
import type { WireEvent } from '../core/model';
import type { RunLimit } from '../core/report/limits';
import { DataJob } from '../core/run/dataJob';
import { jobSummary, type JobSummary } from '../core/run/jobSummary';
import type { RowsSummary } from '../core/run/rows';
import { failureLine } from '../core/exchange/failures';
import type { Setup } from './makeClient';
import type { ReportRun } from '../core/report/reportModel';
import type { CiOutputs } from './ciOutputs';
import { endLimit, recorderFor, RunRecorder, writeRunReport } from './runReportFile';

export class DataRunRecords {
  private limit: RunLimit = { source: 'unknown' };
  /** The run's connection: named when no call went out. */
  private connection = 'default';

  private constructor(
    readonly job: DataJob,
    private readonly recorder: RunRecorder | undefined,
    private readonly o: { readonly report?: string; readonly file: string; readonly dataFile: string; readonly resultsFile?: string },
  ) {}

  /**
   * Before anything is sent: the report's name checked, what earlier runs of the job finished read.
   * `record`: the calls are recorded without a report too (CI's summary is made from the same run).
   */
  static async open(o: { readonly report?: string; readonly record?: boolean; readonly file: string; readonly dataFile: string; readonly resultsFile?: string; readonly total?: number }): Promise<DataRunRecords> {
    const recorder = (await recorderFor(o.report, [o.file, o.dataFile, ...(o.resultsFile !== undefined ? [o.resultsFile] : [])])) ?? (o.record === true ? new RunRecorder() : undefined);
    const job = await DataJob.open({ requestFile: o.file, dataFile: o.dataFile, resultsFile: o.resultsFile, report: recorder !== undefined, ...(o.total !== undefined ? { total: o.total } : {}) });
    return new DataRunRecords(job, recorder, o);
  }

  /** Hears the clients' calls, when a report is asked for. */
  get observe(): ((e: WireEvent) => void) | undefined {
    return this.recorder?.observe;
  }

  /** The rows are done: the limit as the run ended, before the clients close; the rows a stopped run never reached, for the report. */
  async ended(main: Pick<Setup, 'client' | 'learned' | 'connection'>, rows: AsyncIterable<DataRow>): Promise<void> {
    await this.job.reachRest(rows);
    this.limit = await endLimit(main);
    this.connection = main.connection?.name ?? 'default';
  }

  /** `bizdata send --data`'s summary on stdout (core/run/jobSummary.ts: one shape with batch's). */
  summary(run: RowsSummary, outFile: string, redact: (text: string) => string): JobSummary {
    return jobSummary({ run, outFile, rows: this.job.counts(), limit: this.limit, redact });
  }

  /** Writes the report when one was asked for; `durationMs` the run's, as its other outputs give it. */
  async write(command: 'send' | 'test', run: RowsSummary, redact: (text: string) => string): Promise<void> {
    const { report } = this.o;
    const shown = this.reportRun(command, run);
    if (shown && report !== undefined) await writeRunReport(report, shown, redact);
  }

  /** The same run as CI's summary and annotations (ciOutputs.ts), linking to the report when there is one. */
  async toCi(ci: CiOutputs | undefined, command: 'send' | 'test', run: RowsSummary, redact: (text: string) => string): Promise<void> {
    const shown = this.reportRun(command, run);
    if (ci && shown) await ci.write(shown, redact, this.o.report);
  }

  private reportRun(command: 'send' | 'test', run: RowsSummary): ReportRun | undefined {
    const { report, file, dataFile, resultsFile } = this.o;
    if (!this.recorder) return undefined;
    const link = resultsFile !== undefined && report !== undefined ? relative(dirname(resolve(report)), resolve(resultsFile)) : resultsFile;
    const byHand = 'it was stopped (Ctrl-C or SIGTERM) before every row ran; the same command again does the rest.';
    const stopped = run.stoppedBy ? failureLine(run.stoppedBy) : run.cancelled ? byHand : undefined;
    return {
      title: `bizdata ${command} ${file} × ${dataFile}`,
      kind: 'data',
      startedAt: this.recorder.startedAt,
      durationMs: run.durationMs,
      connections: this.job.connections().length > 0 ? this.job.connections() : [this.connection],
      wire: this.recorder.wire,
      limit: this.limit,
      job: this.job.reportJob(link),
      ...(stopped !== undefined ? { stopped } : {}),
    };
  }
}
