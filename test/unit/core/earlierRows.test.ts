// What a resumed job's report and summary read of the runs before it (core/report/earlierRows.ts),
// from results files written by the real results module (core/data/results.ts): the same rows it
// holds as done, by the same identity (line and values; a CSV's by line), the last result of a line
// the one that counts, a line cut short by a kill ignored, a failure's words only when a report asks
// for them, and a link at the file's name refused as the results module refuses it.
import * as assert from 'node:assert/strict';
import { appendFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileRefused } from '../../../src/core/files/door';
import { openResults } from '../../../src/core/data/results';
import type { RowResult } from '../../../src/core/data/resultTypes';
import { readEarlierRows } from '../../../src/core/report/earlierRows';
import { tempDirs } from '../tempDirs';

const row = (line: number, ip: string) => ({ line, values: { ip } });
const FAILED = { kind: 'api', text: 'The IP address is not valid.', advice: 'Check the row.' };

/** Writes the results through the results module, as a run does. */
async function written(outFile: string, results: readonly RowResult[]): Promise<void> {
  const opened = await openResults({ outFile, dataColumns: ['ip'] });
  assert.ok(opened.ok, opened.ok ? '' : opened.message);
  for (const r of results) opened.results.write(r);
  await opened.results.close();
}

describe('a resumed job reads what earlier runs finished (earlierRows.ts)', () => {
  const dirs = tempDirs();

  it('JSON Lines: the latest result of a row, its verdict, status, code and words; a row tried again or edited is not finished', async () => {
    const out = join(await dirs.make('bizdata-earlier-'), 'job.results.jsonl');
    await written(out, [
      { row: row(2, '198.51.100.7'), ok: true, status: 200, final: true },
      { row: row(3, 'not-an-ip'), ok: false, status: 400, code: 'invalid_request', error: FAILED, final: true },
      { row: row(4, '198.51.100.8'), ok: false, status: 401, code: 'SC006', final: false },
      { row: row(5, '198.51.100.9'), ok: false, status: 401, code: 'SC006', final: false },
      { row: row(5, '198.51.100.9'), ok: true, status: 200, final: true },
      { row: row(6, '198.51.100.10'), ok: true, status: 200, final: true },
      { row: row(6, '198.51.100.10'), ok: false, status: 401, code: 'SC006', final: false },
    ]);
    // A kill in the middle of a write: the last line is cut short.
    await appendFile(out, '{"line":7,"values":{"ip":"198.');
    const plain = await readEarlierRows(out);
    assert.deepEqual(plain.of(row(2, '198.51.100.7')), { ok: true, status: 200 });
    assert.deepEqual(plain.of(row(3, 'not-an-ip')), { ok: false, status: 400, code: 'invalid_request' }, 'no words without a report');
    assert.equal(plain.of(row(4, '198.51.100.8')), undefined, 'worth trying again: not finished');
    assert.deepEqual(plain.of(row(5, '198.51.100.9')), { ok: true, status: 200 }, 'the last result counts');
    assert.equal(plain.of(row(6, '198.51.100.10')), undefined, 'the last result counts, when it is not final too');
    assert.equal(plain.of(row(7, '198.51.100.11')), undefined, 'a line cut short');
    assert.equal(plain.of(row(2, '198.51.100.99')), undefined, 'the row was edited in the data file: it runs again');
    assert.equal(plain.of(row(99, '198.51.100.7')), undefined);
    const reported = await readEarlierRows(out, { texts: true });
    assert.deepEqual(reported.of(row(3, 'not-an-ip')), { ok: false, status: 400, code: 'invalid_request', text: 'The IP address is not valid. Check the row.' });
    assert.deepEqual(reported.of(row(2, '198.51.100.7')), { ok: true, status: 200 });
  });

  it('a results CSV: the status and code of each line done, whatever its values; no verdict', async () => {
    const out = join(await dirs.make('bizdata-earlier-'), 'job.results.csv');
    await written(out, [
      { row: row(2, '198.51.100.7'), ok: true, status: 200, final: true },
      { row: row(3, 'not-an-ip'), ok: false, status: 400, code: 'invalid_request', error: FAILED, final: true },
      { row: row(4, '198.51.100.8'), ok: false, status: 401, code: 'SC006', final: false },
    ]);
    const earlier = await readEarlierRows(out, { texts: true });
    assert.deepEqual(earlier.of(row(2, 'edited')), { status: 200 });
    assert.deepEqual(earlier.of(row(3, 'not-an-ip')), { status: 400, code: 'invalid_request' });
    assert.equal(earlier.of(row(4, '198.51.100.8')), undefined, 'a CSV holds only rows done with');
  });

  it('no results file yet, an empty one, or lines that are not results: nothing finished', async () => {
    const dir = await dirs.make('bizdata-earlier-');
    assert.equal((await readEarlierRows(join(dir, 'none.jsonl'))).of(row(2, 'x')), undefined);
    assert.equal((await readEarlierRows(undefined)).of(row(2, 'x')), undefined);
    await writeFile(join(dir, 'empty.jsonl'), '');
    assert.equal((await readEarlierRows(join(dir, 'empty.jsonl'))).of(row(2, 'x')), undefined);
    await writeFile(join(dir, 'odd.jsonl'), '[1,2]\n{"line":"2"}\nnull\n{"line":1e400,"values":{"ip":"x"},"final":true}\n');
    assert.equal((await readEarlierRows(join(dir, 'odd.jsonl'))).of(row(2, 'x')), undefined);
    // Lines past any data file's last one (a results file from elsewhere) are not held.
    const far = (line: number): string => `${JSON.stringify({ line, values: { ip: 'x' }, ok: true, final: true })}\n`;
    await writeFile(join(dir, 'far.jsonl'), far(Number.MAX_SAFE_INTEGER) + far(2 ** 27 + 1) + far(2));
    const earlier = await readEarlierRows(join(dir, 'far.jsonl'));
    assert.deepEqual(earlier.of(row(2, 'x')), { ok: true });
    assert.equal(earlier.of(row(Number.MAX_SAFE_INTEGER, 'x')), undefined);
  });

  it('refuses a link at the results file, naming it, as the results module does', async () => {
    const dir = await dirs.make('bizdata-earlier-');
    await written(join(dir, 'real.jsonl'), [{ row: row(2, '198.51.100.7'), ok: true, status: 200, final: true }]);
    await symlink(join(dir, 'real.jsonl'), join(dir, 'link.jsonl'));
    await assert.rejects(readEarlierRows(join(dir, 'link.jsonl')), (err: unknown) => err instanceof FileRefused && /link\.jsonl/.test(err.message));
  });
});
