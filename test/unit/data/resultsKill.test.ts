// kill -9 in the middle of a data-driven run's writes: every result written before the kill counts
// as done, the second run writes only the rest, and the file ends with one result per row (CSV: one
// line per row a spreadsheet opens). The writer is a real child process killed with SIGKILL while it
// appends large answers. A kill seldom lands inside a write (in probes it never did), so a result cut
// short is made on purpose in results.test.ts and resultsCsv.test.ts.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { openResults, type ResultLine } from '../../../src/core/data/results';
import { parseColumnFlags } from '../../../src/core/data/resultColumns';
import type { DataTable } from '../../../src/core/data/rows';
import { tempDirs } from '../tempDirs';
import { table } from './tables';

const ROWS = 400;
const CSV = `country,name\r\n${Array.from({ length: ROWS }, (_, i) => `US,"Acme ${i}, Inc."`).join('\r\n')}\r\n`;
const COLUMN = 'big=$.big';
const DATA = join(__dirname, '../../../src/core/data');

/** A child that writes one result per row, a large one, a row per turn of its event loop, and says so after each. */
const WRITER = `
const { readRows } = require(${JSON.stringify(join(DATA, 'rows.js'))});
const { openResults } = require(${JSON.stringify(join(DATA, 'results.js'))});
const { parseColumnFlags } = require(${JSON.stringify(join(DATA, 'resultColumns.js'))});
const [out, csv] = process.argv.slice(2);
(async () => {
  const t = (await readRows(csv, 'rows.csv')).table;
  const columns = out.endsWith('.csv') ? parseColumnFlags([${JSON.stringify(COLUMN)}]).columns : [];
  const r = (await openResults({ outFile: out, dataColumns: t.columns, columns })).results;
  const big = 'x'.repeat(256 * 1024);
  const rows = t.rows.filter((row) => !r.isDone(row));
  const next = (i) => {
    if (i >= rows.length) return;
    r.write({ row: rows[i], ok: true, status: 200, code: 'CM000', answer: { big: big + i }, final: true });
    process.stdout.write('written ' + rows[i].line + '\\n');
    setImmediate(() => next(i + 1));
  };
  next(0);
})();
`;

/** Runs the writer until it has said `count` rows are written, then kills it with SIGKILL; resolves with the lines it said it wrote. */
function writeThenKill(script: string, out: string, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, out, CSV], { stdio: ['ignore', 'pipe', 'inherit'] });
    const said: number[] = [];
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const parts = text.split('\n');
      text = parts.pop() ?? '';
      for (const p of parts) said.push(Number(p.slice('written '.length)));
      if (said.length >= count && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(said) : reject(new Error(`the writer ended with ${code ?? signal} before it was killed`))));
  });
}

async function resume(out: string, t: DataTable, said: readonly number[]): Promise<void> {
  const parsed = parseColumnFlags(out.endsWith('.csv') ? [COLUMN] : []);
  if (!parsed.ok) assert.fail(parsed.message);
  const { columns } = parsed;
  const opened = await openResults({ outFile: out, dataColumns: t.columns, columns });
  if (!opened.ok) assert.fail(opened.message);
  const r = opened.results;
  const pending = t.rows.filter((row) => !r.isDone(row));
  for (const line of said) assert.ok(!pending.some((row) => row.line === line), `row ${line} was written before the kill but runs again`);
  assert.ok(pending.length <= ROWS - said.length);
  for (const row of pending) r.write({ row, ok: true, status: 200, code: 'CM000', answer: { big: 'again' }, final: true });
  await r.close();
}

describe('data results: kill -9 while writing', function () {
  this.timeout(60_000);
  const dirs = tempDirs();

  for (const name of ['results.jsonl', 'results.csv']) {
    it(`${name}: nothing written is lost or written twice, and the file stays readable`, async () => {
      const dir = await dirs.make('data-kill-');
      const script = join(dir, 'writer.js');
      await writeFile(script, WRITER);
      const out = join(dir, name);
      const t = await table(CSV, 'rows.csv');
      const said = await writeThenKill(script, out, 50);
      assert.ok(said.length >= 50);
      await resume(out, t, said);
      if (name.endsWith('.csv')) {
        const records = parse(await readFile(out), { bom: true }) as string[][];
        assert.deepEqual(records[0], ['country', 'name', 'line', 'status', 'code', 'big']);
        const lines = records.slice(1).map((r) => Number(r[2]));
        assert.deepEqual([...lines].sort((a, b) => a - b), t.rows.map((r) => r.line), 'one line per input row');
      } else {
        const whole = (await readFile(out, 'utf8')).split('\n').flatMap((l) => {
          try {
            return [JSON.parse(l) as ResultLine];
          } catch {
            return [];
          }
        });
        assert.deepEqual(whole.map((l) => l.line).sort((a, b) => a - b), t.rows.map((r) => r.line), 'one result per row');
      }
    });
  }
});
