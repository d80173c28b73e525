import * as assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxSetupError } from '../../../src/sandbox/config';
import { MAX_CLOCK_OFFSET_SECONDS } from '../../../src/sandbox/stateFile';
import { TestBed, admin, assertFailedAuth, authB, orgLookup, roomyConfig, tokenB } from './helpers';

const ADMIN_KEY = 'journal-test-admin-key';
const config = roomyConfig({ contractLimit: 100_000 }, { adminKey: ADMIN_KEY });

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
}

describe('sandbox: durable state (journal.ts, stateFile.ts)', function () {
  this.timeout(120_000);
  const bed = new TestBed();
  afterEach(() => bed.cleanup());

  it('kill -9 right after the third wrong password: the account is still locked after a restart, round after round', async () => {
    const dir = await bed.tempDir();
    const configFile = join(dir, 'config.json');
    await writeFile(configFile, JSON.stringify(config));
    const args = ['--port', '0', '--config', configFile, '--state', join(dir, 'state.json')];
    for (let round = 0; round < 5; round++) {
      const run = bed.cli(args);
      const sb = { url: await run.url, adminKey: ADMIN_KEY };
      assert.equal((await admin(sb, 'POST', 'users/sandbox-user/unlock')).status, 200);
      for (let i = 1; i <= 2; i++) assertFailedAuth(await authB(sb, 'sandbox-user', `wrong-${i}`));
      const third = await authB(sb, 'sandbox-user', 'wrong-3');
      run.child.kill('SIGKILL');
      assertFailedAuth(third);
      await run.exit;

      const again = bed.cli(args);
      const after = { url: await again.url, adminKey: ADMIN_KEY };
      assert.deepEqual((await admin(after, 'GET', 'users/sandbox-user')).json, { user: 'sandbox-user', locked: true, failures: 3 }, `round ${round}`);
      const right = await authB(after);
      assertFailedAuth(right);
      assert.match(right.json.TransactionResult.ResultMessage.ResultDescription, /locked/);
      again.child.kill('SIGKILL');
      await again.exit;
    }
  });

  it('kill -9 right after a data call answers: every acknowledged call is still counted after a restart', async () => {
    const dir = await bed.tempDir();
    const configFile = join(dir, 'config.json');
    await writeFile(configFile, JSON.stringify(config));
    const args = ['--port', '0', '--config', configFile, '--state', join(dir, 'state.json')];
    let acknowledged = 0;
    for (let round = 0; round < 4; round++) {
      const run = bed.cli(args);
      const sb = { url: await run.url, adminKey: ADMIN_KEY };
      assert.equal((await admin(sb, 'GET', 'stats')).json.customers.sandbox.contractUsed, acknowledged, `round ${round}`);
      const token = await tokenB(sb);
      const answers = await Promise.all(Array.from({ length: 5 + round }, () => orgLookup(sb, token)));
      const last = await orgLookup(sb, token);
      run.child.kill('SIGKILL');
      acknowledged += [...answers, last].filter((r) => r.status === 200).length;
      await run.exit;
    }
    const run = bed.cli(args);
    const stats = (await admin({ url: await run.url, adminKey: ADMIN_KEY }, 'GET', 'stats')).json.customers.sandbox;
    assert.equal(stats.contractUsed, acknowledged);
    assert.equal(stats.resultCodes.CM000, acknowledged + 4, 'the four token answers count too');
  });

  it('one fsync serves every change pending at that moment (group commit)', async () => {
    const statePath = join(await bed.tempDir(), 'state.json');
    const sb = await bed.start({ config, statePath });
    assert.equal((await lines(statePath)).length, 1, 'compacted to one snapshot line at start');
    const token = await tokenB(sb);
    const before = (await lines(statePath)).length;
    const answers = await Promise.all(Array.from({ length: 60 }, () => orgLookup(sb, token)));
    assert.ok(answers.every((r) => r.status === 200));
    const writes = (await lines(statePath)).filter((l) => l.includes('"k":"stats"')).length - (before - 1);
    assert.ok(writes >= 1 && writes < 60, `${writes} journal writes for 60 calls`);
    await sb.close();
    const after = await lines(statePath);
    assert.equal(after.length, 1, 'compacted to one snapshot line on a clean stop');
    assert.equal(JSON.parse(after[0]!).customers.sandbox.contractUsed, 60);
  });

  it('ignores a last line cut short by a crash, and says so', async () => {
    const statePath = join(await bed.tempDir(), 'state.json');
    const first = await bed.start({ config, statePath });
    for (let i = 0; i < 2; i++) await authB(first, 'sandbox-user', 'wrong');
    await first.close();
    const [snapshot] = await lines(statePath);
    const user = { k: 'user', name: 'sandbox-user', state: { failures: 3, locked: true } };
    await writeFile(statePath, `${snapshot}\n${JSON.stringify(user).slice(0, 30)}`);
    const log: string[] = [];
    const sb = await bed.start({ config, statePath, log: (l) => log.push(l) });
    assert.deepEqual((await admin(sb, 'GET', 'users/sandbox-user')).json, { user: 'sandbox-user', locked: false, failures: 2 });
    assert.ok(log.some((l) => /cut short/.test(l)));
  });

  it('applies every complete journal line, and refuses a damaged line in the middle naming it', async () => {
    const statePath = join(await bed.tempDir(), 'state.json');
    const first = await bed.start({ config, statePath });
    await first.close();
    const [snapshot] = await lines(statePath);
    const locked = JSON.stringify({ k: 'user', name: 'sandbox-user', state: { failures: 3, locked: true } });
    await writeFile(statePath, `${snapshot}\n${locked}\n`);
    const sb = await bed.start({ config, statePath });
    assert.equal((await admin(sb, 'GET', 'users/sandbox-user')).json.locked, true);
    await sb.close();
    await writeFile(statePath, `${snapshot}\n{"k":"user",\n${locked}\n`);
    await assert.rejects(bed.start({ config, statePath }), (err: Error) => err instanceof SandboxSetupError && err.message.includes(statePath) && /line 2 is damaged/.test(err.message));
  });

  it('reads a version 1 state file and rewrites it in the current form', async () => {
    const statePath = join(await bed.tempDir(), 'state.json');
    const v1 = {
      format: 'bizdata-sandbox-state', version: 1, savedAt: '2025-01-01T00:00:00Z', clockOffsetMs: 7_200_000, requests: 9,
      customers: { sandbox: { tokenRequests: 3, authSuccesses: 0, authFailures: 3, dataCalls: 0, resultCodes: { SC001: 3 }, maxConcurrency: 0, contractUsed: 4 } },
      users: { 'sandbox-user': { failures: 3, locked: true } }, tokens: {},
    };
    await writeFile(statePath, JSON.stringify(v1, null, 2));
    const sb = await bed.start({ config, statePath });
    assert.equal((await admin(sb, 'GET', 'users/sandbox-user')).json.locked, true);
    assert.equal((await admin(sb, 'GET', 'clock')).json.offsetSeconds, 7200);
    assert.equal((await admin(sb, 'GET', 'stats')).json.customers.sandbox.contractUsed, 4);
    assert.equal(JSON.parse((await lines(statePath))[0]!).version, 2);
  });

  for (const [where, offsetMs] of [['a snapshot', 1e300], ['a journal line', MAX_CLOCK_OFFSET_SECONDS * 1000 + 1], ['a snapshot', -5]] as const) {
    it(`refuses to start from ${where} whose clock offset is ${offsetMs} ms, with a clear message`, async () => {
      const statePath = join(await bed.tempDir(), 'state.json');
      const first = await bed.start({ config, statePath });
      await first.close();
      const [snapshot] = await lines(statePath);
      const text = where === 'a snapshot'
        ? `${JSON.stringify({ ...JSON.parse(snapshot!), clockOffsetMs: offsetMs })}\n`
        : `${snapshot}\n${JSON.stringify({ k: 'clock', offsetMs })}\n`;
      await writeFile(statePath, text);
      await assert.rejects(bed.start({ config, statePath }), (err: Error) =>
        err instanceof SandboxSetupError && err.message.includes(statePath) && /clock .* at most 3153600000 seconds \(100 years\)/.test(err.message));
    });
  }

  it('refuses a state file in a folder that does not exist, or under a file, naming the folder', async () => {
    const dir = await bed.tempDir();
    const missing = join(dir, 'no-such-folder', 'state.json');
    await assert.rejects(bed.start({ config, statePath: missing }), (err: Error) =>
      err instanceof SandboxSetupError && err.message.includes(join(dir, 'no-such-folder')) && /does not exist/.test(err.message));
    await writeFile(join(dir, 'plain-file'), 'x');
    await assert.rejects(bed.start({ config, statePath: join(dir, 'plain-file', 'state.json') }), /is not a folder/);
    await mkdir(join(dir, 'a-folder'));
    await assert.rejects(bed.start({ config, statePath: join(dir, 'a-folder') }), /it is a folder/);
  });
});
