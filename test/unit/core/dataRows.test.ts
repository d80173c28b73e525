// A data-driven run (core/run/dataRows.ts on the rows runner, as the CLI's --data and the editor's
// Run with Data use it) against the real sandbox over loopback, through the real client: one run of
// the file per row with the row's columns as variables, a result line per row, a second run that
// resumes (sends nothing for the rows done), a contract limit (SC005) that stops the rows with its
// row left to run again, a cancel that starts no row and leaves a row it cut short unwritten, and a
// row with a request declined (a `# @note`), whether or not another ran, written as not done, and
// a failed assertion written with the request and line to look at.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openResults } from '../../../src/core/data/results';
import { readRows, type DataRow, type DataTable } from '../../../src/core/data/rows';
import { bodyFiles } from '../../../src/core/requests/fileSafety';
import { onlyConnection } from '../../../src/core/requests/requestConnections';
import { parseRequestFile, type ParsedRequestFile } from '../../../src/core/requests/requestFile';
import { runDataRows, type DataRunPlan } from '../../../src/core/run/dataRows';
import type { RunHost } from '../../../src/core/run/engine';
import { NO_SECRETS } from '../../../src/core/redact';
import type { RowsProgress } from '../../../src/core/run/rows';
import { tempDirs } from '../tempDirs';
import { closeAll, endpointsFor, sandboxWithClient, type Sandbox, type TestClient } from './harness';

const FILE = parseRequestFile(['### lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '?? status == 200', ''].join('\n'));
const HALF_NOTED = parseRequestFile(['### first', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '', '### second', '# @note a second lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', ''].join('\n'));
const NOTED = parseRequestFile(['### lookup', '# @note sends a lookup for the row', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '?? status == 200', ''].join('\n'));

interface Line {
  readonly line: number;
  readonly ok: boolean;
  readonly status?: number;
  readonly code?: string;
  readonly final: boolean;
  readonly values: { readonly ip: string };
  readonly answer?: { readonly inquiryDetail: { readonly ipAddress: string } };
}

describe('a data-driven run: the engine once per row', function () {
  this.timeout(30_000);
  const dirs = tempDirs();
  let sb: Sandbox | undefined;
  let t: TestClient | undefined;
  afterEach(() => closeAll(t, sb));

  interface HostOptions {
    readonly signal?: AbortSignal;
    readonly confirm?: boolean;
    readonly onStarted?: (row: DataRow) => void;
  }

  function hostFor(dir: string, client: TestClient, url: string, o: HostOptions = {}): (row: DataRow) => RunHost {
    const endpoints = endpointsFor(url);
    return (row) => ({
      // As the editor's host: its stop is its cancel.
      ...(o.signal ? { stopped: () => o.signal?.aborted === true } : {}),
      connections: onlyConnection(endpoints),
      route: (name) => ({ name, endpoints, send: (request) => client.client.send(request, o.signal ? { signal: o.signal } : {}) }),
      inputs: () => Promise.resolve({ files: bodyFiles(join(dir, 'r.bizdata.http'), dir) }),
      confirm: () => Promise.resolve(o.confirm ?? true),
      secrets: NO_SECRETS,
      on: (e) => void (e.kind === 'started' && o.onStarted?.(row)),
    });
  }

  async function table(dir: string, csv: string): Promise<DataTable> {
    const read = await readRows(csv, join(dir, 'rows.csv'));
    assert.ok(read.ok);
    return read.table;
  }

  async function results(dir: string): Promise<Line[]> {
    return (await readFile(join(dir, 'rows.results.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Line);
  }

  async function run(dir: string, rows: DataTable, client: TestClient, url: string, extra: Partial<DataRunPlan> & { readonly host?: HostOptions; readonly file?: ParsedRequestFile } = {}) {
    const opened = await openResults({ outFile: join(dir, 'rows.results.jsonl'), dataColumns: rows.columns });
    assert.ok(opened.ok);
    const file = extra.file ?? FILE;
    try {
      return await runDataRows({ file, requests: file.requests, names: { requestFile: 'r.bizdata.http', dataFile: 'rows.csv' }, until: 'end', rows: rows.rows, results: opened.results, concurrency: 1, secrets: NO_SECRETS, ...extra }, hostFor(dir, client, url, extra.host));
    } finally {
      await opened.results.close();
    }
  }

  it('runs each row with its columns as variables, writes a line per row, and a second run sends nothing', async () => {
    ({ sb, t } = await sandboxWithClient());
    const dir = await dirs.make('bizdata-datarun-');
    const rows = await table(dir, 'ip,note\n203.0.113.7,a\n"203.0.113.8","b, quoted"\n203.0.113.9,c\n');
    const progress: RowsProgress[] = [];
    const first = await run(dir, rows, t, sb.url, { onProgress: (p) => progress.push(p) });
    assert.deepEqual([first.done, first.ok, first.failed, first.skipped, first.cancelled, first.stoppedBy], [3, 3, 0, 0, false, undefined]);
    // Once before any row (the rows done by an earlier run), then after each row.
    assert.deepEqual(progress.map((p) => p.done), [0, 1, 2, 3]);
    assert.deepEqual(
      (await results(dir)).map((l) => [l.line, l.ok, l.status, l.final, l.answer?.inquiryDetail.ipAddress]),
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
    const rows = await table(dir, 'ip\n203.0.113.7\n203.0.113.8\n203.0.113.9\n');
    const summary = await run(dir, rows, t, sb.url);
    assert.equal(summary.stoppedBy?.code, 'SC005');
    assert.deepEqual([summary.done, summary.ok, summary.failed], [2, 1, 1]);
    assert.deepEqual(
      (await results(dir)).map((l) => [l.line, l.ok, l.final, l.code]),
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
    const rows = await table(dir, `ip\n${ips.join('\n')}\n`);
    const summary = await run(dir, rows, t, sb.url, { concurrency: 4 });
    assert.deepEqual([summary.done, summary.ok], [12, 12]);
    assert.deepEqual((await results(dir)).map((l) => l.values.ip).sort(), [...ips].sort(), 'every row once');
    const c = await sb.customer();
    assert.equal(c.dataCalls, 12);
    assert.ok(c.maxConcurrency >= 2 && c.maxConcurrency <= 4, `rows side by side, at most 4: ${c.maxConcurrency}`);
  });

  it('cancelled, starts no other row: the rows done are written, the rest run next time', async () => {
    ({ sb, t } = await sandboxWithClient());
    const dir = await dirs.make('bizdata-datarun-');
    const rows = await table(dir, 'ip\n203.0.113.7\n203.0.113.8\n203.0.113.9\n203.0.113.10\n');
    const cancel = new AbortController();
    const summary = await run(dir, rows, t, sb.url, { signal: cancel.signal, host: { signal: cancel.signal }, onProgress: (p) => void (p.done >= 2 && cancel.abort()) });
    assert.deepEqual([summary.cancelled, summary.done], [true, 2]);
    assert.equal((await sb.customer()).dataCalls, 2, 'no row started after the cancel');
    const next = await run(dir, rows, t, sb.url);
    assert.deepEqual([next.skipped, next.done], [2, 2]);
  });

  it('cancelled with a row on the wire: that row is not written, and runs again next time', async () => {
    ({ sb, t } = await sandboxWithClient({ responseDelayMs: 300 }));
    const dir = await dirs.make('bizdata-datarun-');
    const rows = await table(dir, 'ip\n203.0.113.7\n203.0.113.8\n203.0.113.9\n');
    const cancel = new AbortController();
    // The second row's call is cut while the sandbox holds its answer.
    const host = { signal: cancel.signal, onStarted: (row: DataRow) => void (row.line === 3 && setTimeout(() => cancel.abort(), 50)) };
    const summary = await run(dir, rows, t, sb.url, { signal: cancel.signal, host });
    assert.deepEqual([summary.cancelled, summary.done, summary.stoppedBy], [true, 1, undefined]);
    assert.deepEqual((await results(dir)).map((l) => [l.line, l.final]), [[2, true]], 'the row cut short is not written');
    const next = await run(dir, rows, t, sb.url);
    assert.deepEqual([next.skipped, next.done, next.ok], [1, 2, 2]);
    assert.deepEqual((await results(dir)).map((l) => [l.line, l.final]).sort(), [[2, true], [3, true], [4, true]]);
  });

  it('writes a row none of whose requests ran (its # @note declined) as not done, and runs it next time', async () => {
    ({ sb, t } = await sandboxWithClient());
    const dir = await dirs.make('bizdata-datarun-');
    const rows = await table(dir, 'ip\n203.0.113.7\n203.0.113.8\n');
    const declined = await run(dir, rows, t, sb.url, { file: NOTED, host: { confirm: false } });
    assert.deepEqual([declined.done, declined.ok, declined.failed], [2, 0, 2]);
    assert.equal((await sb.customer()).dataCalls, 0, 'nothing sent');
    assert.deepEqual((await results(dir)).map((l) => [l.line, l.ok, l.final]), [[2, false, false], [3, false, false]]);
    const confirmed = await run(dir, rows, t, sb.url, { file: NOTED });
    assert.deepEqual([confirmed.skipped, confirmed.done, confirmed.ok], [0, 2, 2]);
    assert.equal((await sb.customer()).dataCalls, 2);
  });

  it('writes a row with one request declined as not done though another was answered, and runs it next time', async () => {
    ({ sb, t } = await sandboxWithClient());
    const dir = await dirs.make('bizdata-datarun-');
    const rows = await table(dir, 'ip\n203.0.113.7\n');
    const declined = await run(dir, rows, t, sb.url, { file: HALF_NOTED, host: { confirm: false } });
    assert.deepEqual([declined.done, declined.ok], [1, 0]);
    assert.equal((await sb.customer()).dataCalls, 1, 'the first request was sent');
    assert.deepEqual((await results(dir)).map((l) => [l.line, l.ok, l.status, l.final]), [[2, false, 200, false]]);
    const confirmed = await run(dir, rows, t, sb.url, { file: HALF_NOTED });
    assert.deepEqual([confirmed.skipped, confirmed.done, confirmed.ok], [0, 1, 1]);
  });

  it('writes a row that failed an assertion as done and not ok, saying which request and line, and why', async () => {
    ({ sb, t } = await sandboxWithClient());
    const dir = await dirs.make('bizdata-datarun-');
    const rows = await table(dir, 'ip\n203.0.113.7\n');
    const file = parseRequestFile(['### lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '?? body $.inquiryDetail.ipAddress == 198.51.100.1', ''].join('\n'));
    const summary = await run(dir, rows, t, sb.url, { file });
    assert.deepEqual([summary.done, summary.failed], [1, 1]);
    const [line] = (await readFile(join(dir, 'rows.results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Line & { error?: { kind: string; text: string; advice: string } });
    assert.deepEqual([line.ok, line.status, line.final, line.error?.kind], [false, 200, true, 'failed']);
    assert.match(line.error?.text ?? '', /198\.51\.100\.1/);
    assert.match(line.error?.advice ?? '', /^See lookup at line 2 of the request file/);
    // As `bizdata send` runs a row, a script that ends at its first failure: written the same way.
    const script = await run(dir, await table(dir, 'ip\n203.0.113.8\n'), t, sb.url, { file, until: 'first-failure' });
    assert.deepEqual([script.done, script.failed, script.cancelled], [1, 1, false]);
    const lines = (await readFile(join(dir, 'rows.results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Line);
    assert.deepEqual(lines.map((l) => [l.line, l.values.ip, l.ok, l.final]), [[2, '203.0.113.7', false, true], [2, '203.0.113.8', false, true]]);
  });
});
