import * as assert from 'node:assert/strict';
import type { BatchSummary } from '../../../src/core/run/batch';
import { percentDone, progressMessage, resultsPathFor, summaryMessage } from '../../../src/features/batch/batchProgress';

const progress = (done: number, total: number, skipped = 0) => ({ done, total, skipped, ok: done, failed: 0 });

function summary(over: Partial<BatchSummary>): BatchSummary {
  return { total: 10, skipped: 0, done: 10, ok: 9, failed: 1, outFile: '/w/ips.txt.results.jsonl', cancelled: false, durationMs: 1000, ...over };
}

describe('batch progress helpers', () => {
  it('writes results beside the input', () => {
    assert.equal(resultsPathFor('/w/ips.txt'), '/w/ips.txt.results.jsonl');
  });

  it('shows done/total and the rate of this run', () => {
    assert.equal(progressMessage(progress(0, 40), 0), '0 of 40 done');
    assert.equal(progressMessage(progress(12, 40), 4000), '12 of 40 done, 3.0 per second');
    assert.equal(progressMessage(progress(300, 400), 10_000), '300 of 400 done, 30 per second');
  });

  it('counts resumed inputs as done but not in the rate', () => {
    assert.equal(progressMessage(progress(10, 40, 20), 5000), '30 of 40 done, 2.0 per second (20 from an earlier run)');
    assert.equal(progressMessage(progress(0, 40, 20), 5000), '20 of 40 done (20 from an earlier run)');
    assert.equal(percentDone(progress(10, 40, 20)), 75);
    assert.equal(percentDone(progress(0, 0)), 100);
  });

  it('ends with what happened and what to do next', () => {
    assert.equal(summaryMessage(summary({}), 'ips.txt.results.jsonl'), 'Batch finished: 10 inputs (9 succeeded, 1 failed). Results are in ips.txt.results.jsonl.');
    assert.match(summaryMessage(summary({ cancelled: true, done: 4, ok: 4, failed: 0 }), 'x'), /^Batch cancelled after 4 of 10 .*Run it again on the same file to resume/);
    const stopped = summaryMessage(
      summary({ done: 2, stoppedBy: { ok: false, kind: 'limit', code: 'SC005', text: 'Maximum limit permitted by the contract reached.', advice: 'Contact support.', durationMs: 1 } }),
      'x',
    );
    assert.match(stopped, /SC005: Maximum limit permitted by the contract reached\. Contact support\. Run the batch again to resume/);
  });

  it("says what the service said, the catalog's meaning, and when to come back", () => {
    const said = 'You are not currently authorised to access this product';
    const words = summaryMessage(summary({ done: 1, stoppedBy: { ok: false, kind: 'auth', code: '00041', text: said, meaning: 'The service did not accept the access token of the call.', advice: 'Contact support.', durationMs: 1 } }), 'x');
    assert.match(words, /00041: You are not currently authorised to access this product\. The service did not accept the access token of the call\. Contact support\. Run the batch again to resume/);
    const advice = 'Try again after 2026-01-31T12:02:00Z (in 2 minutes): the service asked to be called again no sooner (Retry-After), which is longer than the client waits by itself.';
    const later = summaryMessage(summary({ done: 1, stoppedBy: { ok: false, kind: 'limit', status: 429, text: 'Too Many Requests', advice, comeBackAt: Date.parse('2026-01-31T12:02:00Z'), durationMs: 1 } }), 'x');
    assert.ok(later.includes(`Too Many Requests. ${advice} Run the batch again at that time to resume`), later);
  });
});
