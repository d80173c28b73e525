// The limit a run's report names, and what it calls it: a learned limit only when the service refused
// just above it, never the ramp's level of a short run (core/report/runRecords.ts).
import * as assert from 'node:assert/strict';
import { runLimit } from '../../../src/core/report/runRecords';
import { reportHtml } from '../../../src/core/report/reportHtml';
import { reportModel } from '../../../src/core/report/reportModel';

const base = { qps: 20, concurrency: 2, active: 0, queued: 0 } as const;

describe('run report: the limit a run ended with', () => {
  it('calls a limit learned only when the service refused just above it', () => {
    assert.deepEqual(runLimit({ ...base, caps: { qps: Infinity, concurrency: Infinity }, learned: { qps: 50, concurrency: 5, exact: true } }), { qps: 50, source: 'learned' });
  });

  it('calls the ramp of a short run with no refusal the highest reached, not learned', () => {
    assert.deepEqual(runLimit({ ...base, caps: { qps: Infinity, concurrency: Infinity }, learned: { qps: 20, concurrency: 2, exact: false } }), { qps: 20, source: 'reached' });
  });

  it('names a given cap as the cap, and a fixed limiter by the rate it held calls to', () => {
    assert.deepEqual(runLimit({ ...base, caps: { qps: 100, concurrency: 10 } }), { qps: 100, source: 'cap' });
    assert.deepEqual(runLimit(base), { qps: 20, source: 'held' });
    assert.equal(runLimit({ ...base, qps: Infinity }), undefined);
  });

  it('says which it is in the report', () => {
    const run = { title: 't', kind: 'test', startedAt: 0, durationMs: 1, connections: ['default'], wire: [], tests: [] } as const;
    const html = (limit: ReturnType<typeof runLimit>): string => reportHtml(reportModel({ ...run, limit }, (t) => t), { linkResults: false });
    assert.match(html({ qps: 20, source: 'reached' }), /20 calls\/s \(the highest reached; the service refused nothing above it\)/);
    assert.match(html({ qps: 50, source: 'learned' }), /50 calls\/s \(learned: the service refused just above it\)/);
  });
});
