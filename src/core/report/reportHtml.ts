// A run's report as one self-contained HTML page: styles, script and data inline, nothing fetched, so
// it opens offline (a CI artifact) and under a strict Content-Security-Policy: `default-src 'none'`,
// the inline script and style allowed by their hashes (a file on its own) or by a nonce (VS Code's
// webview). Everything but the charts is static HTML, readable with script off. Colours come from
// VS Code's theme variables where there are any, else from the system's light or dark scheme.
import { createHash } from 'node:crypto';
import { isAbsolute, sep } from 'node:path';
import { chartLibrary } from './chartLibrary';
import { REPORT_SCRIPT } from './reportScript';
import { REPORT_STYLE } from './reportStyle';
import type { CodeCount, LimitSource, ReportModel, ReportTest } from './reportModel';

export interface ReportPage {
  /** The webview's nonce: then the CSP allows the script and style by it, else by their hashes. */
  readonly nonce?: string;
  /** A link to the results file (a file report); a webview names it only, as it follows no links. */
  readonly linkResults: boolean;
}

const LIMIT_SOURCE: Readonly<Record<LimitSource, string>> = {
  learned: 'learned: the service refused just above it',
  reached: 'the highest reached; the service refused nothing above it',
  cap: 'the cap given',
  held: 'the rate the limiter held calls to',
};

export function reportHtml(model: ReportModel, page: ReportPage): string {
  const chart = chartLibrary();
  const style = `${chart.style}\n${REPORT_STYLE}`;
  const data = JSON.stringify({ timeline: model.timeline, cells: model.batch?.cells ?? '' }).replace(/</g, '\\u003c');
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
    '<h2>Calls per second</h2>',
    `<p class="muted">Calls sent each second${model.timeline.limit.some((l) => l !== null) ? ', the limit the limiter held them to (dashed)' : ''}, and the waits (${model.waits}) the client made before retrying (SC006, 429, Retry-After), marked in red.</p>`,
    '<div id="timeline" class="chart" role="img" aria-label="Calls per second against the limit"></div>',
    '<h2>Response times</h2>',
    '<div id="durations" class="chart" role="img" aria-label="Median and slowest response time per second"></div>',
    model.batch ? batch(model.batch, page) : '',
    '<h2>Result codes</h2>',
    codes(model.codes, 'codes'),
    '<h2>Slowest requests</h2>',
    slowest(model.slowest),
    `<h2>Failures (${model.counts.failed + model.counts.errors})</h2>`,
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

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function summary(m: ReportModel): string {
  const c = m.counts;
  const unit = m.kind === 'batch' ? 'rows' : 'tests';
  const cell = (name: string, label: string, value: number): string => `<div class="count ${name}"><span class="n" data-count="${name}">${value}</span> ${label}</div>`;
  const limit = m.limit ? `${round(m.limit.qps)} calls/s (${LIMIT_SOURCE[m.limit.source]})` : 'none';
  return [
    '<section class="summary">',
    '<div class="counts">',
    cell('total', unit, c.total),
    cell('passed', m.kind === 'batch' ? 'ok' : 'passed', c.passed),
    cell('failed', 'failed', c.failed),
    ...(m.kind === 'batch' ? [] : [cell('errors', 'errors', c.errors)]),
    cell('skipped', m.kind === 'batch' ? 'skipped (done before)' : 'skipped', c.skipped),
    ...(c.unsent > 0 ? [cell('unsent', 'not sent (the run stopped)', c.unsent)] : []),
    '</div>',
    '<table class="facts"><tbody>',
    `<tr><th>Requests</th><td><span data-count="calls">${m.calls}</span> on the wire (${m.signIns} sign-ins, retries included), <span data-count="waits">${m.waits}</span> waits</td></tr>`,
    `<tr><th>Duration</th><td>${(m.durationMs / 1000).toFixed(1)} s, from ${esc(m.startedAt)}</td></tr>`,
    `<tr><th>${m.connections.length === 1 ? 'Connection' : 'Connections'}</th><td>${esc(m.connections.join(', ') || 'default')}</td></tr>`,
    `<tr><th>Limit</th><td>${esc(limit)}</td></tr>`,
    '</tbody></table>',
    '</section>',
  ].join('\n');
}

function round(n: number): string {
  return Number.isFinite(n) ? String(Math.round(n * 10) / 10) : 'auto';
}

function codes(list: readonly CodeCount[], id: string): string {
  if (list.length === 0) return '<p class="muted">No answers.</p>';
  const rows = list.map((c) => `<tr><td><code>${esc(c.code)}</code></td><td class="num" data-code="${esc(c.code)}">${c.count}</td><td>${esc(c.words ?? '')}</td></tr>`);
  return `<table id="${id}"><thead><tr><th>Code</th><th>Count</th><th>What it means</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

function slowest(list: ReportModel['slowest']): string {
  if (list.length === 0) return '<p class="muted">No requests.</p>';
  const rows = list.map((s) => `<tr><td class="num">${s.ms} ms</td><td>${[s.status, s.code].filter((x) => x !== undefined).join(' ')}</td><td>${esc(s.label)}</td></tr>`);
  return `<table><thead><tr><th>Time</th><th>Answer</th><th>Request</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

function failures(list: readonly ReportTest[], more: number): string {
  if (list.length === 0) return '<p class="muted">None.</p>';
  const items = list.map((t) => {
    const where = t.file !== '' ? `<code>${esc(`${t.file}:${t.line}`)}</code> ` : '';
    const lines: string[] = [`<details class="failure ${t.verdict}" open><summary>${where}${esc(t.name)} <span class="verdict">${t.verdict}</span></summary>`];
    if (t.method !== '') lines.push(`<p><code>${esc(`${t.method} ${t.url ?? ''}`)}</code>${t.status !== undefined ? ` → ${t.status}${t.code !== undefined ? ` ${esc(t.code)}` : ''}` : ''}</p>`);
    if (t.failedAssertions.length > 0) {
      lines.push('<table><thead><tr><th>Line</th><th>Assertion</th><th>Expected</th><th>Actual</th></tr></thead><tbody>');
      for (const a of t.failedAssertions) lines.push(`<tr><td><code>${esc(`${t.file}:${a.line}`)}</code></td><td><code>${esc(a.text)}</code></td><td>${esc(a.expected)}</td><td>${esc(a.actual)}</td></tr>`);
      lines.push('</tbody></table>');
    }
    if (t.message !== undefined) lines.push(`<p>${t.messageLine !== undefined ? `<code>${esc(`${t.file}:${t.messageLine}`)}</code>: ` : ''}${esc(t.message)}</p>`);
    if (t.request) {
      const head = [`${t.request.method} ${t.request.url}`, ...Object.entries(t.request.headers).map(([k, v]) => `${k}: ${v}`)].join('\n');
      lines.push(`<h4>Request</h4><pre>${esc(t.request.body !== undefined ? `${head}\n\n${t.request.body}` : head)}</pre>`);
    }
    if (t.answer !== undefined) lines.push(`<h4>Answer</h4><pre>${esc(t.answer)}</pre>`);
    lines.push('</details>');
    return lines.join('\n');
  });
  if (more > 0) items.push(`<p class="muted">And ${more} more: the results file holds every one.</p>`);
  return items.join('\n');
}

function batch(b: NonNullable<ReportModel['batch']>, page: ReportPage): string {
  const href = page.linkResults ? relativeFileLink(b.resultsFile) : undefined;
  const file = href !== undefined ? `<a href="${esc(href)}">${esc(b.resultsFile)}</a>` : `<code>${esc(b.resultsFile)}</code>`;
  return [
    '<h2>Outcomes by row</h2>',
    `<p class="muted">One cell per input row, in order: <span class="key ok">ok</span> <span class="key failed">failed</span> <span class="key skipped">skipped (done before)</span> <span class="key unsent">not sent</span>. Every line is in ${file}.</p>`,
    '<canvas id="rows" class="rows" role="img" aria-label="Outcome of each row"></canvas>',
    '<h2>Rows per code</h2>',
    codes(b.perCode, 'row-codes'),
  ].join('\n');
}

/**
 * A link to a file by its path relative to the report, or undefined for a path that is not relative.
 * Each segment is percent-encoded whole and the link starts with "./", so no file name reads as
 * anything else: not a scheme (`javascript:…`), another host (`//…`), a query or a fragment.
 */
function relativeFileLink(path: string): string | undefined {
  if (isAbsolute(path)) return undefined;
  const segments = sep === '/' ? path.split('/') : path.split(/[\\/]/);
  return `./${segments.map(encodeURIComponent).join('/')}`;
}
