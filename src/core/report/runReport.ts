// A run's report, from its records to the HTML page: the entry of the report's own bundle
// (dist/report.js), which the hosts load through loadReport.ts at first use.
import { reportHtml, type ReportPage } from './reportHtml';
import { reportModel, type ReportRun } from './reportModel';

export function renderRunReport(run: ReportRun, redact: (text: string) => string, page: ReportPage): string {
  return reportHtml(reportModel(run, redact), page);
}
