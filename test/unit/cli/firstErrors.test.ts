// The first errors a new user meets, each in our words and in a few lines, with the exit status the
// guides promise: a mistyped option or command (the closest one and where the help is), a file that
// is not there (no raw ENOENT), an address without its scheme, nothing listening at an address (one
// stop, not a failure per request), and a lockout guard that holds a sandbox account (how to clear it).
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_CREDENTIALS } from '../../../src/sandbox/defaults';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { cliRuns } from './cliHarness';
import { freePort } from '../ports';

/** Lines of a command's output that are not blank. */
const linesOf = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');


const REQUESTS = [
  'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7',
  '',
  '?? status == 200',
  '?? body $.inquiryDetail.ipAddress == 198.51.100.7',
  '?? code !exists',
  '',
].join('\n');

describe('first errors: what is wrong and what to do, in a few lines', function () {
  this.timeout(60_000);
  let dir = '';
  const { run } = cliRuns('bizdata-first-errors-', (d) => {
    dir = d;
  });

  it('a mistyped option: the closest one and the command\'s --help, in two lines, exit 2 (never Node\'s parser text)', async () => {
    for (const [args, line] of [
      [['test', 'x.bizdata.http', '--sandbx', 'http://127.0.0.1:8080'], 'bizdata test: unknown option --sandbx. Did you mean --sandbox?'],
      [['ip', '203.0.113.7', '--sandbox=http://127.0.0.1:8080', '--veiw', 'standard'], 'bizdata ip: unknown option --veiw. Did you mean --view?'],
      [['batch', 'ips.txt', '-sandbox', 'http://127.0.0.1:8080'], 'bizdata batch: unknown option -sandbox. Did you mean --sandbox?'],
      [['send', 'x.bizdata.http', '--frobnicate'], 'bizdata send: unknown option --frobnicate.'],
      [['test', 'x.bizdata.http', '--sandbox'], 'bizdata test: --sandbox needs a value: --sandbox VALUE (a value that starts with "-" as --sandbox=VALUE).'],
      [['test', 'x.bizdata.http', '--json=yes'], 'bizdata test: --json takes no value.'],
    ] as const) {
      const r = await run([...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      const command = args[0];
      assert.deepEqual(linesOf(r.stderr), [line, `Run "bizdata ${command} --help" for its options.`]);
      assert.doesNotMatch(r.stderr, /positional|place it at the end|ERR_PARSE_ARGS/);
      assert.equal(r.stdout, '');
    }
  });

  it('a mistyped command: the closest one and where the commands are, not the whole help, exit 2', async () => {
    const typo = await run(['tset', 'examples']);
    assert.equal(typo.code, 2);
    assert.deepEqual(linesOf(typo.stderr), ['bizdata: unknown command "tset". Did you mean "test"?', 'Run "bizdata --help" for the commands.']);
    assert.equal(typo.stdout, '');
    const none = await run(['frobnicate']);
    assert.deepEqual([none.code, linesOf(none.stderr)], [2, ['bizdata: unknown command "frobnicate".', 'Run "bizdata --help" for the commands.']]);
    const option = await run(['--sandbox', 'http://127.0.0.1:8080', 'test']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /^bizdata: --sandbox is not an option of bizdata itself: a command comes first, its options after it/);
    assert.equal(linesOf(option.stderr).length, 2);
  });

  it('a file that is not there: named with where it was looked for, one line, exit 2, no ENOENT', async () => {
    const missing = join(dir, 'missing');
    for (const args of [
      ['test', `${missing}.bizdata.http`, '--sandbox', 'http://127.0.0.1:8080'],
      ['send', `${missing}.bizdata.http`, '--sandbox', 'http://127.0.0.1:8080'],
      ['batch', `${missing}.txt`, '--out', join(dir, 'out.jsonl'), '--sandbox', 'http://127.0.0.1:8080'],
      ['explain', '--answer', `${missing}.json`],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      const lines = linesOf(r.stderr);
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], /missing\.\w+(\.\w+)?:? .*there is no such file \(looked for \/.*missing\.\w+/);
      assert.doesNotMatch(r.stderr, /ENOENT/);
    }
    const config = await run(['sandbox', '--config', `${missing}.json`]);
    const noConfig = `Cannot read sandbox config ${missing}.json: there is no such file (looked for ${missing}.json).`;
    assert.deepEqual([config.code, linesOf(config.stderr)], [2, [noConfig]]);
    const fixtures = await run(['sandbox', '--fixtures', missing]);
    const noFolder = `bizdata sandbox: --fixtures ${missing}: there is no such folder (looked for ${missing}).`;
    assert.deepEqual([fixtures.code, linesOf(fixtures.stderr)], [2, [noFolder]]);
  });

  it('an address without its scheme: what to write instead, exit 2, nothing sent', async () => {
    await writeFile(join(dir, 'a.bizdata.http'), REQUESTS);
    for (const args of [
      ['ip', '203.0.113.7', '--sandbox', '127.0.0.1:8080'],
      ['test', join(dir, 'a.bizdata.http'), '--sandbox', 'localhost:8080'],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      const host = args[3];
      const why = '(plain http:// only for a local sandbox on 127.0.0.1, ::1 or localhost; https:// for a service)';
      assert.deepEqual(linesOf(r.stderr), [`bizdata ${args[0]}: --sandbox "${host}" has no scheme: write http://${host} ${why}.`]);
    }
    const addresses = { BIZDATA_AUTH_URL: 'auth.example.com', BIZDATA_BASE_URL: 'https://api.example.com', BIZDATA_ORIGIN: 'https://app.example.com' };
    const env = await run(['ip', '203.0.113.7'], addresses);
    assert.equal(env.code, 2);
    assert.match(env.stderr, /--auth-url \(BIZDATA_AUTH_URL\) "auth\.example\.com" has no scheme: write https:\/\/auth\.example\.com\./);
  });

  it('nothing listening at the address: the run stops at the first request, naming the address and how to start the sandbox', async () => {
    const port = await freePort();
    for (const name of ['a', 'b', 'c']) await writeFile(join(dir, `${name}.bizdata.http`), REQUESTS);
    const r = await run(['test', dir, '--sandbox', `http://127.0.0.1:${port}`]);
    assert.equal(r.code, 1, r.stderr);
    const all = [...linesOf(r.stdout), ...linesOf(r.stderr)];
    assert.ok(all.length <= 8, `at most a few lines, not some per request:\n${all.join('\n')}`);
    assert.equal(all.filter((l) => l.startsWith('ERROR ')).length, 1, 'one request met it; none other was sent');
    assert.doesNotMatch(r.stdout, /\(no answer\)/);
    const refused = `Could not complete the request to 127\\.0\\.0\\.1:${port}: the connection was refused \\(ECONNREFUSED\\): nothing is listening there\\.`;
    assert.match(r.stderr, new RegExp(refused));
    assert.match(r.stderr, new RegExp(`To start the sandbox there: bizdata sandbox --port ${port} &`));
    const lookup = await run(['ip', '203.0.113.7', '--sandbox', `http://127.0.0.1:${port}`]);
    assert.equal(lookup.code, 1);
    assert.ok(linesOf(lookup.stderr).length <= 5, lookup.stderr);
    assert.match(lookup.stderr, /What to do: Start the local sandbox at http:\/\/127\.0\.0\.1:\d+ \(or correct the address\), then run this again\./);
  });

  describe('the lockout guard on a sandbox account', () => {
    let sb: RunningSandbox;
    before(async () => {
      sb = await startSandbox({ port: 0 });
    });
    after(() => sb.close());

    it('says how to clear the count, and the way it says clears it', async () => {
      const user = DEMO_CREDENTIALS.b.user;
      const wrong = { BIZDATA_LEGACY_URL: sb.url, BIZDATA_USER: user, BIZDATA_PASSWORD: 'not-the-password' };
      for (let i = 0; i < 2; i++) assert.equal((await run(['token', '--interface', 'b'], wrong)).code, 3);
      const held = await run(['token', '--interface', 'b', '--sandbox', sb.url]);
      assert.equal(held.code, 3, held.stderr);
      assert.ok(linesOf(held.stderr).length <= 4, held.stderr);
      assert.match(held.stderr, /refused by the lockout guard/);
      assert.match(held.stderr, /one more failure makes the sandbox lock the account/);
      assert.match(held.stderr, /bizdata token --interface b --sandbox URL --confirm-risk\): a successful sign-in resets it/);
      assert.equal((await run(['token', '--interface', 'b', '--sandbox', sb.url, '--confirm-risk'])).code, 0);
      assert.equal((await run(['token', '--interface', 'b', '--sandbox', sb.url])).code, 0, 'the count is cleared');
    });
  });
});
