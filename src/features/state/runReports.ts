// The latest run to report (a Test Explorer run or a batch), for "Open Report": its records and the
// redactor of its connections; the page is made when it is opened. In memory only: a report is of
// this window's last run, and the records hold no secret (the page is redacted when made).
import type { ReportRun } from '../../core/report/reportModel';

export interface KeptReport {
  readonly run: ReportRun;
  readonly redact: (text: string) => string;
}

export class RunReports {
  private kept: KeptReport | undefined;

  keep(report: KeptReport): void {
    this.kept = report;
  }

  get latest(): KeptReport | undefined {
    return this.kept;
  }
}
