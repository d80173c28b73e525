// A coordinator connection that fails leaves nothing behind: no socket, no timer of the Redis client
// (ioredis armed a 2 s disconnectTimeout on the closed socket, which held the command line that long
// after its message). Each case runs in a Node process of its own, so that what keeps its event loop
// alive is the client's alone, and asks Node which resources are still active once the failure is in.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startRedis, type RedisServer } from '../redisServer';

const CONNECT = join(__dirname, '../../../src/core/coordination/connect.js');

interface Outcome {
  readonly connected: boolean;
  readonly message?: string;
  /** What process.getActiveResourcesInfo() lists that it did not before the client: once a failure is in, or while connected. */
  readonly resources: readonly string[];
  readonly exitCode: number | null;
}

/** Connects from a fresh Node process, reports, and waits for that process to end by itself. */
function connectFromAProcess(url: string, password?: string): Promise<Outcome> {
  const script = `
    const { connectCoordinator } = require(${JSON.stringify(CONNECT)});
    // What is active before the client exists is not the client's: the pipes of stdout and stderr,
    // which Node opens on first use, so use them first.
    process.stdout.write(''); process.stderr.write('');
    const before = process.getActiveResourcesInfo();
    const added = () => {
      const rest = [...before];
      return process.getActiveResourcesInfo().filter((r) => { const i = rest.indexOf(r); if (i < 0) return true; rest.splice(i, 1); return false; });
    };
    const report = (r) => setImmediate(() => process.stdout.write(JSON.stringify({ ...r, resources: added() })));
    connectCoordinator({ url: process.env.COORDINATOR_URL, password: process.env.COORDINATOR_PASSWORD }).then(
      async (c) => { const open = added(); await c.dispose(); process.stdout.write(JSON.stringify({ connected: true, resources: open })); },
      (err) => report({ connected: false, message: err.message }),
    );`;
  // The password through the environment, as the command line takes it.
  const env = { ...process.env, COORDINATOR_URL: url, ...(password === undefined ? {} : { COORDINATOR_PASSWORD: password }) };
  const child = spawn(process.execPath, ['-e', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  // Not a timing test: the process must end by itself, and the bound is generous (the old 2 s timer
  // is caught by the resources above); the kill only keeps a regression from hanging the suite.
  const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
  return new Promise((resolve) =>
    child.once('close', (exitCode) => {
      clearTimeout(guard);
      resolve({ ...(JSON.parse(out || '{}') as Omit<Outcome, 'exitCode'>), exitCode });
    }),
  );
}

describe('a failed coordinator connection leaves nothing behind (real redis-server)', function () {
  this.timeout(30_000);
  const password = 'closeTestPASS-5e81';
  let redis: RedisServer;

  before(async () => {
    redis = await startRedis({ password });
  });
  after(async () => {
    await redis?.stop();
  });

  it('the right password connects: the probe sees the client\'s socket, and the process ends once it is closed', async () => {
    const r = await connectFromAProcess(redis.url, password);
    assert.equal(r.connected, true, r.message);
    assert.ok(r.resources.includes('TCPSocketWrap'), `what the probe saw: ${r.resources.join(', ')}`);
    assert.equal(r.exitCode, 0);
  });

  it('a wrong password: an authentication failure, and no timer or socket of the client left', async () => {
    const r = await connectFromAProcess(redis.url, 'wrongPASS-70c2');
    assert.match(r.message ?? '', /^Authentication failed: .*\(WRONGPASS\)/);
    assert.deepEqual(r.resources, []);
    assert.equal(r.exitCode, 0);
  });

  it('no password where one is asked: the same', async () => {
    const r = await connectFromAProcess(redis.url);
    assert.match(r.message ?? '', /^Authentication failed: .*\(NOAUTH\)/);
    assert.deepEqual(r.resources, []);
    assert.equal(r.exitCode, 0);
  });

  it('nothing listening on the port: "cannot be reached", and no timer or socket of the client left', async () => {
    await redis.kill();
    try {
      const r = await connectFromAProcess(redis.url, password);
      assert.match(r.message ?? '', /cannot be reached/);
      assert.deepEqual(r.resources, []);
      assert.equal(r.exitCode, 0);
    } finally {
      await redis.restart();
    }
  });
});
