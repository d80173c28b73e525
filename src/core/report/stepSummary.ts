// A run's summary in Markdown (pure), from the same model as its HTML report (reportModel.ts): the
// counts, every failure at FILE:LINE with what was expected and what came, the slowest requests and
// a link to the full report. CI shows it where people look: GitHub's job summary page
// ($GITHUB_STEP_SUMMARY), or any Markdown file (`--summary FILE.md`).
import { safeLine } from '../sanitize';
import type { ReportModel, ReportTest } from './reportModel';

/** Failures written out; the report and the JUnit file hold the rest. */
const FAILURES_SHOWN = 50;
const SLOWEST_SHOWN = 5;

export interface SummaryLinks {
  /** The full report: a link (a CI run's artifacts, or a file beside the summary), and its file name. */
  readonly report?: { readonly href: string; readonly name: string; readonly where?: string };
}

/** The Markdown of a run; every text from the run is already redacted in `model` (reportModel does). */
export function stepSummary(model: ReportModel, links: SummaryLinks = {}): string {
  const { job, tests: t } = model;
  // A job (a batch, a data run) counts its rows, the whole job's; a test run its requests.
  const ok = (job ? job.counts.failed === 0 && job.counts.notDone === 0 : t.failed === 0 && t.errors === 0) && model.stopped === undefined;
  const what = job ? plural(job.counts.rows, 'row') : plural(t.total, 'request');
  const counts = job
    ? [`${job.counts.ok} ok`, `${job.counts.failed} failed`, ...(job.counts.notDone > 0 ? [`${job.counts.notDone} not done`] : []), ...(job.counts.earlier > 0 ? [`${job.counts.earlier} done by an earlier run`] : [])]
    : [`${t.passed} passed`, `${t.failed} failed`, plural(t.errors, 'error'), ...(t.skipped > 0 ? [`${t.skipped} skipped`] : [])];
  const against = model.connections.length > 0 ? `, against ${model.connections.map(code).join(', ')}` : '';
  const out = [
    `### ${ok ? 'Passed' : 'Failed'}: ${text(model.title)}`,
    '',
    `**${counts.join(', ')}** of ${what}, ${model.duration}${against}.`,
  ];
  if (model.stopped !== undefined) out.push('', `**The run stopped early:** ${text(model.stopped)}`);
  const failures = model.failures.slice(0, FAILURES_SHOWN);
  if (failures.length > 0) {
    out.push('', '#### Failures', '');
    for (const f of failures) out.push(...failure(f));
    const more = model.failures.length - failures.length + model.moreFailures;
    if (more > 0) out.push(`- and ${plural(more, 'more failure')}: see the full report`);
  }
  const slowest = model.slowest.slice(0, SLOWEST_SHOWN);
  if (slowest.length > 0) {
    out.push('', '#### Slowest requests', '', '| Request | Time | Answer |', '|---|---:|---|');
    for (const s of slowest) out.push(`| ${text(s.caller ?? s.request)} | ${s.ms} ms | ${text(answerOf(s) || 'no answer')} |`);
  }
  const report = links.report;
  if (report) out.push('', `The full report: [${text(report.name)}](${report.href})${report.where !== undefined ? ` (${text(report.where)})` : ''}.`);
  return `${out.join('\n')}\n`;
}

/** A failure: where and what, then each assertion that did not hold at its line. */
function failure(f: ReportTest): string[] {
  // A data row's failure names its ROWS:LINE; a batch's row its place in the inputs.
  const where = f.row ?? (f.file !== '' ? `${f.file}:${f.line}` : `${f.line}`);
  const answer = answerOf(f);
  const sent = f.method !== '' ? `: ${code(`${f.method} ${f.url ?? ''}`.trim())}` : '';
  const head = `- **${text(where)}** ${text(f.name)}${sent}${answer !== '' ? ` → ${text(answer)}` : ''}${f.verdict === 'error' ? ' (error)' : ''}`;
  const lines = [head];
  for (const a of f.failedAssertions) lines.push(`  - ${text(`${f.file}:${a.line}`)}: ${code(a.text)}, actual ${text(a.actual)}`);
  if (f.message !== undefined) lines.push(`  - ${f.file !== '' ? `${text(`${f.file}:${f.messageLine ?? f.line}`)}: ` : ''}${text(f.message)}`);
  return lines;
}

/** The answer's status and result code, as far as there was one. */
function answerOf(a: { readonly status?: number; readonly code?: string }): string {
  return [a.status, a.code].filter((x) => x !== undefined).join(' ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Text from the run as Markdown that shows it as it is: every character Markdown or HTML would read
 * as markup is escaped, and a line break is a space (a summary line stays one line, a table cell one cell).
 */
export function text(s: string): string {
  return oneLine(s).replace(/[\\`*_{}[\]()<>#|~!&$]/g, (ch) => (ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '&' ? '&amp;' : `\\${ch}`));
}

/** Text as inline code: fenced with more backticks than it holds, so nothing inside ends it. */
function code(s: string): string {
  const t = oneLine(s);
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** One line, and no character that could make it read differently from what it is (sanitize.ts). */
function oneLine(s: string): string {
  return safeLine(s.replace(/\r\n|[\r\n\u2028\u2029]/g, ' '));
}
