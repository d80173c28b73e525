// A data-driven run (core/run/dataRun.ts) against the real sandbox over loopback, through the real
// client: one run of the file per row with the row's columns as variables, a result line per row,
// a second run that resumes (sends nothing for the rows done), and a contract limit (SC005) that
// stops the rows with its row left to run again.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openResults } from '../../../src/core/data/results';
import { readRows, type DataRow, type DataTable } from '../../../src/core/data/rows';
import { bodyFiles } from '../../../src/core/requests/fileSafety';
import { onlyConnection } from '../../../src/core/requests/requestConnections';
import { parseRequestFile } from '../../../src/core/requests/requestFile';
import { runRows, type DataProgress } from '../../../src/core/run/dataRun';
import type { RunHost } from '../../../src/core/run/engine';
import { tempDirs } from '../tempDirs';
import { closeAll, endpointsFor, sandboxWithClient, type Sandbox, type TestClient } from './harness';

const FILE = parseRequestFile(['### lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '?? status == 200', ''].join('\n'));

describe('a data-driven run: the engine once per row', function () {
  this.timeout(30_000);
  const dirs = tempDirs();
  let sb: Sandbox | undefined;
  let t: TestClient | undefined;
  afterEach(() => closeAll(t, sb));

  function hostFor(dir: string, client: TestClient, url: string, stopped?: () => boolean): (row: DataRow) => RunHost {
    const endpoints = endpointsFor(url);
    return (row) => ({
      ...(stopped ? { stopped } : {}),
      connections: onlyConnection(endpoints),
      route: (name) => ({ name, endpoints, send: (request) => client.client.send(request) }),
      inputs: () => Promise.resolve({ row: new Map(Object.entries(row.values)), files: bodyFiles(join(dir, 'r.bizdata.http'), dir) }),
      confirm: () => Promise.resolve(true),
      redact: (text) => text,
    });
  }

  function table(dir: string, csv: string): DataTable {
    const read = readRows(csv, join(dir, 'rows.csv'));
    assert.ok(read.ok);
    return read.table;
  }

  async function run(dir: string, rows: DataTable, client: TestClient, url: string, progress: DataProgress[] = [], concurrency = 1) {
    const opened = await openResults({ outFile: join(dir, 'rows.results.jsonl'), table: rows });
    assert.ok(opened.ok);
    try {
      return await runRows({ file: FILE, requests: FILE.requests, table: rows, results: opened.results }, hostFor(dir, client, url), (p) => progress.push(p), concurrency);
    } finally {
      await opened.results.close();
    }
  }

  it('runs each row with its columns as variables, writes a line per row, and a second run sends nothing', async () => {
    ({ sb, t } = await sandboxWithClient());
    const dir = await dirs.make('bizdata-datarun-');
    const rows = table(dir, 'ip,note\n203.0.113.7,a\n"203.0.113.8","b, quoted"\n203.0.113.9,c\n');
    const progress: DataProgress[] = [];
    const first = await run(dir, rows, t, sb.url, progress);
    assert.deepEqual([first.done, first.ok, first.failed, first.skipped, first.cancelled, first.stoppedBy], [3, 3, 0, 0, false, undefined]);
    assert.deepEqual(progress.map((p) => p.done), [1, 2, 3]);
    const lines = (await readFile(join(dir, 'rows.results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { line: number; ok: boolean; status: number; final: boolean; answer: { inquiryDetail: { ipAddress: string } } });
    assert.deepEqual(
      lines.map((l) => [l.line, l.ok, l.status, l.final, l.answer.inquiryDetail.ipAddress]),
      [
        [2, true, 200, true, '203.0.113.7'],
        [3, true, 200, true, '203.0.113.8'],
        [4, true, 200, true, '203.0.113.9'],
      ],
    );
    const calls = (await sb.customer()).dataCalls;
    const again = await run(dir, rows, t, sb.url);
    assert.deepEqual([again.done, again.skipped], [0, 3]);
    assert.equal((await sb.customer()).dataCalls, calls, 'nothing sent again');
  });

  it('stops the rows at a contract limit (SC005), leaving its row to run again', async () => {
    ({ sb, t } = await sandboxWithClient({ contractLimit: 1 }));
    const dir = await dirs.make('bizdata-datarun-');
    const rows = table(dir, 'ip\n203.0.113.7\n203.0.113.8\n203.0.113.9\n');
    const summary = await run(dir, rows, t, sb.url);
    assert.equal(summary.stoppedBy?.code, 'SC005');
    assert.deepEqual([summary.done, summary.ok, summary.failed], [2, 1, 1]);
    const lines = (await readFile(join(dir, 'rows.results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { line: number; ok: boolean; final: boolean; code?: string });
    assert.deepEqual(
      lines.map((l) => [l.line, l.ok, l.final, l.code]),
      [
        [2, true, true, undefined],
        [3, false, false, 'SC005'],
      ],
    );
  });

  it('runs rows side by side up to its concurrency, each row once', async () => {
    ({ sb, t } = await sandboxWithClient({ responseDelayMs: 100 }));
    const dir = await dirs.make('bizdata-datarun-');
    const ips = Array.from({ length: 12 }, (_, i) => `198.51.100.${i + 1}`);
    const rows = table(dir, `ip\n${ips.join('\n')}\n`);
    const summary = await run(dir, rows, t, sb.url, [], 4);
    assert.deepEqual([summary.done, summary.ok], [12, 12]);
    const lines = (await readFile(join(dir, 'rows.results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { values: { ip: string } });
    assert.deepEqual(lines.map((l) => l.values.ip).sort(), [...ips].sort(), 'every row once');
    const c = await sb.customer();
    assert.equal(c.dataCalls, 12);
    assert.ok(c.maxConcurrency >= 2 && c.maxConcurrency <= 4, `rows side by side, at most 4: ${c.maxConcurrency}`);
  });

  it('cancelled, starts no other row: the rows done are written, the rest run next time', async () => {
    ({ sb, t } = await sandboxWithClient());
    const dir = await dirs.make('bizdata-datarun-');
    const rows = table(dir, 'ip\n203.0.113.7\n203.0.113.8\n203.0.113.9\n203.0.113.10\n');
    const opened = await openResults({ outFile: join(dir, 'rows.results.jsonl'), table: rows });
    assert.ok(opened.ok);
    let done = 0;
    const summary = await runRows({ file: FILE, requests: FILE.requests, table: rows, results: opened.results }, hostFor(dir, t, sb.url, () => done >= 2), (p) => (done = p.done));
    await opened.results.close();
    assert.deepEqual([summary.cancelled, summary.done], [true, 2]);
    assert.equal((await sb.customer()).dataCalls, 2, 'no row started after the cancel');
    const next = await run(dir, rows, t, sb.url);
    assert.deepEqual([next.skipped, next.done], [2, 2]);
  });
});
