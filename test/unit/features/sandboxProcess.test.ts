// The sandbox the extension starts dies with the process that started it, however that process ends.
// A real Node parent starts the real sandbox through sandboxProcess.ts, the extension's own code path
// (spawnProcessGroup, in a group of its own, with the extension's arguments), and is then killed
// with SIGKILL: no dispose, no signal handler, nothing of the parent runs any more.
import * as assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isRunning, waitUntilGone } from '../processes';

const ROOT = join(__dirname, '../../../..');
const SANDBOX_PROCESS = join(ROOT, 'out', 'src', 'features', 'sandbox', 'sandboxProcess.js');
const ADMIN_KEY = 'lifeline-test-admin-key';

/** A parent that starts the sandbox as the extension does, prints {"pid", "url"} once it listens, and stays. */
function startParent(): ChildProcess {
  const script = `
    const { spawnSandbox, SANDBOX_LISTENING } = require(${JSON.stringify(SANDBOX_PROCESS)});
    const sandbox = spawnSandbox(${JSON.stringify(ROOT)}, ${JSON.stringify(ADMIN_KEY)}, () => undefined);
    sandbox.readAddress(SANDBOX_LISTENING, 20000).then(
      ([, url]) => console.log(JSON.stringify({ pid: sandbox.pid, url })),
      (err) => { console.error(err.message); process.exit(1); },
    );`;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the parent exited (${code}) before the sandbox listened`)));
  });
}

describe('the sandbox the extension starts (sandboxProcess.ts)', function () {
  this.timeout(40_000);
  const pids: number[] = [];

  before(() => {
    // `npm run test:unit` builds first; build here too so running mocha alone still works.
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
  });

  after(() => {
    // Whatever this test started and is still there (on failure), by pid.
    for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  });

  it('stops when the process that started it is killed with SIGKILL, and its port no longer answers', async () => {
    const parent = startParent();
    pids.push(parent.pid!);
    const { pid, url } = JSON.parse(await firstLine(parent)) as { pid: number; url: string };
    pids.push(pid);
    const stats = (): Promise<Response> => fetch(`${url}/_sandbox/stats`, { headers: { 'x-sandbox-admin': ADMIN_KEY }, signal: AbortSignal.timeout(2000) });
    assert.equal((await stats()).status, 200, 'the sandbox serves while its parent lives');

    process.kill(parent.pid!, 'SIGKILL');
    assert.equal(await waitUntilGone(parent.pid!, 5000), true, 'the parent is gone');
    assert.equal(await waitUntilGone(pid, 5000), true, `the sandbox (process ${pid}) outlived the process that started it`);
    await assert.rejects(stats(), 'the sandbox\'s port still answers');
  });
});
