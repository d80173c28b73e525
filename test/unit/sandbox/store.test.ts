import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxConfig } from '../../../src/sandbox/config';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/server';
import { admin, authB, basic, call, ipLookup, orgLookup, tokenA, tokenB } from './helpers';

// Canaries: if any of these strings shows up in a log or the state file, a secret leaked.
const CANARY = {
  password: 'CANARY-pw-7f3a9e',
  lockedPassword: 'CANARY-locked-44c1',
  secret: 'CANARY-secret-91bd02',
  wrong: 'CANARY-wrong-0d1e',
  changed: 'CANARY-new-55aa7',
  adminKey: 'CANARY-admin-6b2f',
};

const config: SandboxConfig = {
  customers: [{
    id: 'acme-test',
    qps: 1000,
    concurrency: 50,
    contractLimit: 100,
    clients: [{ consumerKey: 'canary-key', consumerSecret: CANARY.secret }],
    users: [
      { user: 'canary-user', password: CANARY.password },
      { user: 'soon-locked', password: CANARY.lockedPassword },
    ],
  }],
};

describe('sandbox: store (store.ts, persistedState.ts): persistence and secrecy', () => {
  let dir: string;
  let statePath: string;
  const logs: string[] = [];
  const running: RunningSandbox[] = [];
  const start = async (): Promise<RunningSandbox> => {
    const sb = await startSandbox({ config, statePath, adminKey: CANARY.adminKey, log: (l) => logs.push(l) });
    running.push(sb);
    return sb;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-sandbox-'));
    statePath = join(dir, 'state.json');
  });
  after(async () => {
    await Promise.all(running.map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps tokens, lockouts, usage, password changes and the clock across a restart, and no secret on disk or in logs', async () => {
    const first = await start();
    const a = await tokenA(first, 'canary-key', CANARY.secret);
    const b = await tokenB(first, 'canary-user', CANARY.password);
    assert.equal((await ipLookup(first, a)).status, 200);
    assert.equal((await orgLookup(first, b)).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await authB(first, 'soon-locked', CANARY.wrong)).status, 401);
    assert.equal((await tokenRequestWrong(first)).status, 401);
    await admin(first, 'POST', 'clock', { advanceSeconds: 3600 });
    await admin(first, 'POST', 'users/canary-user/password', { password: CANARY.changed });
    const journal = await readFile(statePath, 'utf8');
    assert.ok(journal.split('\n').length > 3, 'changes are journaled while the sandbox runs');
    for (const secret of [...Object.values(CANARY), a, b]) assert.ok(!journal.includes(secret), `the journal leaks ${secret.slice(0, 12)}`);
    await first.close();

    const state = await readFile(statePath, 'utf8');
    const parsed = JSON.parse(state) as { users: Record<string, { passwordHash?: string }>; tokens: Record<string, unknown> };
    assert.match(parsed.users['canary-user']?.passwordHash ?? '', /^scrypt\$/);
    assert.equal(Object.keys(parsed.tokens).length, 2);
    for (const secret of [...Object.values(CANARY), a, b]) assert.ok(!state.includes(secret), `state file leaks ${secret.slice(0, 12)}`);
    assert.deepEqual((await readdir(dir)).sort(), ['state.json'], 'no temporary file is left behind');

    const second = await start();
    assert.equal((await ipLookup(second, a)).status, 200, 'A token still valid');
    assert.equal((await orgLookup(second, b)).status, 200, 'B token still valid');
    const locked = await authB(second, 'soon-locked', CANARY.lockedPassword);
    assert.equal(locked.status, 401, 'lockout survives');
    assert.equal(locked.json.TransactionResult.ResultID, 'SC001');
    assert.equal((await authB(second, 'canary-user', CANARY.password)).status, 401, 'old password refused');
    assert.equal((await authB(second, 'canary-user', CANARY.changed)).status, 200, 'changed password survives');
    assert.equal((await admin(second, 'GET', 'clock')).json.offsetSeconds, 3600);
    const stats = (await admin(second, 'GET', 'stats')).json.customers['acme-test'];
    assert.equal(stats.contractUsed, 4);
    assert.equal(stats.authFailures, 6, "3 wrong + 1 wrong secret, then locked + old password after the restart");
    await admin(second, 'POST', 'clock', { advanceSeconds: 86400 });
    assert.equal((await ipLookup(second, a)).json.error.errorCode, '00040', 'expiry still runs on the restored clock');
    await second.close();

    const logText = logs.join('\n');
    assert.ok(logs.length >= 15);
    assert.match(logText, /POST \/v1\/token 200 CM000 /);
    assert.match(logText, /GET \/V4\.0\/organizations 200 CM000 /);
    for (const secret of [...Object.values(CANARY), a, b, 'Basic ', 'Bearer ']) {
      assert.ok(!logText.includes(secret), `log leaks ${secret.slice(0, 12)}`);
    }
    assert.ok(!logText.includes('SubjectName'), 'no query string in logs');
  });

  it('refuses a state file that is not JSON, with its path', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{ not json');
    await assert.rejects(startSandbox({ config, statePath: bad }), (err: Error) => err.message.includes(bad) && /not valid JSON/.test(err.message));
    await writeFile(bad, '{"format":"something-else"}');
    await assert.rejects(startSandbox({ config, statePath: bad }), /not a sandbox state file of version 1 or 2/);
  });

  it('creates the state file at start when it does not exist', async () => {
    const fresh = join(dir, 'fresh.json');
    const sb = await startSandbox({ config, statePath: fresh });
    await sb.close();
    assert.equal(JSON.parse(await readFile(fresh, 'utf8')).format, 'bizdata-sandbox-state');
  });
});

function tokenRequestWrong(sb: RunningSandbox): ReturnType<typeof call> {
  return call(sb, 'POST', '/v1/token', {
    headers: { authorization: basic('canary-key', CANARY.wrong), origin: 'https://x.example' },
    body: { grant_type: 'client_credentials' },
  });
}
