// The state directory's stores with several real processes at once: counts add up under the file
// lock, kept tokens are readable by the user alone, nothing names an account.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { defaultStateDir } from '../../../src/core/storage/stateDir';
import { FileGuardStore, FileLocks, fileTokenStore } from '../../../src/core/storage/fileStores';
import { normaliseHost } from '../../../src/core/accounts/session';
import { assertNoCanary, CANARY } from './harness';
import { tempDirs } from '../tempDirs';

const STORES = resolve(__dirname, '../../../src/core/storage/fileStores.js');
const ACCOUNT = `b|loopback:8080|${CANARY.user}`;

/** Another process: `n` attempts begun and settled as failures on the same account. */
function worker(dir: string, n: number): Promise<void> {
  const script = `const { FileGuardStore } = require(${JSON.stringify(STORES)});
const g = new FileGuardStore(${JSON.stringify(dir)});
(async () => { for (let i = 0; i < ${n}; i++) { await g.begin(${JSON.stringify(ACCOUNT)}); await g.end(${JSON.stringify(ACCOUNT)}, i % 2 ? 'failed' : 'uncounted'); } })().catch((e) => { console.error(e); process.exit(1); });`;
  return new Promise((ok, fail) => execFile(process.execPath, ['-e', script], (err, _o, stderr) => (err ? fail(new Error(stderr)) : ok())));
}

describe('state directory stores', () => {
  const temp = tempDirs();
  let dir: string;
  beforeEach(async () => {
    dir = await temp.make('bizdata-state-');
  });

  it('is the same default path for every host, and BIZDATA_STATE_DIR wins', () => {
    assert.equal(defaultStateDir({ BIZDATA_STATE_DIR: '/x/y' }), '/x/y');
    assert.equal(defaultStateDir({ XDG_STATE_HOME: '/s' }, 'linux'), join('/s', 'bizdata'));
    assert.equal(defaultStateDir({ LOCALAPPDATA: 'C:\\L' }, 'win32'), join('C:\\L', 'bizdata', 'state'));
  });

  it('keeps the guard key one account whatever the spelling of its host', () => {
    for (const u of ['http://localhost:8080', 'http://127.0.0.1:8080/', 'http://[::1]:8080', 'http://LOCALHOST:8080']) assert.equal(normaliseHost(u), 'loopback:8080', u);
    assert.equal(normaliseHost('https://API.Example.com:443'), 'api.example.com');
  });

  it('adds up the attempts of four processes at once: every begin and end under the file lock', async () => {
    // Each worker settles 10 attempts: 5 failed (kept), 5 uncounted (given back).
    await Promise.all([worker(dir, 10), worker(dir, 10), worker(dir, 10), worker(dir, 10)]);
    const g = new FileGuardStore(dir);
    assert.equal(await g.read(ACCOUNT), 20);
    await g.end(ACCOUNT, 'accepted');
    assert.equal(await g.read(ACCOUNT), 0);
    await g.merge({ deadbeef: 2 });
    await g.merge({ deadbeef: 1 });
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'guard.json'), 'utf8')), { deadbeef: 2 }, 'a migration keeps the larger count');
    assert.deepEqual(await readdir(join(dir, 'locks')), [], 'every lock released');
  });

  it('lets one sign-in per account hold the lock while the others wait', async () => {
    const locks = new FileLocks(dir);
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        locks.withLock(ACCOUNT, async () => {
          order.push(`${name}+`);
          await new Promise((r) => setTimeout(r, 30));
          order.push(`${name}-`);
        }),
      ),
    );
    for (let i = 0; i < order.length; i += 2) assert.equal(order[i][0], order[i + 1][0], `interleaved: ${order.join(' ')}`);
    const ac = new AbortController();
    // The second sign-in starts once the first holds the lock: it waits, and its cancellation ends the wait.
    let taken!: () => void;
    const holding = new Promise<void>((r) => (taken = r));
    const held = locks.withLock(ACCOUNT, () => {
      taken();
      return new Promise((r) => setTimeout(r, 300));
    });
    await holding;
    const waiting = locks.withLock(ACCOUNT, async () => 'ran', ac.signal);
    setTimeout(() => ac.abort(), 50);
    await assert.rejects(waiting, /cancelled/);
    await held;
  });

  it('keeps tokens only for the user (0600 in a 0700 folder), hashed, dropping expired ones, and deletes only the refused one', async () => {
    let now = 1_000;
    const store = fileTokenStore(dir, () => now);
    const owner = { key: ACCOUNT, secret: CANARY.password };
    await store.set(owner, { value: 'tok-1', issuedAt: 1_000, expiresAt: 5_000 });
    assert.equal((await stat(join(dir, 'tokens.json'))).mode & 0o777, 0o600);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    assertNoCanary([await readFile(join(dir, 'tokens.json'), 'utf8')]);
    assert.equal((await store.get(owner))?.value, 'tok-1');
    await store.delete(owner, 'tok-0');
    assert.equal((await store.get(owner))?.value, 'tok-1', 'another token than the refused one stays');
    now = 6_000;
    assert.equal(await store.get(owner), undefined, 'expired');
    await store.set({ key: 'a|other|k', secret: CANARY.consumerSecret }, { value: 'tok-2', issuedAt: 6_000, expiresAt: 9_000 });
    assert.equal(Object.keys(JSON.parse(await readFile(join(dir, 'tokens.json'), 'utf8')) as object).length, 1, 'expired tokens dropped on write');
  });
});
