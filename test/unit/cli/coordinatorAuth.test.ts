// A coordinator that asks for a password (a real redis-server with --requirepass): a wrong or missing
// BIZDATA_COORDINATOR_PASSWORD is an authentication failure naming the coordinator, not "cannot be
// reached"; nothing is sent to the service, and no password shows anywhere.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertNoCanary, sandbox, type Sandbox } from '../core/harness';
import { startRedis, type RedisServer } from '../redisServer';
import { canaryEnv, runCli, type Run } from './cliHarness';

describe('bizdata with a coordinator that asks for a password (real redis-server)', function () {
  this.timeout(60_000);
  const password = 'coordinatorPASS-91c3e7';
  const wrong = 'wrongCoordinatorPASS-4d2a';
  let redis: RedisServer;
  let sb: Sandbox;
  let dir: string;
  const outputs: string[] = [];
  const run = (env: Record<string, string>): Promise<Run> =>
    runCli(['ip', '203.0.113.7'], { ...canaryEnv(sb.url), BIZDATA_COORDINATOR: redis.url, ...env }, join(dir, 'state'), outputs);
  const named = (): RegExp => new RegExp(`coordinator ${redis.url.replace(/[/.]/g, '\\$&')}`);

  before(async () => {
    redis = await startRedis({ password });
    sb = await sandbox();
    dir = await mkdtemp(join(tmpdir(), 'bizdata-coord-auth-'));
  });
  after(async () => {
    assertNoCanary(outputs, [password, wrong]);
    await sb?.close();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('a wrong password: exit 2, "Authentication failed" naming the coordinator and the variable to set, nothing sent', async () => {
    const r = await run({ BIZDATA_COORDINATOR_PASSWORD: wrong });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /Authentication failed: the /);
    assert.match(r.stderr, new RegExp(`${named().source} refused the password given \\(WRONGPASS\\)`));
    assert.match(r.stderr, /Set BIZDATA_COORDINATOR_PASSWORD/);
    assert.doesNotMatch(r.stderr, /cannot be reached/);
    assert.equal((await sb.stats()).requests, 0);
  });

  it('a wrong user and password: the same, naming both', async () => {
    const r = await run({ BIZDATA_COORDINATOR_USER: 'someone', BIZDATA_COORDINATOR_PASSWORD: wrong });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${named().source} refused the user and password given \\(WRONGPASS\\)`));
    assert.equal((await sb.stats()).requests, 0);
  });

  it('no password: the coordinator asks for one', async () => {
    const r = await run({});
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`Authentication failed: the ${named().source} asks for a password and none was given \\(NOAUTH\\)`));
    assert.doesNotMatch(r.stderr, /cannot be reached/);
    assert.equal((await sb.stats()).requests, 0);
  });

  it('the right password works', async () => {
    const r = await run({ BIZDATA_COORDINATOR_PASSWORD: password });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(redis.cli('--scan').includes('bizdata:v1:'), 'the run kept its state in the coordinator');
  });
});
