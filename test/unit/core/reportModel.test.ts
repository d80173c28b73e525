// The report's model, pure (core/report): the calls chart scaled to what the run sent (a cap far above
// it a note, not the scale), short runs and runs without calls said in words, the slowest calls and the
// response times counting the same calls, one codes table with each code's words once, a job's rows
// counted whole with this run's apart, durations and counts as a person reads them, and links to files
// only ever relative.
import * as assert from 'node:assert/strict';
import { describeCode } from '../../../src/core/codes/codes';
import { explainLine } from '../../../src/core/codes/recognise';
import type { WireEvent } from '../../../src/core/model';
import { countRows, rowCell, type ReportRow } from '../../../src/core/report/jobRows';
import { durationText, plural } from '../../../src/core/report/numbers';
import { reportHtml } from '../../../src/core/report/reportHtml';
import { reportModel, type ReportRun } from '../../../src/core/report/reportModel';
import { relativeFileLink } from '../../../src/core/report/reportSections';
import { timeline } from '../../../src/core/report/timeline';

const T0 = 1_700_000_000_000;

/** `perSecond[s]` data calls in second s (each `ms` long), a sign-in first. */
function wire(perSecond: readonly number[], ms = 5): WireEvent[] {
  const events: WireEvent[] = [{ kind: 'sent', at: T0, ms: 150, signIn: true, status: 200, method: 'POST', url: 'http://127.0.0.1:1/v2/token' }];
  perSecond.forEach((n, s) => {
    for (let i = 0; i < n; i++) {
      const url = `http://127.0.0.1:1/v1/duns-search/ip/198.51.100.${i}?view=standard`;
      events.push({ kind: 'sent', at: T0 + s * 1000 + (i * 900) / n, ms, signIn: false, status: 200, method: 'GET', url });
    }
  });
  return events;
}

const run = (over: Partial<ReportRun>): ReportRun => ({
  title: 'bizdata batch ips.txt',
  kind: 'batch',
  startedAt: T0,
  durationMs: 9000,
  connections: ['default'],
  wire: [],
  limit: { source: 'unknown' },
  ...over,
});

describe('run report model', () => {
  it('scales the calls chart to the run: a cap far above it is a note, not the scale; a near limit is drawn', () => {
    const far = timeline(wire([10, 9, 9, 10, 10, 10, 10, 10, 4]), { source: 'configured', qps: 320 });
    assert.equal(far.mode, 'chart');
    assert.equal(far.peak, 11, 'the sign-in counts in its second');
    assert.equal(far.limit, null);
    assert.ok(far.yMax >= 11 && far.yMax <= 15, `axis to ${far.yMax}`);
    assert.match(far.note ?? '', /The limit, 320 calls\/s, is far above what this run sent \(at most 11 calls in a second\)/);
    const near = timeline(wire([10, 9, 9, 10]), { source: 'learned', qps: 10, concurrency: 2 });
    assert.equal(near.limit, 10);
    assert.equal(near.note, undefined);
    assert.ok(near.yMax >= 11 && near.yMax <= 15, `axis to ${near.yMax}`);
    const words = '39 calls over 4 seconds: at most 11 calls in one second (second 0), 9.8 a second on average; ';
    assert.equal(near.callsWords, `${words}limit 10 calls/s (learned); no wait before a retry.`);
  });

  it('says a short run and a run without calls in words, with no chart', () => {
    const short = timeline(wire([7]), { source: 'unknown' });
    assert.equal(short.mode, 'short');
    const words = /^8 calls within 1 second: too short a run to chart per second \(at most 8 in one second\); limit not known yet; no wait before a retry\.$/;
    assert.match(short.callsWords, words);
    const none = timeline([], { source: 'unknown' });
    assert.equal(none.mode, 'none');
    assert.equal(none.callsWords, 'No call went out in this run; limit not known yet.');
    assert.equal(none.timesWords, 'No data call was answered in this run.');
    const html = reportHtml(reportModel(run({ wire: [] }), (t) => t), { linkResults: false });
    assert.doesNotMatch(html, /<div id="(timeline|durations)"/);
    assert.match(html, /<span data-count="calls">0<\/span> calls: nothing went on the wire/);
  });

  it('counts the same calls in the slowest table and the response times: data calls, sign-ins said apart', () => {
    const m = reportModel(run({ wire: wire([3, 3, 3], 8) }), (t) => t);
    assert.equal(m.timeline.timesWords, '9 data calls: median 8 ms, slowest 8 ms; 1 sign-in not counted (slowest 150 ms).');
    assert.equal(m.slowest.length, 9);
    assert.ok(m.slowest.every((s) => s.ms === 8 && s.request.startsWith('GET /v1/duns-search/ip/')), 'no sign-in among the slowest');
  });

  it('counts a job whole, this run apart, one cell per row', () => {
    const rows: ReportRow[] = [
      { label: 'a', outcome: 'ok', earlier: true },
      { label: 'b', outcome: 'failed', earlier: true },
      { label: 'c', outcome: 'ok' },
      { label: 'd', outcome: 'failed', again: true },
      { label: 'e', outcome: 'failed' },
      { label: 'a', outcome: 'repeated' },
      { label: 'f', outcome: 'done', earlier: true },
      { label: 'g', outcome: 'unsent' },
    ];
    const { job, thisRun } = countRows(rows);
    assert.deepEqual(job, { rows: 8, ok: 2, failed: 2, unjudged: 1, repeated: 1, notDone: 2, earlier: 3 });
    assert.deepEqual(thisRun, { rows: 3, ok: 1, failed: 2, again: 1 });
    assert.equal(rows.map(rowCell).join(''), 'OFoafrdu');
  });

  it('writes one codes table, each code once with its calls and rows, and its words once', () => {
    const sc006 = describeCode('SC006');
    assert.ok(sc006);
    // The service's own text may carry the catalog's advice: said once.
    const said = { code: 'SC006', known: true, text: `${sc006.text} ${sc006.action}`, meaning: sc006.meaning, action: sc006.action };
    assert.equal(explainLine(said).split(sc006.action).length - 1, 1, explainLine(said));
    const events: WireEvent[] = [
      { kind: 'sent', at: T0, ms: 3, signIn: false, status: 429, code: said, method: 'GET', url: 'http://h/v1/x' },
      { kind: 'sent', at: T0 + 10, ms: 3, signIn: false, status: 200, method: 'GET', url: 'http://h/v1/x' },
    ];
    const rows: ReportRow[] = [
      { label: 'x', outcome: 'ok', status: 200 },
      { label: 'y', outcome: 'ok', status: 200, earlier: true },
    ];
    const m = reportModel(run({ wire: events, job: { source: 'ips.txt', rows } }), (t) => t);
    assert.deepEqual(
      m.codes.map((c) => [c.code, c.calls, c.rows]),
      [
        ['HTTP 200', 1, 2],
        ['SC006', 1, 0],
      ],
    );
    const html = reportHtml(m, { linkResults: true });
    assert.equal([...html.matchAll(/<table id="codes">/g)].length, 1);
    assert.equal(html.split(sc006.action).length - 1, 1, 'the advice once on the page');
  });

  it('reads numbers as a person does', () => {
    assert.deepEqual([240, 9_999, 12_345, 125_000, 4_000_000].map(durationText), ['240 ms', '9999 ms', '12.3 s', '2 min 05 s', '1 h 07 min']);
    assert.deepEqual([plural(1, 'sign-in'), plural(2, 'sign-in'), plural(0, 'row')], ['1 sign-in', '2 sign-ins', '0 rows']);
  });

  it('links only relative files, whatever their names', () => {
    assert.equal(relativeFileLink('javascript:alert(1).jsonl'), './javascript%3Aalert(1).jsonl');
    assert.equal(relativeFileLink('out/r s.jsonl'), './out/r%20s.jsonl');
    assert.equal(relativeFileLink('../results.jsonl'), './../results.jsonl');
    for (const absolute of ['/etc/passwd', '\\\\host\\share\\r.jsonl', 'C:\\r.jsonl', '']) assert.equal(relativeFileLink(absolute), undefined, absolute);
  });
});
