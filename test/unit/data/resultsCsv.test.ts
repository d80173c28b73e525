import * as assert from 'node:assert/strict';
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { openResults } from '../../../src/core/data/results';
import type { ResultsFile, RowResult } from '../../../src/core/data/resultTypes';
import type { DataRow, DataTable } from '../../../src/core/data/rows';
import { parseColumnFlags, type ResultColumn } from '../../../src/core/data/resultColumns';
import { tempDirs } from '../tempDirs';
import { table } from './tables';

function columns(...flags: string[]): readonly ResultColumn[] {
  const c = parseColumnFlags(flags);
  if (!c.ok) assert.fail(c.message);
  return c.columns;
}

async function open(outFile: string, t: DataTable, cols: readonly ResultColumn[]): Promise<ResultsFile> {
  const r = await openResults({ outFile, dataColumns: t.columns, columns: cols });
  if (!r.ok) assert.fail(r.message);
  return r.results;
}

const answerFor = (row: DataRow): unknown => ({
  MatchResponse: { MatchResponseDetail: { MatchCandidate: [{ DUNSNumber: `D-${row.line}`, Name: row.line === 4 ? '@SUM(1+1)*cmd' : 'Line\nbreak, "quoted"', tags: ['a', 'b'] }] } },
});
const success = (row: DataRow): RowResult => ({ row, ok: true, status: 200, code: 'CM000', answer: answerFor(row), final: true });
const refused = (row: DataRow): RowResult => ({ row, ok: false, status: 401, code: 'SC001', error: { kind: 'api', text: 'no', advice: 'fix' }, final: true });
const retry = (row: DataRow): RowResult => ({ row, ok: false, error: { kind: 'network', text: 'reset', advice: 'Run it again.' }, final: false });

const CSV = '\uFEFFcountry,name\r\nUS,"Acme, Inc."\r\nGB,Beta\r\nDE,"=HYPERLINK(""http://x/?""&A1)"\r\n';
const COLUMNS = ['duns=$.MatchResponse.MatchResponseDetail.MatchCandidate[0].DUNSNumber', 'candidate=$..Name', 'tags=$..tags', 'none=$.nothing.here'];

/** The file as a spreadsheet reads it: records of cells. */
async function records(out: string): Promise<string[][]> {
  return parse(await readFile(out), { bom: true }) as string[][];
}

describe('data results: CSV', () => {
  const dirs = tempDirs();

  it('writes a header and one RFC 4180 line per row, CRLF, with the input columns, line, status, code and --column cells', async () => {
    const out = join(await dirs.make('data-'), 'results.csv');
    const t = await table(CSV, 'rows.csv');
    const file = await open(out, t, columns(...COLUMNS));
    file.write(success(t.rows[0]));
    file.write(refused(t.rows[1]));
    file.write(success(t.rows[2]));
    await file.close();
    const bytes = await readFile(out);
    assert.equal(bytes.subarray(0, 3).toString('hex'), 'efbbbf', 'a UTF-8 BOM, so Excel reads UTF-8');
    assert.ok(bytes.toString('utf8').endsWith('\r\n'));
    assert.deepEqual(await records(out), [
      ['country', 'name', 'line', 'status', 'code', 'duns', 'candidate', 'tags', 'none'],
      ['US', 'Acme, Inc.', '2', '200', 'CM000', 'D-2', 'Line\nbreak, "quoted"', '["a","b"]', ''],
      ['GB', 'Beta', '3', '401', 'SC001', '', '', '', ''],
      // formula cells from the data file and from the answer are shown as text
      ['DE', '\'=HYPERLINK("http://x/?"&A1)', '4', '200', 'CM000', 'D-4', '\'@SUM(1+1)*cmd', '["a","b"]', ''],
    ]);
  });

  it('writes only rows that are done with, and a second run skips them, so the file has one line per input row', async () => {
    const out = join(await dirs.make('data-'), 'results.csv');
    const t = await table(CSV, 'rows.csv');
    const cols = columns('duns=$..DUNSNumber');
    const first = await open(out, t, cols);
    first.write(success(t.rows[0]));
    first.write(retry(t.rows[1]));
    first.write(success(t.rows[2]));
    await first.close();
    const second = await open(out, t, cols);
    assert.deepEqual(t.rows.map((r) => second.isDone(r)), [true, false, true], 'the formula row is recognised though its cell was written made safe');
    second.write(success(t.rows[1]));
    await second.close();
    const rows = await records(out);
    assert.equal(rows.length, 1 + t.rows.length);
    assert.deepEqual(rows.slice(1).map((r) => r[2]).sort(), ['2', '3', '4']);
  });

  it('cuts off a record cut short by a kill, even inside a quoted cell, and carries on', async () => {
    const out = join(await dirs.make('data-'), 'results.csv');
    const t = await table(CSV, 'rows.csv');
    const cols = columns('candidate=$..Name');
    const first = await open(out, t, cols);
    first.write(success(t.rows[0]));
    await first.close();
    const whole = (await stat(out)).size;
    for (const torn of ['GB,Beta,3,200,CM000,"Line\r\nbre', 'GB,Beta,3,2']) {
      await appendFile(out, torn);
      const again = await open(out, t, cols);
      assert.equal((await stat(out)).size, whole, 'the torn record is cut off');
      assert.deepEqual(t.rows.map((r) => again.isDone(r)), [true, false, false]);
      await again.close();
    }
    const resumed = await open(out, t, cols);
    resumed.write(success(t.rows[1]));
    await resumed.close();
    assert.deepEqual((await records(out)).map((r) => r[2]), ['line', '2', '3']);
  });

  it('starts again over a header cut short, and refuses a file with other columns or that is not its own', async () => {
    const dir = await dirs.make('data-');
    const t = await table(CSV, 'rows.csv');
    const out = join(dir, 'results.csv');
    await writeFile(out, '\uFEFFcountry,na');
    const file = await open(out, t, []);
    await file.close();
    assert.equal(await readFile(out, 'utf8'), '\uFEFFcountry,name,line,status,code\r\n');
    const other = await openResults({ outFile: out, dataColumns: t.columns, columns: columns('duns=$.a') });
    assert.match(other.ok ? '' : other.message, /results\.csv has the columns country,name,line,status,code, not the country,name,line,status,code,duns of this run; write the results to another --out file/);
    const data = join(dir, 'rows.csv');
    await writeFile(data, 'just some text');
    const notOurs = await openResults({ outFile: data, dataColumns: t.columns, columns: [] });
    assert.match(notOurs.ok ? '' : notOurs.message, /rows\.csv is not a results CSV of a data-driven run/);
    assert.equal(await readFile(data, 'utf8'), 'just some text');
  });

  it('writes JSON Lines rows under every key met, an absent value as an empty cell, and resumes them', async () => {
    const out = join(await dirs.make('data-'), 'results.csv');
    const t = await table('{"name":"Acme","country":"US"}\n{"name":"Beta","extra":"-1"}\n', 'rows.jsonl');
    const first = await open(out, t, []);
    for (const row of t.rows) first.write(success(row));
    await first.close();
    assert.deepEqual(await records(out), [
      ['name', 'country', 'extra', 'line', 'status', 'code'],
      ['Acme', 'US', '', '1', '200', 'CM000'],
      ['Beta', '', "'-1", '2', '200', 'CM000'],
    ]);
    const second = await open(out, t, []);
    assert.deepEqual(t.rows.map((r) => second.isDone(r)), [true, true]);
    await second.close();
  });

  it('refuses a data column or a --column named like a column the results add, or like a data column', async () => {
    const dir = await dirs.make('data-');
    const withStatus = await table('name,status\nAcme,x\n', 'rows.csv');
    const a = await openResults({ outFile: join(dir, 'a.csv'), dataColumns: withStatus.columns });
    assert.match(a.ok ? '' : a.message, /^The data file has a column named "status", which a results CSV adds itself \(line, status, code\)/);
    const t = await table(CSV, 'rows.csv');
    const b = await openResults({ outFile: join(dir, 'b.csv'), dataColumns: t.columns, columns: columns('name=$.a') });
    assert.match(b.ok ? '' : b.message, /^--column name=…: the results already have a column "name"; give this one another name\.$/);
  });
});
