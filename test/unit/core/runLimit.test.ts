// The limit a run's report and summary name, and what they call it (core/report/limits.ts): configured
// (a cap), learned (the service refused just above it), or not known yet; never where an adaptive
// limiter started or how far it ramped while nothing was refused.
import * as assert from 'node:assert/strict';
import { learnedOf, limitJson, limitText, runLimit } from '../../../src/core/report/limits';
import { reportHtml } from '../../../src/core/report/reportHtml';
import { reportModel, type ReportRun } from '../../../src/core/report/reportModel';

const base = { qps: 20, concurrency: 2, active: 0, queued: 0 } as const;
const auto = { qps: Infinity, concurrency: Infinity } as const;

describe('run report: the limit a run names', () => {
  it('calls a limit learned only when the service refused just above it', () => {
    assert.deepEqual(runLimit({ ...base, caps: auto, learned: { qps: 50, concurrency: 5, exact: true } }), { source: 'learned', qps: 50, concurrency: 5 });
    assert.deepEqual(learnedOf(runLimit({ ...base, caps: auto, learned: { qps: 50, concurrency: 5, exact: true } })), { qps: 50, concurrency: 5 });
  });

  it('never names the ramp of a run with no refusal, nor an adaptive start: not known yet, learned null', () => {
    for (const qps of [5, 20, 80, 320]) {
      const limit = runLimit({ ...base, qps, caps: auto, learned: { qps, concurrency: 2, exact: false } });
      assert.deepEqual(limit, { source: 'unknown' });
      assert.deepEqual(learnedOf(limit), { qps: null, concurrency: null });
      assert.deepEqual(limitJson(limit), { qps: null, source: 'unknown' });
      assert.doesNotMatch(limitText(limit), /\d/, 'no number is given as a limit');
    }
  });

  it('names a cap as configured, and a fixed limiter by the rate it was given', () => {
    const caps = { qps: 100, concurrency: 10 };
    assert.deepEqual(runLimit({ ...base, caps, learned: { qps: 20, concurrency: 2, exact: false } }), { source: 'configured', qps: 100 });
    assert.deepEqual(runLimit(base), { source: 'configured', qps: 20 });
    assert.deepEqual(runLimit({ ...base, qps: Infinity }), { source: 'unknown' });
    assert.deepEqual(runLimit(undefined), { source: 'unknown' });
    const learned = { qps: 40, concurrency: 3, exact: true };
    assert.deepEqual(runLimit({ ...base, caps, learned }), { source: 'learned', qps: 40, concurrency: 3, configured: 100 });
  });

  it('says which it is in the report', () => {
    const run: ReportRun = {
      title: 't',
      kind: 'test',
      startedAt: 0,
      durationMs: 1,
      connections: ['default'],
      wire: [],
      tests: [],
      limit: { source: 'unknown' },
    };
    const html = (limit: ReportRun['limit']): string => reportHtml(reportModel({ ...run, limit }, (t) => t), { linkResults: false });
    assert.match(html({ source: 'configured', qps: 20 }), /data-limit="configured">20 calls\/s, configured \(the connection's qps, --qps or BIZDATA_QPS\)/);
    assert.match(html({ source: 'learned', qps: 50, concurrency: 5 }), /data-limit="learned">50 calls\/s, learned: the service refused calls just above it/);
    assert.match(html({ source: 'unknown' }), /data-limit="unknown">not known yet: no limit is configured, and the service refused no call for the rate/);
  });
});
