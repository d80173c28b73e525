// The built command line (dist/cli.js) run as a child process against a sandbox in this process.
// execFile, not spawnSync: the sandbox must keep answering while the child runs.
import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../../src/sandbox/server';
import { assertNoCanary, CANARY, sandbox, type Sandbox } from '../core/harness';
import { canaryEnv as canaryEnvFor, runCli, type Run } from './cliHarness';

describe('bizdata command line', () => {
  let sb: Sandbox;
  let dir: string;
  const outputs: string[] = [];

  const run = (args: string[], env: Record<string, string> = {}): Promise<Run> => runCli(args, env, dir, outputs);
  const canaryEnv = (): Record<string, string> => canaryEnvFor(sb.url);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bizdata-cli-'));
  });

  afterEach(async () => {
    await sb?.close();
    await rm(dir, { recursive: true, force: true });
  });

  after(() => {
    // Every stdout and stderr of every run in this file.
    assertNoCanary(outputs);
  });

  it('has help for every command', async () => {
    assert.equal((await run(['--help'])).code, 0);
    assert.equal((await run([])).code, 2);
    for (const cmd of ['ip', 'org', 'batch', 'token']) {
      const r = await run([cmd, '--help']);
      assert.equal(r.code, 0, cmd);
      assert.match(r.stdout, new RegExp(`Usage: bizdata ${cmd}`));
      assert.match(r.stdout, /BIZDATA_PASSWORD/);
      assert.match(r.stdout, /Exit status/);
    }
    const unknown = await run(['frobnicate']);
    assert.equal(unknown.code, 2);
  });

  it('prints the version of package.json with --version and -V, listed in --help', async () => {
    const { version } = JSON.parse(await readFile(join(__dirname, '../../../../package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await run([flag]);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${version}\n`, ''], flag);
    }
    assert.match((await run(['--help'])).stdout, /-V, --version +print the version/);
  });

  it('looks up an IP and an organization against --sandbox with its demo credentials', async () => {
    const demo = await startSandbox({ port: 0 });
    try {
      const ip = await run(['ip', '203.0.113.7', '--sandbox', demo.url]);
      assert.equal(ip.code, 0, ip.stderr);
      assert.equal((JSON.parse(ip.stdout) as { inquiryDetail: { ipAddress: string } }).inquiryDetail.ipAddress, '203.0.113.7');
      const org = await run(['org', '--country', 'US', '--name', 'Example Corp', '--territory', 'CA', '--sandbox', demo.url]);
      assert.equal(org.code, 0, org.stderr);
      assert.equal((JSON.parse(org.stdout) as { MatchResponse: { TransactionResult: { ResultID: string } } }).MatchResponse.TransactionResult.ResultID, 'CM000');
    } finally {
      await demo.close();
    }
  });

  it('exits 2 on bad input and bad usage, sending nothing', async () => {
    sb = await sandbox();
    const before = (await sb.stats()).requests;
    const env = canaryEnv();
    assert.equal((await run(['ip', '999.1.1.1'], env)).code, 2);
    assert.equal((await run(['ip'], env)).code, 2);
    assert.equal((await run(['org', '--country', 'USA', '--name', 'x'], env)).code, 2);
    assert.equal((await run(['org', '--country', 'US'], env)).code, 2);
    assert.equal((await run(['ip', '1.2.3.4', '--bogus'], env)).code, 2);
    assert.equal((await run(['ip', '1.2.3.4'], { ...env, BIZDATA_AUTH_URL: 'http://api.example.com' })).code, 2);
    const noCa = await run(['ip', '1.2.3.4', '--ca-file', join(dir, 'missing.pem')], env);
    assert.equal(noCa.code, 2);
    assert.match(noCa.stderr, /missing\.pem/);
    const noCreds = await run(['ip', '1.2.3.4'], { ...env, BIZDATA_CONSUMER_SECRET: '' });
    assert.equal(noCreds.code, 2);
    assert.match(noCreds.stderr, /BIZDATA_CONSUMER_SECRET/);
    const noUrl = await run(['org', '--country', 'US', '--name', 'x'], { BIZDATA_USER: 'u', BIZDATA_PASSWORD: 'p' });
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /BIZDATA_LEGACY_URL/);
    assert.equal((await sb.stats()).requests, before);
  });

  it('refuses credentials given as flags, without echoing them', async () => {
    for (const flag of [`--password=${CANARY.password}`, `--consumer-secret=${CANARY.consumerSecret}`, '--token', '--user']) {
      const r = await run(['ip', '1.2.3.4', flag, 'x']);
      assert.equal(r.code, 2, flag);
      assert.match(r.stderr, /never taken from command-line flags/);
      assert.match(r.stderr, /shell history/);
    }
  });

  it('exits 3 on wrong credentials, and the guard stops the run that could lock the account', async () => {
    sb = await sandbox();
    const env = { ...canaryEnv(), BIZDATA_PASSWORD: 'wrong-password' };
    const args = ['org', '--country', 'US', '--name', 'Example Corp'];
    const first = await run(args, env);
    assert.equal(first.code, 3);
    assert.match(first.stderr, /SC001/);
    assert.match(first.stderr, /Your user credentials are invalid\./);
    assert.equal((await run(args, env)).code, 3);
    const third = await run(args, env);
    assert.equal(third.code, 3);
    assert.match(third.stderr, /lockout guard/);
    assert.match(third.stderr, /one more failure makes the sandbox lock the account/);
    const user = (await sb.admin('GET', `users/${CANARY.user}`)) as { locked: boolean; failures: number };
    assert.deepEqual({ locked: user.locked, failures: user.failures }, { locked: false, failures: 2 });
    // The count lives in one file, replaced atomically, under a hash: no account name, no secret;
    // beside it only the folder of file locks, empty once every run has ended.
    assert.deepEqual((await readdir(dir)).sort(), ['guard.json', 'locks']);
    assert.deepEqual(await readdir(join(dir, 'locks')), []);
    const guardFile = await readFile(join(dir, 'guard.json'), 'utf8');
    assert.deepEqual(Object.values(JSON.parse(guardFile) as Record<string, number>), [2]);
    assertNoCanary([guardFile]);
    // With the right password and --confirm-risk the account works again and the count resets.
    const fixed = await run([...args, '--confirm-risk'], canaryEnv());
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.equal((await run(args, canaryEnv())).code, 0);
  });

  it('exits 4 on a contract limit', async () => {
    sb = await sandbox({ contractLimit: 0 });
    const r = await run(['ip', '203.0.113.7'], canaryEnv());
    assert.equal(r.code, 4);
    assert.match(r.stderr, /SC005/);
    assert.match(r.stderr, /Contact support\./);
  });

  it('shows the token status, and the token only with --reveal', async () => {
    sb = await sandbox();
    const status = await run(['token', '--interface', 'b', '--verbose'], canaryEnv());
    assert.equal(status.code, 0, status.stderr);
    const s = JSON.parse(status.stdout) as Record<string, unknown>;
    assert.equal(s.state, 'valid');
    assert.equal(s.token, undefined);
    const revealed = await run(['token', '--reveal'], canaryEnv());
    assert.equal(revealed.code, 0);
    const token = (JSON.parse(revealed.stdout) as { token?: string }).token ?? '';
    assert.ok(token.length > 8);
    outputs.splice(outputs.indexOf(revealed.stdout), 1); // the one output allowed to hold a token
  });

  it('runs a batch with progress-free output, resumable, and keeps canaries out of verbose logs', async () => {
    sb = await sandbox({ qps: 50, concurrency: 4 });
    const input = join(dir, 'ips.txt');
    const out = join(dir, 'out.jsonl');
    await writeFile(input, `# test\n${Array.from({ length: 12 }, (_, i) => `198.51.100.${i + 1}`).join('\n')}\n`);
    const r = await run(['batch', input, '--out', out, '--concurrency', '3', '--verbose'], canaryEnv());
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { ok: number }).ok, 12);
    assert.match(r.stderr, /duns-search/);
    assert.equal((await readFile(out, 'utf8')).trim().split('\n').length, 12);
    const again = await run(['batch', input, '--out', out], canaryEnv());
    assert.equal((JSON.parse(again.stdout) as { skipped: number }).skipped, 12);
    const wrong = await run(['batch', input, '--out', join(dir, 'o2.jsonl'), '-v'], { ...canaryEnv(), BIZDATA_CONSUMER_SECRET: `${CANARY.consumerSecret}-wrong` });
    assert.equal(wrong.code, 3);
    assert.equal((await sb.customer()).authFailures, 1);
  });

  it('sends a request file with the managed token, chaining a named response, and refuses foreign hosts', async () => {
    sb = await sandbox();
    const file = join(dir, 'calls.bizdata.http');
    await writeFile(
      file,
      [
        '@ip = 203.0.113.7',
        '',
        '### first',
        'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{ip}}?view=standard',
        'Authorization: Bearer pasted-by-hand',
        '',
        '###',
        '# @name org',
        'GET {{legacyUrl}}/{{orgVersion}}/organizations',
        '    ?CountryISOAlpha2Code=US',
        '    &SubjectName=Example%20Corp&match=true',
        'X-Chained: {{first.response.body.$.inquiryDetail.ipAddress}}',
      ].join('\n'),
    );
    const all = await run(['send', file], canaryEnv());
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stderr, /Authorization header is removed before sending/);
    assert.match(all.stderr, /first: GET .*\/v1\/duns-search\/ip\/203\.0\.113\.7\?view=standard -> 200/);
    assert.match(all.stderr, /org: GET .*organizations.* -> 200/);
    assert.ok(!all.stderr.includes('pasted-by-hand'));
    const docs = all.stdout.trim().split(/\n(?=\{)/).map((d) => JSON.parse(d) as Record<string, unknown>);
    assert.equal(docs.length, 2);
    assert.equal((docs[1] as { MatchResponse: { TransactionResult: { ResultID: string } } }).MatchResponse.TransactionResult.ResultID, 'CM000');
    const one = await run(['send', file, '--name', 'org'], canaryEnv());
    assert.equal(one.code, 2, 'the chained value needs "first" sent first');
    assert.match(one.stderr, /send the request named "first" first/);
    assert.match((await run(['send', file, '--name', 'nope'], canaryEnv())).stderr, /No request named "nope".*its named requests are first, org/);
    const before = (await sb.stats()).requests;
    await writeFile(file, `GET http://127.0.0.2:${new URL(sb.url).port}/v1/duns-search/ip/1.2.3.4\n# @interface a\n`);
    const foreign = await run(['send', file], canaryEnv());
    assert.equal(foreign.code, 2);
    assert.match(foreign.stderr, /no configured service host/);
    await writeFile(file, '# @interface a\nGET http://127.0.0.2:1/v1/x\n');
    const named = await run(['send', file], canaryEnv());
    assert.equal(named.code, 2);
    assert.match(named.stderr, /not a service host of Interface A/);
    await writeFile(file, 'GET {{baseUrl}}/v1/{{typo}}\n');
    const typo = await run(['send', file], canaryEnv());
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /calls\.bizdata\.http:1: Unknown variable "typo"/);
    assert.equal((await sb.stats()).requests, before, 'nothing was sent for the refused files');
    assert.equal((await sb.customer()).tokenRequests, 2, 'one token per interface; nothing for the runs refused before sending');
  });
});
