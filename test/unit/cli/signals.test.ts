// Ctrl-C (SIGINT) and SIGTERM sent to real `bizdata` processes (the built bundle) in the middle of a
// run against the real sandbox: what was sent is answered and written, the summary comes, the process
// ends by the signal, and a second run does the rest.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchLine } from '../../../src/core/run/batchLines';
import { lookupKey } from '../../../src/core/requests/queries';
import { type BatchSummary } from '../../../src/core/run/batch';
import { assertNoCanary, sandbox, type Sandbox } from '../core/harness';
import { waitFor } from '../sandbox/helpers';
import { canaryEnv, CLI, cliEnv, runCli } from './cliHarness';

interface Running {
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  kill(signal: NodeJS.Signals): void;
}

describe('bizdata on Ctrl-C (SIGINT) and SIGTERM', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let dir: string;
  const outputs: string[] = [];
  const running: Running[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-signals-'));
  });
  afterEach(async () => {
    for (const r of running.splice(0)) {
      r.kill('SIGKILL');
      await r.exit;
    }
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });
  after(() => assertNoCanary(outputs));

  function start(args: readonly string[]): Running {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(canaryEnv(sb.url), join(dir, 'state')) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
      child.once('close', (code, signal) => {
        outputs.push(stdout, stderr);
        resolve({ code, signal, at: performance.now() });
      }),
    );
    const r: Running = {
      stdout: () => stdout,
      stderr: () => stderr,
      exit,
      kill: (signal) => void (child.exitCode === null && child.signalCode === null && child.kill(signal)),
    };
    running.push(r);
    return r;
  }

  /** The output file's lines; each must be whole JSON. */
  async function rows(file: string): Promise<BatchLine[]> {
    const text = await readFile(file, 'utf8').catch(() => '');
    assert.ok(text === '' || text.endsWith('\n'), 'the output file ends with a whole line');
    return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as BatchLine);
  }

  async function ipList(count: number): Promise<{ input: string; out: string }> {
    const input = join(dir, 'ips.txt');
    await writeFile(input, Array.from({ length: count }, (_, i) => `198.51.100.${i + 1}`).join('\n'));
    return { input, out: join(dir, 'out.jsonl') };
  }

  /** Waits until the sandbox holds an answer back (a call is on the wire) after `written` rows. */
  const midCall = (out: string, written: number): Promise<true> =>
    waitFor('a lookup on the wire after some rows', async () => {
      const [lines, customer] = await Promise.all([rows(out), sb.customer()]);
      return lines.length >= written && customer.dataCalls > lines.length ? true : undefined;
    }, 30_000);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} mid-batch: no new lookup is sent, those on the wire get 0.75 s, the summary is printed, the process ends by ${signal}, and a re-run does the rest once`, async () => {
      sb = await sandbox({ responseDelayMs: 300 });
      const { input, out } = await ipList(16);
      const batch = start(['batch', input, '--out', out, '--concurrency', '2']);
      await midCall(out, 2);
      batch.kill(signal);
      const exit = await batch.exit;
      // Ended by the signal itself: a shell shows 130 (SIGINT) or 143 (SIGTERM), and a script stops.
      assert.deepEqual([exit.code, exit.signal], [null, signal], batch.stderr());
      const summary = JSON.parse(batch.stdout()) as BatchSummary;
      const first = await rows(out);
      assert.equal(summary.cancelled, true);
      assert.equal(summary.total, 16);
      assert.ok(summary.done < 16, 'it stopped before the end');
      assert.equal(summary.done, first.length, 'the summary counts the rows written');
      assert.ok(first.every((l) => l.ok), batch.stderr());
      // Every call answered was written; one cut on the wire (if the machine was slower than the grace) is not, and runs again.
      const received = (await sb.customer()).dataCalls;
      assert.ok(received >= first.length && received <= first.length + 2, `${received} calls for ${first.length} rows written`);
      assert.match(batch.stderr(), new RegExp(`${signal}: stopping: no new lookup is sent.*${signal === 'SIGINT' ? 'Press Ctrl-C again' : 'Send SIGTERM again'} to stop at once`));
      assert.match(batch.stderr(), new RegExp(`stopped by ${signal}: ${first.length} lookups written .* run the same command again`));

      const rerun = await runCli(['batch', input, '--out', out, '--concurrency', '8'], canaryEnv(sb.url), join(dir, 'state'), outputs);
      assert.equal(rerun.code, 0, rerun.stderr);
      const again = JSON.parse(rerun.stdout) as BatchSummary;
      assert.deepEqual([again.skipped, again.done, again.ok], [first.length, 16 - first.length, 16 - first.length]);
      const all = await rows(out);
      assert.equal(all.length, 16);
      assert.equal(new Set(all.map((l) => lookupKey(l.input))).size, 16, 'each input written once');
      assert.equal((await sb.customer()).dataCalls, 16 + (received - first.length), 'only a lookup cut on the wire was sent twice');
    });
  }

  it('a lookup whose answer would take 20 s is cut 0.75 s after Ctrl-C: the summary comes, the row is left to run again', async () => {
    sb = await sandbox({ responseDelayMs: 20_000 });
    const { input, out } = await ipList(4);
    const batch = start(['batch', input, '--out', out, '--concurrency', '1']);
    await midCall(out, 0);
    const sent = performance.now();
    batch.kill('SIGINT');
    const exit = await batch.exit;
    assert.equal(exit.signal, 'SIGINT', batch.stderr());
    assert.ok(exit.at - sent < 10_000, `ended ${Math.round(exit.at - sent)} ms after Ctrl-C, not when the answer came`);
    const summary = JSON.parse(batch.stdout()) as BatchSummary;
    assert.deepEqual([summary.cancelled, summary.done], [true, 0]);
    assert.deepEqual(await rows(out), []);
  });

  it('a lookup slower than --timeout is cut at that deadline and not retried: the summary still comes', async () => {
    sb = await sandbox({ responseDelayMs: 20_000 });
    const { input, out } = await ipList(3);
    const batch = start(['batch', input, '--out', out, '--concurrency', '1', '--timeout', '1']);
    await midCall(out, 0);
    const sent = performance.now();
    batch.kill('SIGINT');
    const exit = await batch.exit;
    assert.equal(exit.signal, 'SIGINT', batch.stderr());
    // The sandbox would answer after 20 s; --timeout 1 cuts the call, and the stop keeps it from a retry.
    assert.ok(exit.at - sent < 10_000, `ended ${Math.round(exit.at - sent)} ms after Ctrl-C`);
    const summary = JSON.parse(batch.stdout()) as BatchSummary;
    assert.deepEqual([summary.cancelled, summary.done], [true, 0]);
    // Cut, so not written: the next run does it.
    assert.deepEqual(await rows(out), []);
    assert.equal((await sb.customer()).dataCalls, 1, 'the cut call was not sent again');
  });

  it('send: the request on the wire is answered and printed, no other is sent, and the process ends by SIGINT', async () => {
    // An answer that comes within the 0.75 s that send gives the request on the wire after a signal.
    sb = await sandbox({ responseDelayMs: 600 });
    const file = join(dir, 'calls.bizdata.http');
    const requests = [1, 2, 3].map((i) => `### ip${i}\nGET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.${i}?view=standard\n`);
    await writeFile(file, requests.join('\n'));
    const send = start(['send', file]);
    await waitFor('the first request on the wire', async () => ((await sb.customer()).dataCalls >= 1 ? true : undefined), 30_000);
    send.kill('SIGINT');
    const exit = await send.exit;
    assert.equal(exit.signal, 'SIGINT', send.stderr());
    assert.equal((JSON.parse(send.stdout()) as { inquiryDetail: { ipAddress: string } }).inquiryDetail.ipAddress, '203.0.113.1');
    assert.match(send.stderr(), /ip1: GET .*203\.0\.113\.1\?view=standard -> 200/);
    assert.match(send.stderr(), /stopped by SIGINT after 1 of 3 requests; the others were not sent/);
    assert.equal((await sb.customer()).dataCalls, 1);
  });
});
