import * as assert from 'node:assert/strict';
import { progressIncrement, progressMessage, resultsPathFor } from '../../../src/features/batch/batchProgress';

describe('batch progress helpers', () => {
  it('writes results beside the input', () => {
    assert.equal(resultsPathFor('/w/ips.txt'), '/w/ips.txt.results.jsonl');
  });

  it('shows done/total and the rate of this run', () => {
    assert.equal(progressMessage({ done: 0, total: 40, elapsedMs: 0 }), '0 of 40 done');
    assert.equal(progressMessage({ done: 12, total: 40, elapsedMs: 4000 }), '12 of 40 done, 3.0 per second');
    assert.equal(progressMessage({ done: 300, total: 400, elapsedMs: 10_000 }), '300 of 400 done, 30 per second');
  });

  it('does not count resumed lookups in the rate', () => {
    assert.equal(progressMessage({ done: 30, total: 40, skipped: 20, elapsedMs: 5000 }), '30 of 40 done, 2.0 per second (20 from an earlier run)');
    assert.equal(progressMessage({ done: 20, total: 40, skipped: 20, elapsedMs: 5000 }), '20 of 40 done (20 from an earlier run)');
  });

  it('turns counts into progress-bar increments', () => {
    assert.equal(progressIncrement(0, 10, 40), 25);
    assert.equal(progressIncrement(5, 5, 40), 0);
    assert.equal(progressIncrement(0, 1, 0), 0);
  });
});
