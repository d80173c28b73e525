// A run's report as one self-contained HTML page: styles, script and data inline, nothing fetched, so
// it opens offline (a CI artifact) and under a strict Content-Security-Policy: `default-src 'none'`,
// the inline script and style allowed by their hashes (a file on its own) or by a nonce (VS Code's
// webview). Everything but the charts is static HTML, readable with script off, the charts' figures
// included (their legends and what replaces a chart that would say nothing). Colours come from VS
// Code's theme variables where there are any, else from the system's light or dark scheme.
import { createHash } from 'node:crypto';
import { chartLibrary } from './chartLibrary';
import { noun, plural } from './numbers';
import { REPORT_SCRIPT } from './reportScript';
import { charts, codes, esc, failures, jobSection, slowest } from './reportSections';
import { REPORT_STYLE } from './reportStyle';
import type { ReportModel } from './reportModel';

export { esc } from './reportSections';

export interface ReportPage {
  /** The webview's nonce: then the CSP allows the script and style by it, else by their hashes. */
  readonly nonce?: string;
  /** A link to the results file (a file report); a webview names it only, as it follows no links. */
  readonly linkResults: boolean;
}

export function reportHtml(model: ReportModel, page: ReportPage): string {
  const chart = chartLibrary();
  const style = `${chart.style}\n${REPORT_STYLE}`;
  const t = model.timeline;
  const timeline = { calls: t.calls, medianMs: t.medianMs, slowestMs: t.slowestMs, waits: t.waits, limit: t.limit, yMax: t.yMax, mode: t.mode };
  const data = JSON.stringify({ timeline, cells: model.job?.cells ?? '' }).replace(/</g, '\\u003c');
  const scripts = [chart.script, REPORT_SCRIPT];
  const allow = page.nonce !== undefined ? [`'nonce-${page.nonce}'`] : undefined;
  const csp = [
    "default-src 'none'",
    `style-src ${(allow ?? [hash(style)]).join(' ')}`,
    `script-src ${(allow ?? scripts.map(hash)).join(' ')}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const nonce = page.nonce !== undefined ? ` nonce="${page.nonce}"` : '';
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(model.title)}</title>`,
    `<style${nonce}>${style}</style>`,
    '</head>',
    '<body>',
    `<h1>${esc(model.title)}</h1>`,
    summary(model),
    model.stopped !== undefined ? `<p class="stopped">The run stopped early: ${esc(model.stopped)}</p>` : '',
    charts(model),
    model.job ? jobSection(model.job, page.linkResults) : '',
    '<h2>Result codes</h2>',
    codes(model),
    '<h2>Slowest calls</h2>',
    slowest(model),
    `<h2>Failures (${model.failures.length + model.moreFailures})</h2>`,
    failures(model.failures, model.moreFailures),
    `<script type="application/json" id="report-data">${data}</script>`,
    ...scripts.map((s) => `<script${nonce}>${s}</script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function hash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** A count in its box: `label` the words under it, or a noun said in the count's number. */
const cell = (name: string, label: string | { readonly noun: string }, value: number, sub = ''): string => {
  const words = typeof label === 'string' ? label : noun(value, label.noun);
  return `<div class="count ${name}"><span class="n" data-count="${name}">${value}</span> ${words}${sub !== '' ? `<span class="sub">${sub}</span>` : ''}</div>`;
};

function counts(m: ReportModel): string[] {
  if (m.job) {
    const { counts: c, thisRun: r } = m.job;
    const earlier = (n: number): string => (c.earlier > 0 && n > 0 ? `${n} in this run` : '');
    return [
      cell('total', { noun: 'row' }, c.rows),
      cell('passed', 'ok', c.ok, earlier(r.ok)),
      cell('failed', 'failed', c.failed, earlier(r.failed - r.again)),
      cell('notdone', 'not done yet', c.notDone),
      ...(c.unjudged > 0 ? [cell('unjudged', 'done, no verdict kept', c.unjudged)] : []),
      ...(c.repeated > 0 ? [cell('repeated', 'repeats (looked up once)', c.repeated)] : []),
    ];
  }
  const t = m.tests;
  return [
    cell('total', { noun: 'test' }, t.total),
    cell('passed', 'passed', t.passed),
    cell('failed', 'failed', t.failed),
    cell('errors', { noun: 'error' }, t.errors),
    cell('skipped', 'skipped', t.skipped),
  ];
}

/** What the report covers: for a job, the whole job, with this run's part. */
function scope(m: ReportModel): string {
  if (!m.job) return `This run: ${plural(m.tests.total, m.kind === 'send' ? 'request' : 'test')}.`;
  const { counts: c, thisRun: r, source } = m.job;
  const rows = `${plural(c.rows, 'row')} of ${esc(source)}`;
  const ran = `<span data-count="thisrun">${r.rows}</span> run by this run`;
  // Without a results file (a test run) each run runs every row: the job is this run.
  if (m.job.resultsFile === undefined) return `This run: ${rows}; ${ran}, ${c.notDone} not run.`;
  const finished = `${c.ok + c.failed + c.unjudged} finished (<span data-count="earlier">${c.earlier}</span> by earlier runs)`;
  return `The whole job, by its results file: ${rows}, ${finished}; ${ran}; ${c.notDone} not done yet.`;
}

function summary(m: ReportModel): string {
  const count = (name: string, n: number, one: string): string => `<span data-count="${name}">${n}</span> ${noun(n, one)}`;
  const waits = `${count('waits', m.waits, 'wait')} before a retry`;
  const signIns = count('signins', m.signIns, 'sign-in');
  const data = plural(m.calls - m.signIns, 'data call');
  const calls =
    m.calls === 0
      ? `<span data-count="calls">0</span> calls: nothing went on the wire`
      : `${count('calls', m.calls, 'call')} on the wire (retries included): ${signIns} and ${data}; ${waits}`;
  return [
    '<section class="summary">',
    `<div class="counts">${counts(m).join('')}</div>`,
    '<table class="facts"><tbody>',
    `<tr><th>Covers</th><td>${scope(m)}</td></tr>`,
    `<tr><th>This run</th><td>${calls}; <span data-duration="${m.durationMs}">${m.duration}</span>, from ${esc(m.startedAt)}</td></tr>`,
    `<tr><th>${m.connections.length > 1 ? 'Connections' : 'Connection'}</th><td>${esc(m.connections.join(', ') || 'default')}</td></tr>`,
    `<tr><th>Limit</th><td data-limit="${m.limit.source}">${esc(m.limitText)}</td></tr>`,
    '</tbody></table>',
    '</section>',
  ].join('\n');
}
