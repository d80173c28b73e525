// The sections of the report's page below its summary (reportHtml.ts): the charts with their figures
// in words, a job's rows, the one codes table, the slowest calls and the failures. Static HTML; every
// text from the run is already redacted in the model and escaped here.
import { plural } from './numbers';
import type { ReportModel, ReportTest } from './reportModel';

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A link to a file beside the report, from its path relative to the report: each part percent-encoded
 * and the whole starting with `./`, so no name (`javascript:alert(1).jsonl`, `https:x`) becomes
 * another kind of link. Undefined for an absolute path (another drive): then it is named, not linked.
 */
export function relativeFileLink(path: string): string | undefined {
  if (path === '' || /^[\\/]/.test(path) || /^[a-z]:[\\/]/i.test(path)) return undefined;
  return `./${path.split(/[\\/]/).map(encodeURIComponent).join('/')}`;
}

const key = (name: string, label: string): string => `<span class="key ${name}">${esc(label)}</span>`;

export function charts(m: ReportModel): string {
  const t = m.timeline;
  const drawn = t.mode === 'chart';
  const callKeys = [
    key('calls', 'calls sent per second'),
    ...(t.limit !== null ? [key('limit', `the limit, ${t.limit} calls/s`)] : []),
    ...(t.waits.length > 0 ? [key('wait', 'a wait before a retry')] : []),
  ];
  const hasTimes = t.medianMs.some((v) => v !== null);
  return [
    '<h2>Calls per second</h2>',
    drawn ? `<p class="legend">${callKeys.join(' ')}</p>` : '',
    `<p class="words" id="timeline-words">${esc(t.callsWords)}</p>`,
    t.note !== undefined ? `<p class="note">${esc(t.note)}</p>` : '',
    drawn ? `<div id="timeline" class="chart" role="img" aria-label="${esc(t.callsWords)}" data-peak="${t.peak}"></div>` : '',
    '<h2>Response times</h2>',
    drawn && hasTimes ? `<p class="legend">${key('calls', 'median of the second')} ${key('slow', 'slowest of the second')}</p>` : '',
    `<p class="words" id="durations-words">${esc(t.timesWords)}${t.mode === 'short' ? ' The run was too short to chart per second.' : ''}</p>`,
    drawn && hasTimes ? `<div id="durations" class="chart" role="img" aria-label="${esc(t.timesWords)}"></div>` : '',
  ].join('\n');
}

export function jobSection(job: NonNullable<ReportModel['job']>, link: boolean): string {
  const { counts: c, thisRun: r } = job;
  const okNow = r.ok;
  const failedNow = r.failed - r.again;
  const keys = [
    [okNow > 0, 'ok', `ok in this run (${okNow})`],
    [c.ok - okNow > 0, 'ok earlier', `ok by an earlier run (${c.ok - okNow})`],
    [failedNow > 0, 'failed', `failed in this run (${failedNow})`],
    [c.failed - failedNow > 0, 'failed earlier', `failed in an earlier run (${c.failed - failedNow})`],
    [r.again > 0, 'again', `failed, to run again (${r.again})`],
    [c.unjudged > 0, 'done', `done by an earlier run, no verdict kept (${c.unjudged})`],
    [c.repeated > 0, 'repeated', `a repeat, looked up once (${c.repeated})`],
    [c.notDone - r.again > 0, 'unsent', `not run yet (${c.notDone - r.again})`],
  ] as const;
  const href = link && job.resultsFile !== undefined ? relativeFileLink(job.resultsFile) : undefined;
  const name = esc(job.resultsFile ?? '');
  const named = job.resultsFile === undefined ? '' : href !== undefined ? `<a href="${esc(href)}">${name}</a>` : `<code>${name}</code>`;
  const file = named === '' ? '' : ` Every row's result is in ${named}.`;
  return [
    '<h2>Outcomes by row</h2>',
    `<p class="legend">${keys.filter(([shown]) => shown).map(([, name, label]) => key(name, label)).join(' ')}</p>`,
    `<p class="muted">One cell per row, in order: ${plural(c.rows, 'row')}.${file}</p>`,
    `<canvas id="rows" class="rows" role="img" aria-label="The outcome of each of the ${plural(c.rows, 'row')}"></canvas>`,
  ].join('\n');
}

export function codes(m: ReportModel): string {
  if (m.codes.length === 0) return '<p class="muted">No call was answered in this run.</p>';
  const job = m.job !== undefined;
  const rowsHead = m.job?.resultsFile !== undefined ? 'Rows (the job)' : 'Rows';
  const head = `<tr><th>Code</th><th>Calls (this run)</th>${job ? `<th>${rowsHead}</th>` : ''}<th>What it means</th></tr>`;
  const rows = m.codes.map((c) => {
    const rowsCell = job ? `<td class="num" data-rows="${esc(c.code)}">${c.rows ?? 0}</td>` : '';
    return `<tr><td><code>${esc(c.code)}</code></td><td class="num" data-code="${esc(c.code)}">${c.calls}</td>${rowsCell}<td>${esc(c.words ?? '')}</td></tr>`;
  });
  return `<table id="codes"><thead>${head}</thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

export function slowest(m: ReportModel): string {
  if (m.slowest.length === 0) return '<p class="muted">No data call in this run.</p>';
  // Which test or row each call was for, where the run knows it (a batch's request names its input).
  const named = m.slowest.some((s) => s.caller !== undefined);
  const forWhat = named ? `<th>${m.job ? 'Row' : 'Test'}</th>` : '';
  const rows = m.slowest.map((s) => {
    const answer = [s.status, s.code].filter((x) => x !== undefined).join(' ');
    return `<tr><td class="num">${s.ms} ms</td><td>${answer}</td><td><code>${esc(s.request)}</code></td>${named ? `<td>${esc(s.caller ?? '')}</td>` : ''}</tr>`;
  });
  return [
    `<p class="muted">The data calls of this run, each try counted, as in the response-time chart: ${esc(m.timeline.timesWords)}</p>`,
    `<table id="slowest"><thead><tr><th>Time</th><th>Answer</th><th>Request</th>${forWhat}</tr></thead><tbody>`,
    ...rows,
    '</tbody></table>',
  ].join('\n');
}

export function failures(list: readonly ReportTest[], more: number): string {
  if (list.length === 0) return '<p class="muted">None.</p>';
  const items = list.map((t) => {
    const places = [t.row, t.file !== '' ? `${t.file}:${t.line}` : undefined].filter((p): p is string => p !== undefined);
    const where = places.map((p) => `<code>${esc(p)}</code> `).join('');
    const when = t.earlier ? ' <span class="verdict">an earlier run</span>' : '';
    const title = `${where}${esc(t.name)} <span class="verdict">${t.verdict}</span>${when}`;
    const lines: string[] = [`<details class="failure ${t.verdict}" open><summary>${title}</summary>`];
    const answer = t.status !== undefined ? ` → ${t.status}${t.code !== undefined ? ` ${esc(t.code)}` : ''}` : '';
    if (t.method !== '') lines.push(`<p><code>${esc(`${t.method} ${t.url ?? ''}`)}</code>${answer}</p>`);
    if (t.failedAssertions.length > 0) {
      lines.push('<table><thead><tr><th>Line</th><th>Assertion</th><th>Expected</th><th>Actual</th></tr></thead><tbody>');
      for (const a of t.failedAssertions) {
        const line = `<code>${esc(`${t.file}:${a.line}`)}</code>`;
        lines.push(`<tr><td>${line}</td><td><code>${esc(a.text)}</code></td><td>${esc(a.expected)}</td><td>${esc(a.actual)}</td></tr>`);
      }
      lines.push('</tbody></table>');
    }
    const at = t.messageLine !== undefined && t.file !== '' ? `<code>${esc(`${t.file}:${t.messageLine}`)}</code>: ` : '';
    if (t.message !== undefined) lines.push(`<p>${at}${esc(t.message)}</p>`);
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
