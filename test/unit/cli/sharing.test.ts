// Several real `bizdata` processes sharing one machine's state directory: kept tokens, guard counts
// under the file lock, caps and learned limits.
import * as assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoCanary, CANARY, sandbox, type Sandbox } from '../core/harness';
import { canaryEnv as canaryEnvFor, cliRuns } from './cliHarness';

describe('bizdata processes sharing the state directory', () => {
  let sb: Sandbox;
  let dir: string;
  const { run, outputs } = cliRuns('bizdata-share-', (d) => (dir = d));
  afterEach(() => sb?.close());

  it('with --keep-token, many runs make one token request; the token stays in a file only the user can read, never printed', async () => {
    sb = await sandbox();
    const env = canaryEnvFor(sb.url);
    for (let i = 1; i <= 5; i++) assert.equal((await run(['ip', `203.0.113.${i}`, '--keep-token'], env)).code, 0);
    assert.equal((await sb.customer()).tokenRequests, 1);
    assert.equal((await stat(join(dir, 'tokens.json'))).mode & 0o777, 0o600);
    const kept = Object.values(JSON.parse(await readFile(join(dir, 'tokens.json'), 'utf8')) as Record<string, { value: string }>).map((t) => t.value);
    assert.equal(kept.length, 1);
    assertNoCanary(outputs, kept);
    assertNoCanary([await readFile(join(dir, 'tokens.json'), 'utf8')]);
    // Without it, each run signs in anew and nothing is kept.
    assert.equal((await run(['ip', '203.0.113.9'], env)).code, 0);
    assert.equal((await sb.customer()).tokenRequests, 2);
  });

  it('three wrong-password runs started together, round after round, never make the third failure', async () => {
    sb = await sandbox();
    const env = { ...canaryEnvFor(sb.url), BIZDATA_PASSWORD: 'wrong-password' };
    const args = ['org', '--country', 'US', '--name', 'Example Corp'];
    for (let round = 0; round < 3; round++) {
      const codes = (await Promise.all([run(args, env), run(args, env), run(args, env)])).map((r) => r.code);
      assert.deepEqual(codes, [3, 3, 3]);
      const user = (await sb.admin('GET', `users/${CANARY.user}`)) as { locked: boolean; failures: number };
      assert.ok(user.failures <= 2 && !user.locked, `round ${round}: ${JSON.stringify(user)}`);
    }
    assert.equal((await sb.customer()).authFailures, 2);
  });

  it('takes caps or auto, refuses other values and coordinator addresses with credentials, naming no secret', async () => {
    sb = await sandbox();
    const env = canaryEnvFor(sb.url);
    assert.equal((await run(['ip', '203.0.113.7', '--qps', 'auto', '--concurrency', '2'], env)).code, 0);
    const bad = await run(['ip', '203.0.113.7', '--qps', 'fast'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--qps must be a positive number or auto/);
    const withPassword = await run(['ip', '203.0.113.7', '--coordinator', `redis://u:${CANARY.password}@127.0.0.1:6379`], env);
    assert.equal(withPassword.code, 2);
    assert.match(withPassword.stderr, /BIZDATA_COORDINATOR_PASSWORD/);
    assert.equal((await run(['ip', '203.0.113.7'], { ...env, BIZDATA_COORDINATOR: 'http://127.0.0.1:6379' })).code, 2);
    assert.equal((await sb.stats()).requests, 2);
  });

  it('a batch reports the limits it learned, and `bizdata token` shows them afterwards', async () => {
    sb = await sandbox({ qps: 20, concurrency: 3 });
    const env = canaryEnvFor(sb.url);
    const input = join(dir, 'ips.txt');
    await writeFile(input, Array.from({ length: 80 }, (_, i) => `198.51.100.${i + 1}`).join('\n'));
    const r = await run(['batch', input, '--out', join(dir, 'out.jsonl')], env, 40_000);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { ok: number; learnedQps: number; learnedConcurrency: number };
    assert.equal(summary.ok, 80);
    assert.ok(summary.learnedQps > 0 && summary.learnedQps <= 20, JSON.stringify(summary));
    assert.ok(summary.learnedConcurrency >= 1 && summary.learnedConcurrency <= 3, JSON.stringify(summary));
    const token = await run(['token'], env);
    assert.equal(token.code, 0, token.stderr);
    const learned = (JSON.parse(token.stdout) as { learned: { qps: number; concurrency: number; exact: boolean } }).learned;
    assert.deepEqual({ qps: learned.qps, concurrency: learned.concurrency, exact: learned.exact }, { qps: summary.learnedQps, concurrency: summary.learnedConcurrency, exact: true });
  });
});
