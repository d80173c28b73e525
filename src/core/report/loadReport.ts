// The one place the hosts load the report's code from, on demand: the charts library alone is 50 KB,
// so the bundles take it from dist/report.js (esbuild.mjs) when a report is written, never at
// activation or for a run without --report.
import type { ReportPage } from './reportHtml';
import type { ReportRun } from './reportModel';

/** The report's HTML page; `redact` is the run's client's (core/redact.ts with every secret it has seen). */
export async function runReportHtml(run: ReportRun, redact: (text: string) => string, page: ReportPage): Promise<string> {
  const { renderRunReport } = await import('./runReport.js');
  return renderRunReport(run, redact, page);
}
