// The extension and a `bizdata batch` process (the built dist/cli.js, --coordinator) sharing a real
// redis-server with a password: one token for both, and one budget. Each is capped below the
// customer's limits but above half of them, so only a budget they really share keeps the two
// together within them; the sandbox in this host counts what arrived.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { busiestSecond } from '../../bench/processes';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { startRedis, type RedisServer } from '../unit/redisServer';
import { canaries, EXTENSION_PATH, pointAt, stats, tearDown } from './helpers';

const CUSTOMER = { qps: 12, concurrency: 3 } as const;
/** Each process's caps: together, unshared, they would go over both of the customer's limits. */
const CAPS = { qps: 8, concurrency: 2 } as const;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe('a real Redis shared by the extension and a command-line batch', function () {
  this.timeout(120_000);
  const c = canaries();
  const password = `canary-redis-${c.key.slice(-12)}`;
  let redis: RedisServer;
  let sb: RunningSandbox;
  let dir: string;
  /** Arrival times (epoch ms) of the data calls the sandbox answered. */
  const arrivals: number[] = [];
  const win = vscode.window as unknown as { showInputBox: (o?: vscode.InputBoxOptions) => Thenable<string | undefined> };
  const originalInput = win.showInputBox;

  /** "Set Coordinator Password", answered as a user would type it. */
  async function setCoordinatorPassword(value: string): Promise<void> {
    win.showInputBox = () => Promise.resolve(value);
    try {
      assert.equal(await vscode.commands.executeCommand('bizdata.setCoordinatorPassword'), true);
    } finally {
      win.showInputBox = originalInput;
    }
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-coordinated-'));
    redis = await startRedis();
    redis.cli('CONFIG', 'SET', 'requirepass', password);
    sb = await startSandbox({
      port: 0,
      config: { customers: [{ id: 'test', ...CUSTOMER, responseDelayMs: 150, clients: [{ consumerKey: c.key, consumerSecret: c.secret }], users: [{ user: c.user, password: c.password }] }] },
      // "<iso> GET <path> <status> <code> <ms>ms", written when the answer is sent.
      log: (line) => {
        const m = /^(\S+Z) GET \/v1\/duns-search\S* \d+ \S+ ([\d.]+)ms/.exec(line);
        if (m) arrivals.push(Date.parse(m[1]) - Number(m[2]));
      },
    });
    await setCoordinatorPassword(password);
    const settings = vscode.workspace.getConfiguration('bizdata');
    await settings.update('coordination.redisUrl', redis.url, vscode.ConfigurationTarget.Global);
    await settings.update('limits.qps', CAPS.qps, vscode.ConfigurationTarget.Global);
    await settings.update('limits.concurrency', CAPS.concurrency, vscode.ConfigurationTarget.Global);
    await pointAt(sb.url);
  });

  after(async () => {
    const settings = vscode.workspace.getConfiguration('bizdata');
    for (const k of ['coordination.redisUrl', 'limits.qps', 'limits.concurrency']) await settings.update(k, undefined, vscode.ConfigurationTarget.Global);
    await setCoordinatorPassword('');
    await tearDown(sb);
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** `bizdata ARGS` through the same Redis, with a state directory of its own and the same account. */
  function cli(args: string[]): Promise<Run> {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BIZDATA_')) env[k] = v;
    Object.assign(env, {
      ELECTRON_RUN_AS_NODE: '1',
      BIZDATA_STATE_DIR: join(dir, 'cli-state'),
      BIZDATA_AUTH_URL: sb.url,
      BIZDATA_BASE_URL: sb.url,
      BIZDATA_ORIGIN: 'https://localhost',
      BIZDATA_CONSUMER_KEY: c.key,
      BIZDATA_CONSUMER_SECRET: c.secret,
      BIZDATA_COORDINATOR: redis.url,
      BIZDATA_COORDINATOR_PASSWORD: password,
    });
    return new Promise((done) =>
      execFile(process.execPath, [join(EXTENSION_PATH, 'dist', 'cli.js'), ...args], { env, timeout: 90_000 }, (err, stdout, stderr) =>
        done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );
  }

  it('one token for both, and together they stay within the customer QPS and concurrency', async () => {
    assert.equal(await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret }), 'valid');
    const extensionInput = join(process.env.BIZDATA_TEST_WORKSPACE ?? dir, 'coordinated-ips.txt');
    const cliInput = join(dir, 'cli-ips.txt');
    await writeFile(extensionInput, Array.from({ length: 24 }, (_, i) => `198.51.100.${i + 1}`).join('\n'));
    await writeFile(cliInput, Array.from({ length: 24 }, (_, i) => `192.0.2.${i + 1}`).join('\n'));
    try {
      const [extensionOut, run] = await Promise.all([
        vscode.commands.executeCommand<string>('bizdata.runBatchLookup', { file: extensionInput }),
        cli(['batch', cliInput, '--out', join(dir, 'cli-out.jsonl'), '--qps', String(CAPS.qps), '--concurrency', String(CAPS.concurrency)]),
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal((JSON.parse(run.stdout) as { ok: number }).ok, 24);
      assert.equal(extensionOut, vscode.Uri.file(`${extensionInput}.results.jsonl`).toString());
      const lines = (await readFile(`${extensionInput}.results.jsonl`, 'utf8')).trim().split('\n');
      assert.equal(lines.filter((l) => (JSON.parse(l) as { ok: boolean }).ok).length, 24);
      for (const secret of [c.key, c.secret, password]) assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), 'a secret in the output of bizdata');
    } finally {
      await rm(extensionInput, { force: true });
      await rm(`${extensionInput}.results.jsonl`, { force: true });
    }
    const customer = (await stats(sb)).customers.test as { tokenRequests: number; dataCalls?: number; maxConcurrency?: number; resultCodes: Record<string, number> };
    assert.equal(customer.tokenRequests, 1, 'the command line used the token the extension had put in Redis');
    assert.equal(customer.resultCodes.SC006, undefined, `the service refused calls for its limits: ${JSON.stringify(customer.resultCodes)}`);
    assert.ok((customer.maxConcurrency ?? 0) <= CAPS.concurrency, `${customer.maxConcurrency} calls in flight at once`);
    assert.equal(customer.dataCalls, 48);
    assert.equal(arrivals.length, 48);
    assert.ok(busiestSecond(arrivals) <= CUSTOMER.qps, `${busiestSecond(arrivals)} calls arrived within one second`);
    // What the two share in Redis names no account and holds no credential.
    const dump = redis.cli('-a', password, '--no-auth-warning', '--scan').trim().split('\n');
    assert.ok(dump.length > 0 && dump.every((k) => k.startsWith('bizdata:') && !k.includes(c.key)), dump.join(' '));
  });
});
