import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { dataPercentDone, dataProgressMessage, dataResultsPath, dataSummaryMessage } from '../../../src/features/requestFiles/dataRunText';

describe('Run with Data: results path, progress and summary (plain)', () => {
  it('writes the results beside the data file, named after it', () => {
    assert.equal(dataResultsPath(join('/w', 'data', 'rows.csv')), join('/w', 'data', 'rows.results.jsonl'));
    assert.equal(dataResultsPath(join('/w', 'orders.data.jsonl')), join('/w', 'orders.data.results.jsonl'));
  });

  it('says rows done of total, the rate and the time left from this run alone, and the rows an earlier run did', () => {
    assert.equal(dataProgressMessage({ total: 100, done: 0, skipped: 0, ok: 0, failed: 0 }, 0), '0 of 100 rows');
    // 20 rows in 4 s: 5 a second; 60 left: 12 s.
    assert.equal(dataProgressMessage({ total: 100, done: 20, skipped: 20, ok: 19, failed: 1 }, 4000), '40 of 100 rows, 5.0 rows a second, about 12 s left (20 from an earlier run)');
    assert.equal(dataProgressMessage({ total: 10_000, done: 500, skipped: 0, ok: 500, failed: 0 }, 10_000), '500 of 10000 rows, 50 rows a second, about 4 min left');
    assert.equal(dataProgressMessage({ total: 100, done: 45, skipped: 0, ok: 45, failed: 0 }, 1000, 50), '45 of 100 rows, 45 rows a second (limit 50 calls a second), about 2 s left');
    assert.equal(dataPercentDone({ total: 4, done: 1, skipped: 1 }), 50);
  });

  it('closes with the counts and how to resume', () => {
    assert.equal(dataSummaryMessage({ total: 3, done: 3, skipped: 0, ok: 2, failed: 1, cancelled: false }, 'rows.results.jsonl'), '3 rows run (2 passed, 1 did not). The results are in rows.results.jsonl.');
    assert.match(dataSummaryMessage({ total: 3, done: 1, skipped: 0, ok: 1, failed: 0, cancelled: true }, 'r.jsonl'), /^Cancelled after 1 of 3 rows .* resume/);
  });
});
