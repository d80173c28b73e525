// What the command line keeps at rest, with real `bizdata` processes and real sandboxes: a guard file
// that cannot be read stops sign-in instead of counting as zero, a state folder that cannot be written
// is named as such, one open to other users is named and keeps no token, and a kept token is sealed.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertNoCanary, CANARY, sandbox, type Sandbox } from '../core/harness';
import { startRedis } from '../redisServer';
import { canaryEnv, runCli, type Run } from './cliHarness';
import { otherUser, type OtherUser } from './otherUser';

const ORG = ['org', '--country', 'US', '--name', 'Example Corp'];
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Root reads and writes whatever the modes say: the runs that must meet a refusal go as `nobody`. */
const ROOT = process.getuid?.() === 0;

interface Form {
  readonly name: string;
  readonly damage: (file: string) => Promise<void>;
  /** The runs go as another user (root is not stopped by a file mode). */
  readonly asOther?: boolean;
}

const FORMS: readonly Form[] = [
  { name: 'truncated', damage: async (f) => writeFile(f, (await readFile(f, 'utf8')).slice(0, 20)) },
  { name: 'random bytes', damage: (f) => writeFile(f, Buffer.concat([Buffer.of(0xff), randomBytes(63)])) },
  { name: 'NUL bytes', damage: (f) => writeFile(f, Buffer.alloc(64)) },
  { name: 'empty', damage: (f) => writeFile(f, '') },
  { name: '[1,2]', damage: (f) => writeFile(f, '[1,2]') },
  {
    name: 'a folder in its place',
    damage: async (f) => {
      await rm(f);
      await mkdir(f);
    },
  },
  { name: 'mode 000 (unreadable)', damage: (f) => chmod(f, 0), asOther: ROOT },
];

describe('bizdata: state at rest', function () {
  this.timeout(60_000);
  let dir: string;
  const outputs: string[] = [];
  const open: Sandbox[] = [];
  const other = otherUser();

  /** The other user with a copy of the bundle it can read; or the test is skipped, its reason in its title. */
  const nobody = async (test: Mocha.Context): Promise<OtherUser> => {
    const u = await other.get();
    if ('skip' in u) {
      if (test.test) test.test.title += ` (skipped: ${u.skip})`;
      test.skip();
    }
    return u;
  };

  const start = async (): Promise<Sandbox> => {
    const sb = await sandbox();
    open.push(sb);
    return sb;
  };
  const user = async (sb: Sandbox): Promise<{ locked: boolean; failures: number }> => (await sb.admin('GET', `users/${CANARY.user}`)) as { locked: boolean; failures: number };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-rest-'));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((sb) => sb.close()));
    await rm(dir, { recursive: true, force: true });
  });
  after(() => assertNoCanary(outputs));

  for (const form of FORMS) {
    it(`a guard.json that is ${form.name}: the third sign-in is not sent, the file is kept aside, no other account's count is lost; --confirm-risk lets it through`, async function () {
      const as = form.asOther ? await nobody(this) : undefined;
      if (as) await chown(dir, as.uid, as.gid);
      const run = (args: string[], env: Record<string, string>): Promise<Run> => runCli(args, env, dir, outputs, 20_000, as);
      // Two accounts: the same user at two services (the account key names the service's host and port).
      const [s1, s2] = [await start(), await start()];
      const wrong = (sb: Sandbox): Record<string, string> => ({ ...canaryEnv(sb.url), BIZDATA_PASSWORD: 'wrong-password' });
      const twoFailures = async (sb: Sandbox): Promise<void> => {
        for (let i = 0; i < 2; i++) assert.equal((await run(ORG, wrong(sb))).code, 3);
      };
      await Promise.all([twoFailures(s1), twoFailures(s2)]);
      for (const sb of [s1, s2]) assert.deepEqual(await user(sb), { user: CANARY.user, locked: false, failures: 2 });

      const guard = join(dir, 'guard.json');
      await form.damage(guard);
      const damaged = form.name === 'a folder in its place' ? undefined : await readFile(guard).catch(() => undefined);

      const third = await run(ORG, wrong(s1));
      assert.equal(third.code, 3, third.stderr);
      assert.match(third.stderr, /refused by the lockout guard/);
      assert.match(third.stderr, new RegExp(`record of failed sign-ins ${escape(guard)} could not be read \\(.+\\); it was kept aside as ${escape(guard)}\\.corrupt-`));
      assert.match(third.stderr, /--confirm-risk/);
      assert.equal((await s1.customer()).tokenRequests, 2, 'the third sign-in reached the service');
      assert.deepEqual(await user(s1), { user: CANARY.user, locked: false, failures: 2 });

      const kept = (await readdir(dir)).filter((f) => f.startsWith('guard.json.corrupt-'));
      assert.equal(kept.length, 1, (await readdir(dir)).join(' '));
      if (damaged !== undefined) assert.deepEqual(await readFile(join(dir, kept[0])), damaged, 'the damaged file is kept as it was');

      // The other account is held too, even with the right password: its count was in the damaged file.
      const other = await run(ORG, canaryEnv(s2.url));
      assert.equal(other.code, 3, other.stderr);
      assert.equal((await s2.customer()).tokenRequests, 2);

      // The user confirms the risk for the first account: sent once, it signs in, and that clears it alone.
      const confirmed = await run([...ORG, '--confirm-risk'], canaryEnv(s1.url));
      assert.equal(confirmed.code, 0, confirmed.stderr);
      assert.equal((await s1.customer()).tokenRequests, 3);
      assert.equal((await run(ORG, canaryEnv(s1.url))).code, 0, 'signed in since: no longer held');
      const stillHeld = await run(ORG, wrong(s2));
      assert.equal(stillHeld.code, 3, 'the first account\'s sign-in rewrote the file and lost the second one\'s count');
      assert.equal((await s2.customer()).tokenRequests, 2);
      assert.deepEqual(await user(s2), { user: CANARY.user, locked: false, failures: 2 });
      assert.equal((await run([...ORG, '--confirm-risk'], canaryEnv(s2.url))).code, 0);
    });
  }

  it('names a state folder it cannot write, as such and not as a network failure, and sends nothing', async function () {
    if (process.platform === 'win32') this.skip();
    const as = ROOT ? await nobody(this) : undefined;
    const sb = await start();
    // Root writes anywhere: it runs as another user, who may pass through the test's folder but not write in it.
    if (as) await chmod(dir, 0o755);
    const folder = join(dir, 'state');
    await mkdir(folder, { mode: 0o755 });
    if (!ROOT) await chmod(folder, 0o555);
    const r = await runCli(ORG, canaryEnv(sb.url), folder, outputs, 20_000, as);
    if (!ROOT) await chmod(folder, 0o755);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`The state folder ${escape(folder)} cannot be written \\((EACCES|EPERM)\\)`));
    assert.match(r.stderr, /BIZDATA_STATE_DIR/);
    assert.doesNotMatch(r.stderr, /network/);
    assert.equal((await sb.stats()).requests, 0);
  });

  it('names a state folder open to other users in a warning, and keeps no token there', async function () {
    if (process.platform === 'win32') this.skip();
    const sb = await start();
    await chmod(dir, 0o777);
    for (const ip of ['203.0.113.1', '203.0.113.2']) {
      const r = await runCli(['ip', ip, '--keep-token'], canaryEnv(sb.url), dir, outputs);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`warning: Other users can change the state folder ${escape(dir)} \\(mode 0777\\).*The token is not kept there.*chmod 700`));
    }
    assert.ok(!(await readdir(dir)).includes('tokens.json'), 'a token was kept in a folder others can read');
    assert.equal((await sb.customer()).tokenRequests, 2);
    // Without --keep-token the warning still names it: others could reset the guard's counts.
    assert.match((await runCli(['ip', '203.0.113.3'], canaryEnv(sb.url), dir, outputs)).stderr, /Other users can change the state folder/);
    // Readable by others only: kept tokens refused, nothing to say otherwise.
    await chmod(dir, 0o755);
    const readable = await runCli(['ip', '203.0.113.4', '--keep-token'], canaryEnv(sb.url), dir, outputs);
    assert.match(readable.stderr, /Other users can read the state folder .*The token is not kept there/);
    assert.doesNotMatch((await runCli(['ip', '203.0.113.5'], canaryEnv(sb.url), dir, outputs)).stderr, /warning/);
    assert.ok(!(await readdir(dir)).includes('tokens.json'));
  });

  it('keeps a token sealed: neither the kept-token file nor Redis holds it, and the next run still uses it', async () => {
    const sb = await start();
    const reveal = async (env: Record<string, string>, args: string[] = []): Promise<string> => {
      const r = await runCli(['token', '--reveal', ...args], env, dir, outputs);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { token: string }).token;
    };
    const kept = await reveal(canaryEnv(sb.url), ['--keep-token']);
    const file = await readFile(join(dir, 'tokens.json'), 'utf8');
    assert.ok(!file.includes(kept) && !file.includes(kept.slice(4, 30)), 'the kept token is in the file in clear');
    assertNoCanary([file]);
    assert.equal((await runCli(['ip', '203.0.113.7', '--keep-token'], canaryEnv(sb.url), dir, outputs)).code, 0);
    assert.equal((await sb.customer()).tokenRequests, 1, 'the sealed token was not used again');

    const redis = await startRedis();
    try {
      const env = { ...canaryEnv(sb.url), BIZDATA_COORDINATOR: redis.url };
      const shared = await reveal(env);
      const values = redis
        .cli('--scan')
        .split('\n')
        .filter((k) => k.includes(':token:'))
        .map((k) => redis.cli('GET', k));
      assert.equal(values.length, 1);
      assert.ok(!values[0].includes(shared) && !values[0].includes(shared.slice(4, 30)), 'the token is in Redis in clear');
      assertNoCanary(values);
      assert.equal((await runCli(['ip', '203.0.113.8'], env, join(dir, 'other'), outputs)).code, 0);
      assert.equal((await sb.customer()).tokenRequests, 2, 'another process did not use the sealed token');
      outputs.push(...values);
    } finally {
      await redis.stop();
    }
  });
});
