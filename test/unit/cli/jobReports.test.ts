// The reports and summaries of jobs, through the built CLI against the real sandbox: a data run's
// report (`bizdata send FILE --data ROWS --report`, and `bizdata test` of a file with its data file
// beside it) with the rows' outcomes, the slowest rows named by their values and a failure at ROWS:LINE
// and the request file's line; a data job interrupted by Ctrl-C and run again, whose last report is the
// whole job's with this run's rows told apart; a batch job resumed the same way, and run once more with
// nothing left to send (no call: words, not empty charts). Each report's numbers against the run's JSON
// summary (one shape for batch and data runs), its limit's label, and its chart's scale.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '../sandbox/helpers';
import { canaryEnv, CLI, cliEnv, sandboxRuns } from './cliHarness';
import { assertScaledToRun, assertSelfContained, chartData, codeCounts, durationMs, limitSource, shown } from './reportPage';

const LOOKUP = ['### lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '?? status == 200', ''].join('\n');

interface Summary {
  total: number;
  skipped: number;
  done: number;
  ok: number;
  failed: number;
  durationMs: number;
  thisRun: { rows: number; ok: number; failed: number };
  job: { rows: number; ok: number; failed: number; notDone: number; earlier: number; complete: boolean };
  limit: { qps: number | null; source: string };
  learnedQps: number | null;
  learnedConcurrency: number | null;
}

/** Every key of a JSON value, nested ones as `a.b`, sorted. */
function shape(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value)
    .flatMap(([k, v]) => [`${prefix}${k}`, ...shape(v, `${prefix}${k}.`)])
    .sort();
}

/** The page's numbers are the summary's: the whole job, this run's part, the duration and the limit. */
function assertReportIsSummary(html: string, s: Summary): void {
  assert.equal(shown(html, 'total'), s.job.rows);
  assert.equal(shown(html, 'passed'), s.job.ok);
  assert.equal(shown(html, 'failed'), s.job.failed);
  assert.equal(shown(html, 'notdone'), s.job.notDone);
  assert.equal(shown(html, 'thisrun'), s.thisRun.rows);
  assert.equal(shown(html, 'earlier'), s.job.earlier);
  assert.equal(durationMs(html), s.durationMs);
  assert.equal(limitSource(html), s.limit.source);
  if (s.limit.source === 'learned') assert.equal(s.learnedQps, s.limit.qps);
  else assert.deepEqual([s.learnedQps, s.learnedConcurrency], [null, null], 'nothing is called learned before the service refused a call');
  assert.equal(chartData(html).cells.length, s.job.rows, 'one cell per row of the job');
  assertScaledToRun(html);
  assertSelfContained(html);
}

describe('reports and summaries of jobs (batch, data runs)', function () {
  this.timeout(120_000);
  let dir = '';
  const { run, sandbox } = sandboxRuns('bizdata-jobs-', (d) => (dir = d));

  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const ips = (from: number, count: number): string[] => Array.from({ length: count }, (_, i) => `198.51.100.${from + i}`);

  it('a data run: its rows, the slowest named by their values, a failure at ROWS:LINE and its line, as the summary says', async () => {
    const sb = await sandbox({ qps: 20, concurrency: 4 });
    const requests = await file('look.bizdata.http', LOOKUP);
    const rows = await file('rows.csv', `ip,label\n${ips(1, 30).map((ip, i) => `${ip},row ${i + 1}`).join('\n')}\n999.1.1.1,bad\n`);
    const report = join(dir, 'data.html');
    const r = await run(['send', requests, '--data', rows, '--report', report], canaryEnv(sb.url));
    assert.equal(r.code, 1, r.stderr);
    const summary = JSON.parse(r.stdout) as Summary;
    assert.deepEqual([summary.job.rows, summary.job.ok, summary.job.failed, summary.job.complete], [31, 30, 1, true]);
    const html = await readFile(report, 'utf8');
    assertReportIsSummary(html, summary);
    assert.equal(codeCounts(html, 'rows').get('invalid_request'), 1);
    const failedRow = /<code>[^<]*rows\.csv:32<\/code> <code>[^<]*look\.bizdata\.http:2<\/code> lookup: ip=999\.1\.1\.1, label=bad/;
    assert.match(html, failedRow, 'the failed row at ROWS:LINE and its request at FILE:LINE');
    assert.match(html, /look\.bizdata\.http:3<\/code><\/td><td><code>status == 200<\/code><\/td><td>== 200<\/td><td>400<\/td>/, 'the assertion at its line');
    assert.match(html, /<td>[^<]*rows\.csv:\d+ ip=198\.51\.100\.\d+, label=row \d+<\/td>/, 'the slowest calls named by their rows');
  });

  it('a data file beside a request file: bizdata test --report shows every row, the counts those of --json', async () => {
    const sb = await sandbox();
    const requests = await file('enrich.bizdata.http', LOOKUP);
    await file('enrich.data.csv', `ip\n${ips(1, 4).join('\n')}\n`);
    const report = join(dir, 'test.html');
    const r = await run(['test', requests, '--json', '--report', report], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { summary: { requests: number; passed: number }; durationMs: number };
    const html = await readFile(report, 'utf8');
    assert.deepEqual([shown(html, 'total'), shown(html, 'passed'), shown(html, 'thisrun')], [json.summary.requests, json.summary.passed, 4]);
    assert.equal(durationMs(html), json.durationMs);
    assert.match(html, /This run: 4 rows of [^<]*enrich\.data\.csv/);
    assertScaledToRun(html);
    assertSelfContained(html);
  });

  it('a data job stopped by Ctrl-C and run again: the last report and summary are the whole job, this run marked apart', async () => {
    const sb = await sandbox({ responseDelayMs: 300 });
    const requests = await file('look.bizdata.http', LOOKUP);
    const rows = await file('rows.csv', `ip\n${ips(1, 12).join('\n')}\n`);
    const out = join(dir, 'rows.results.jsonl');
    const env = cliEnv(canaryEnv(sb.url), join(dir, 'state'));
    const child = spawn(process.execPath, [CLI, 'send', requests, '--data', rows, '--concurrency', '2', '--report', join(dir, 'first.html')], { env });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
    await waitFor('4 rows written', async () => ((await readFile(out, 'utf8').catch(() => '')).match(/\n/g)?.length ?? 0) >= 4 || undefined);
    child.kill('SIGINT');
    assert.equal(await exited, 'SIGINT');
    const first = JSON.parse(stdout) as Summary;
    assert.ok(first.done >= 4 && first.done < 12 && !first.job.complete, stdout);
    const stopped = await readFile(join(dir, 'first.html'), 'utf8');
    assertReportIsSummary(stopped, first);
    assert.match(stopped, /The run stopped early: it was stopped \(Ctrl-C or SIGTERM\)/);

    const again = await run(['send', requests, '--data', rows, '--concurrency', '2', '--report', join(dir, 'job.html')], canaryEnv(sb.url));
    assert.equal(again.code, 0, again.stderr);
    const last = JSON.parse(again.stdout) as Summary;
    assert.deepEqual([last.job.rows, last.job.ok, last.job.earlier, last.job.complete], [12, 12, first.done, true]);
    assert.deepEqual([last.thisRun.rows, last.done, last.skipped], [12 - first.done, 12 - first.done, first.done]);
    const job = await readFile(join(dir, 'job.html'), 'utf8');
    assertReportIsSummary(job, last);
    assert.equal(chartData(job).cells.replace(/[^O]/g, '').length, first.done, 'the rows an earlier run finished, marked apart');
    assert.match(job, /ok by an earlier run \(\d+\)/);
  });

  it('a batch job resumed, then run with nothing left: the whole job each time; a run without calls says so in words', async () => {
    const sb = await sandbox();
    const out = join(dir, 'out.jsonl');
    const batch = async (count: number, report: string): Promise<{ summary: Summary; html: string }> => {
      const input = await file('ips.txt', ips(1, count).join('\n'));
      const r = await run(['batch', input, '--out', out, '--report', join(dir, report)], canaryEnv(sb?.url ?? ''));
      assert.equal(r.code, 0, r.stderr);
      return { summary: JSON.parse(r.stdout) as Summary, html: await readFile(join(dir, report), 'utf8') };
    };
    await batch(6, 'part.html');
    const resumed = await batch(10, 'resumed.html');
    assert.deepEqual([resumed.summary.job.rows, resumed.summary.job.earlier, resumed.summary.thisRun.rows], [10, 6, 4]);
    assertReportIsSummary(resumed.html, resumed.summary);
    assert.equal(chartData(resumed.html).cells, 'OOOOOOoooo');

    const idle = await batch(10, 'idle.html');
    assert.deepEqual([idle.summary.thisRun.rows, idle.summary.job.earlier, idle.summary.job.complete], [0, 10, true]);
    assertReportIsSummary(idle.html, idle.summary);
    assert.equal(shown(idle.html, 'calls'), 0);
    assert.equal(chartData(idle.html).timeline.mode, 'none');
    assert.match(idle.html, /No call went out in this run/);
    assert.match(idle.html, /No data call was answered in this run/);
    assert.doesNotMatch(idle.html, /<div id="(timeline|durations)"/, 'no chart area left empty');

    // Batch and data runs print one shape of summary.
    const requests = await file('look.bizdata.http', LOOKUP);
    const rows = await file('rows.csv', `ip\n${ips(1, 2).join('\n')}\n`);
    const data = await run(['send', requests, '--data', rows], canaryEnv(sb.url));
    assert.equal(data.code, 0, data.stderr);
    const withoutConnection = (s: unknown): string[] => shape(s).filter((k) => k !== 'connection' && !k.startsWith('stoppedBy'));
    assert.deepEqual(withoutConnection(JSON.parse(data.stdout)), withoutConnection(idle.summary));
  });
});
