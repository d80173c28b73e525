// The process helper the extension's sandbox service and the scripts share: real child processes,
// the real sandbox command line, real signals.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessStartError, spawnProcessGroup, type ProcessGroup, type StartFailure } from '../../../src/core/childProcess';
import { isRunning, waitUntilGone } from '../processes';

const ROOT = join(__dirname, '../../../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const LISTENING = /^Sandbox listening on (https?:\/\/\S+)$/;

/** A Node child running `script`. */
function node(script: string, onLine?: (line: string, stream: 'stdout' | 'stderr') => void): ProcessGroup {
  return spawnProcessGroup(process.execPath, ['-e', script], { onLine });
}

async function startFailure(promise: Promise<unknown>): Promise<StartFailure> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ProcessStartError, String(err));
    return err.failure;
  }
  throw new Error('the start did not fail');
}

describe('childProcess', function () {
  this.timeout(30_000);
  const started: ProcessGroup[] = [];

  before(() => {
    // `npm run test:unit` builds first; build here too so running mocha alone still works.
    if (!existsSync(CLI)) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  });

  after(async () => {
    for (const p of started) await p.stop(100);
  });

  it('reads the real sandbox\'s address line, and stop() ends it', async () => {
    const sandbox = spawnProcessGroup(process.execPath, [CLI, 'sandbox', '--port', '0'], { env: { ...process.env, BIZDATA_SANDBOX_ADMIN_KEY: 'child-process-test' } });
    started.push(sandbox);
    const [, url] = await sandbox.readAddress(LISTENING, 20_000);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/_sandbox/stats`, { headers: { 'x-sandbox-admin': 'child-process-test' } });
    assert.equal(res.status, 200);
    const exit = await sandbox.stop();
    assert.equal(exit.code, 0, 'the sandbox shut down cleanly on SIGTERM');
    assert.equal(sandbox.hasExited, true);
    await assert.rejects(fetch(`${url}/_sandbox/stats`, { signal: AbortSignal.timeout(2000) }));
  });

  it('stops the whole process group, children included', async () => {
    // The leader starts a grandchild that would outlive a signal sent to the leader alone.
    const leader = node(
      "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });" +
        "console.log('Sandbox listening on http://127.0.0.1:1 ' + c.pid); setInterval(() => {}, 1000);",
    );
    started.push(leader);
    const [line] = await leader.readAddress(/^Sandbox listening on \S+ (\d+)$/, 10_000);
    const grandchild = Number(line.split(' ').pop());
    assert.equal(isRunning(grandchild), true);
    await leader.stop();
    assert.equal(await waitUntilGone(grandchild, 5000), true, 'the grandchild outlived stop()');
  });

  it('falls back to SIGKILL when the process ignores SIGTERM', async () => {
    const stubborn = node("process.on('SIGTERM', () => {}); console.log('Sandbox listening on http://127.0.0.1:1'); setInterval(() => {}, 1000);");
    started.push(stubborn);
    await stubborn.readAddress(LISTENING, 10_000);
    const exit = await stubborn.stop(300);
    assert.equal(exit.signal, 'SIGKILL');
  });

  it('names why no address came: other output, an early exit, a timeout, a failed spawn', async () => {
    const chatty = node("console.log('hello'); setInterval(() => {}, 1000);");
    started.push(chatty);
    assert.deepEqual(await startFailure(chatty.readAddress(LISTENING, 10_000)), { kind: 'unexpectedOutput', line: 'hello' });
    // The helper stopped it.
    assert.equal((await chatty.exited).signal, 'SIGTERM');

    const early = node('process.exit(3)');
    assert.deepEqual(await startFailure(early.readAddress(LISTENING, 10_000)), { kind: 'exited', exit: { code: 3, signal: null } });

    const silent = node('setInterval(() => {}, 1000)');
    started.push(silent);
    assert.deepEqual(await startFailure(silent.readAddress(LISTENING, 200)), { kind: 'timeout', timeoutMs: 200 });
    assert.equal((await silent.exited).signal, 'SIGTERM');

    const missing = spawnProcessGroup(join(ROOT, 'no-such-program'), []);
    const failure = await startFailure(missing.readAddress(LISTENING, 10_000));
    assert.equal(failure.kind, 'spawnFailed');
    assert.match(failure.kind === 'spawnFailed' ? failure.message : '', /ENOENT/);
  });

  it('hands over output as whole lines, per stream, however it was split', async () => {
    const lines: string[] = [];
    const writer = node(
      "process.stdout.write('Sandbox listening on http://127.0.0.1:1\\nfir'); setTimeout(() => { process.stdout.write('st\\r\\nsecond\\n'); process.stderr.write('oops\\n'); process.stdout.write('tail'); }, 50);",
      (line, stream) => lines.push(`${stream}:${line}`),
    );
    await writer.readAddress(LISTENING, 10_000);
    await writer.exited;
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      lines.filter((l) => l.startsWith('stdout:')),
      ['stdout:Sandbox listening on http://127.0.0.1:1', 'stdout:first', 'stdout:second', 'stdout:tail'],
    );
    assert.deepEqual(lines.filter((l) => l.startsWith('stderr:')), ['stderr:oops']);
  });
});
