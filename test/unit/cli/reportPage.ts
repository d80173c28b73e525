// Reading a run's report page back as a person would read it with script off: its counts, its codes
// table, its limit, its duration, the data its charts are drawn from, and what every report must be
// (self-contained, its inline code allowed by hash, no secret in it).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CANARY } from '../core/harness';

/** The number the page shows for `name` (the static summary). */
export function shown(html: string, name: string): number {
  const m = new RegExp(`data-count="${name}">(\\d+)<`).exec(html);
  assert.ok(m, `the report shows no ${name} count`);
  return Number(m[1]);
}

/** Each code's count in the codes table: its calls in this run (`data-code`) or its rows of the job (`data-rows`). */
export function codeCounts(html: string, column: 'code' | 'rows' = 'code'): Map<string, number> {
  const body = /<table id="codes">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  return new Map([...body.matchAll(new RegExp(`data-${column}="([^"]+)">(\\d+)<`, 'g'))].map((m) => [m[1].replace(/&quot;/g, '"'), Number(m[2])]));
}

/** What the page calls the limit: configured, learned or unknown. */
export function limitSource(html: string): string {
  const m = /data-limit="(\w+)"/.exec(html);
  assert.ok(m, 'the report names no limit');
  return m[1];
}

/** The run's duration as the page gives it, in whole milliseconds. */
export function durationMs(html: string): number {
  const m = /data-duration="(\d+)"/.exec(html);
  assert.ok(m, 'the report gives no duration');
  return Number(m[1]);
}

export interface ChartData {
  readonly timeline: {
    readonly calls: number[];
    readonly yMax: number;
    readonly limit: number | null;
    readonly mode: 'none' | 'short' | 'chart';
    readonly medianMs: (number | null)[];
  };
  readonly cells: string;
}

/** The data the page's charts are drawn from. */
export function chartData(html: string): ChartData {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the report carries no chart data');
  return JSON.parse(m[1]) as ChartData;
}

/**
 * The calls chart is scaled to the run: its axis at least the highest rate and within a few times it;
 * a run too short or without calls has words instead of a chart area.
 */
export function assertScaledToRun(html: string): ChartData {
  const data = chartData(html);
  const t = data.timeline;
  const peak = Math.max(0, ...t.calls);
  if (t.mode === 'chart') {
    assert.ok(t.yMax >= peak && t.yMax <= Math.max(3 * peak, 2), `the axis runs to ${t.yMax} for a run of at most ${peak} calls a second`);
    assert.match(html, /<div id="timeline" class="chart"/);
  } else {
    assert.doesNotMatch(html, /<div id="timeline"/, 'no empty chart area');
    assert.match(html, t.mode === 'none' ? /No call went out in this run/ : /too short a run to chart per second/);
  }
  return data;
}

/** What every report must be: self-contained, its inline code allowed by hash, no secret in it. */
export function assertSelfContained(html: string): void {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
  assert.match(csp, /default-src 'none'/);
  const hash = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 2, 'the chart library and the report script');
  for (const s of scripts) assert.ok(csp.includes(hash(s)), 'the CSP allows each inline script by its hash');
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  assert.ok(csp.includes(hash(style)), 'the CSP allows the inline style by its hash');
  assert.doesNotMatch(html, /<(?:script|link|img|iframe)[^>]+(?:src|href)=/i, 'nothing is loaded from elsewhere');
  for (const href of html.matchAll(/href="([^"]*)"/g)) assert.match(href[1], /^\.\//, `a link that is not a relative file link: ${href[1]}`);
  for (const canary of Object.values(CANARY)) assert.ok(!html.includes(canary), `no canary ${canary} in the report`);
  assert.doesNotMatch(html, /Bearer (?!<)[A-Za-z0-9._~+/=-]{8,}/, 'no token in the report');
}
