import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBatchInput } from '../../../src/core/run/batchInput';
import { runBatch, type BatchProgress } from '../../../src/core/run/batch';
import { type BatchLine } from '../../../src/core/run/batchLines';
import { CANARY, endpointsFor, sandbox, testClient, type Sandbox, type TestClient } from './harness';

async function lines(file: string): Promise<BatchLine[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as BatchLine);
}

describe('batch input parsing', () => {
  it('reads an IP list with comments and blank lines', async () => {
    const p = (await parseBatchInput('# office ranges\n203.0.113.7\n\n  2001:db8::1  # v6\n\r\n198.51.100.1\r\n', 'ips.txt'));
    assert.equal(p.format, 'ip-list');
    assert.deepEqual(p.inputs.map((q) => (q.kind === 'ip' ? q.ip : '')), ['203.0.113.7', '2001:db8::1', '198.51.100.1']);
    assert.deepEqual(p.problems, []);
  });

  it('reads a CSV with a header, quoted fields, doubled quotes and embedded line breaks', async () => {
    const csv = 'country,name,territory\nUS,"Example, Inc.",CA\nGB,"The ""Quoted"" Ltd",\n\nDE,"Multi\nLine GmbH"\n';
    const p = (await parseBatchInput(csv, 'orgs.csv'));
    assert.equal(p.format, 'csv');
    assert.deepEqual(p.inputs, [
      { kind: 'org', country: 'US', name: 'Example, Inc.', territory: 'CA' },
      { kind: 'org', country: 'GB', name: 'The "Quoted" Ltd' },
      { kind: 'org', country: 'DE', name: 'Multi\nLine GmbH' },
    ]);
  });

  it('recognises a CSV by its header and refuses a row it cannot read, at its line', async () => {
    const p = (await parseBatchInput('country,name\nUS,Example,Extra\nUS,Fine\n', 'queries.txt'));
    assert.equal(p.format, 'csv');
    // The data layer's reader refuses the file at the row (nothing runs), as a data-driven run does.
    assert.equal(p.inputs.length, 0);
    assert.deepEqual(p.problems.map((x) => x.line), [2]);
    assert.match(p.problems[0].message, /3 fields but the header names 2/);
    assert.equal((await parseBatchInput('name,city\nx,y\n', 'a.csv')).problems.length, 1);
  });
});

describe('batch runner against the sandbox', () => {
  let sb: Sandbox;
  let t: TestClient;
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-batch-'));
  });

  afterEach(async () => {
    await t?.client.dispose();
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one line per input as it goes, reports progress, and a re-run skips what is done', async () => {
    sb = await sandbox({ qps: 50, concurrency: 3 });
    t = testClient(sb.url, { limits: { qps: 50, concurrency: 3 } });
    const ips = Array.from({ length: 20 }, (_, i) => `198.51.100.${i + 1}`);
    const { inputs } = (await parseBatchInput([...ips, 'not-an-ip'].join('\n'), 'ips.txt'));
    const out = join(dir, 'out.jsonl');
    const progress: BatchProgress[] = [];
    const s = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 3, onProgress: (p) => progress.push(p) });
    assert.deepEqual({ total: s.total, done: s.done, ok: s.ok, failed: s.failed, skipped: s.skipped, cancelled: s.cancelled }, { total: 21, done: 21, ok: 20, failed: 1, skipped: 0, cancelled: false });
    const written = await lines(out);
    assert.equal(written.length, 21);
    const bad = written.find((l) => !l.ok);
    assert.equal(bad?.error?.kind, 'input');
    assert.ok(written.filter((l) => l.ok).every((l) => l.status === 200 && l.body !== undefined));
    assert.equal(progress.at(-1)?.done, 21);
    const calls = (await sb.customer()).dataCalls;

    const again = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 3 });
    assert.equal(again.skipped, 21);
    assert.equal(again.done, 0);
    assert.equal((await sb.customer()).dataCalls, calls, 'nothing sent again');
    assert.equal((await lines(out)).length, 21);
  });

  it('stops on cancellation and the next run completes the rest', async () => {
    sb = await sandbox({ qps: 20, concurrency: 2 });
    t = testClient(sb.url, { limits: { qps: 20, concurrency: 2 } });
    const inputs = (await parseBatchInput(Array.from({ length: 40 }, (_, i) => `192.0.2.${i + 1}`).join('\n'), 'ips.txt')).inputs;
    const out = join(dir, 'out.jsonl');
    const ac = new AbortController();
    const s = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 2, signal: ac.signal, onProgress: (p) => p.done >= 10 && ac.abort() });
    assert.equal(s.cancelled, true);
    assert.ok(s.done >= 10 && s.done < 40);
    const rest = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 4 });
    assert.equal(rest.skipped, s.done);
    assert.equal(rest.ok, 40 - s.done);
    const keys = new Set((await lines(out)).filter((l) => l.ok).map((l) => JSON.stringify(l.input)));
    assert.equal(keys.size, 40);
  });

  it('stops cleanly on `stop`: lookups waiting in the limiter are dropped, those on the wire are answered and written', async () => {
    sb = await sandbox({ responseDelayMs: 200 });
    // Many workers, two calls at a time: most lookups wait in the limiter, as in a CLI batch with --concurrency auto.
    t = testClient(sb.url, { limits: { qps: 1000, concurrency: 2 } });
    const inputs = (await parseBatchInput(Array.from({ length: 20 }, (_, i) => `192.0.2.${i + 1}`).join('\n'), 'ips.txt')).inputs;
    const out = join(dir, 'out.jsonl');
    const stop = new AbortController();
    const s = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 16, stop: stop.signal, onProgress: (p) => p.done >= 4 && stop.abort() });
    const written = await lines(out);
    assert.equal(s.cancelled, true);
    assert.ok(s.done >= 4 && s.done < 20, `done ${s.done}`);
    assert.equal(written.length, s.done);
    assert.ok(written.every((l) => l.ok), 'nothing was cut');
    assert.equal((await sb.customer()).dataCalls, written.length, 'every call sent was answered and written; none waiting was sent');
    const rest = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 16 });
    assert.deepEqual([rest.skipped, rest.ok, rest.cancelled], [s.done, 20 - s.done, false]);
    assert.equal((await sb.customer()).dataCalls, 20, 'no input sent twice');
  });

  it('resumes after a crash that cut the last line short, and keeps every new line readable', async () => {
    sb = await sandbox({ qps: 50, concurrency: 3 });
    t = testClient(sb.url, { limits: { qps: 50, concurrency: 3 } });
    const inputs = (await parseBatchInput('203.0.113.1\n203.0.113.2\n203.0.113.3\n', 'ips.txt')).inputs;
    const out = join(dir, 'out.jsonl');
    await runBatch({ client: t.client, inputs: inputs.slice(0, 1), outFile: out });
    // The process died while writing the second input's line.
    await writeFile(out, `${await readFile(out, 'utf8')}{"input":{"kind":"ip","ip":"203.0.1`);
    const s = await runBatch({ client: t.client, inputs, outFile: out });
    assert.deepEqual({ skipped: s.skipped, ok: s.ok }, { skipped: 1, ok: 2 });
    const text = await readFile(out, 'utf8');
    const readable = text.split('\n').filter((l) => l !== '' && !l.startsWith('{"input":{"kind":"ip","ip":"203.0.1"') && !l.endsWith('203.0.1'));
    assert.equal(readable.map((l) => JSON.parse(l) as BatchLine).filter((l) => l.ok).length, 3);
    const again = await runBatch({ client: t.client, inputs, outFile: out });
    assert.deepEqual({ skipped: again.skipped, done: again.done }, { skipped: 3, done: 0 });
  });

  it('stops on a setup problem instead of marking every input done, and retries 5xx answers on the next run', async () => {
    sb = await sandbox();
    const inputs = (await parseBatchInput('203.0.113.1\n203.0.113.2\n203.0.113.3\n', 'ips.txt')).inputs;
    const out = join(dir, 'out.jsonl');
    const misconfigured = testClient(sb.url, { endpoints: { ...endpointsFor(sb.url), baseUrl: 'http://api.example.com' } });
    try {
      const s = await runBatch({ client: misconfigured.client, inputs, outFile: out, concurrency: 1 });
      assert.equal(s.stoppedBy?.kind, 'input');
      assert.equal(s.done, 1);
      assert.equal((await lines(out))[0].final, false);
    } finally {
      await misconfigured.client.dispose();
    }
    t = testClient(sb.url);
    // A 500 (not one of the gateway statuses the client retries at once), so the batch sees it.
    await sb.admin('POST', 'faults', { type: 'status', status: 500, path: '/v1/duns-search', count: 1 });
    const first = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 1 });
    assert.deepEqual([first.ok, first.failed], [2, 1]);
    const second = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 1 });
    assert.deepEqual([second.skipped, second.ok], [2, 1], 'only the 500 input ran again');
  });

  it('stops resumably when the service asks (Retry-After over 60 s) to be called again later, even for SC006', async () => {
    sb = await sandbox();
    t = testClient(sb.url);
    const inputs = (await parseBatchInput('203.0.113.1\n203.0.113.2\n203.0.113.3\n203.0.113.4\n', 'ips.txt')).inputs;
    const out = join(dir, 'out.jsonl');
    const sc006 = { error: { errorCode: 'SC006', errorMessage: 'Transaction not processed, permitted concurrency limit exceeded.' } };
    await sb.admin('POST', 'faults', { type: 'respond', status: 401, headers: { 'retry-after': '120' }, body: sc006, path: '/v1/duns-search', count: 1 });
    const started = Date.now();
    const first = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 1 });
    // Waiting the 120 s would outlast this test's 20 s timeout: it stopped instead, and says when to come back.
    assert.equal(first.stoppedBy?.code, 'SC006');
    assert.ok(first.stoppedBy?.comeBackAt !== undefined && first.stoppedBy.comeBackAt >= started + 119_000, String(first.stoppedBy?.comeBackAt));
    assert.match(first.stoppedBy?.advice ?? '', /^Try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 2 minutes\)/);
    assert.deepEqual([first.done, first.failed], [1, 1]);
    assert.deepEqual((await lines(out)).map((l) => [l.ok, l.final, l.code]), [[false, false, 'SC006']], 'written, not final: a re-run sends it again');
    const second = await runBatch({ client: t.client, inputs, outFile: out, concurrency: 1 });
    assert.deepEqual([second.skipped, second.ok, second.stoppedBy], [0, 4, undefined]);
  });

  it('runs CSV organization queries and stops at once on wrong credentials (one attempt)', async () => {
    sb = await sandbox();
    t = testClient(sb.url);
    t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: 'wrong' };
    const csv = join(dir, 'orgs.csv');
    await writeFile(csv, `country,name,territory\n${Array.from({ length: 30 }, (_, i) => `US,"Example ${i}, Inc.",CA`).join('\n')}\n`);
    const inputs = (await parseBatchInput(await readFile(csv, 'utf8'), csv)).inputs;
    const s = await runBatch({ client: t.client, inputs, outFile: join(dir, 'out.jsonl'), concurrency: 4 });
    assert.equal(s.stoppedBy?.kind, 'auth');
    assert.ok(s.done <= 4);
    assert.equal((await sb.customer()).tokenRequests, 1);

    t.credentials.b = { interfaceId: 'b', user: CANARY.user, password: CANARY.password };
    const ok = await runBatch({ client: t.client, inputs, outFile: join(dir, 'out.jsonl'), concurrency: 4 });
    assert.equal(ok.ok, 30, 'failed-on-credentials inputs are run again');
  });
});
