// Named connections on the command line (issue 17), against two real sandboxes on two ports, each
// behind a recording relay of the test's own: "alpha" (customer alpha) and "beta" (customer beta).
// Both accept the canary consumer key, so only the relays can tell where a token went; Interface B
// has a different canary user on each, so a wrong choice of connection fails to sign in.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { CANARY } from '../core/harness';
import { startListener, type Listener, type Received } from '../core/listeners';
import { runCli, type Run } from './cliHarness';
import { tempDirs } from '../tempDirs';
import { assertNoCanary } from '../core/harness';

/** Beta's Interface B user: canaries too. */
const BETA_USER = { user: 'canaryUSER2-19d0b7c4', password: 'canaryPASS2-6a2e5f81' } as const;
const SECRETS = [BETA_USER.user, BETA_USER.password];
const IP = '203.0.113.7';
const ORG = ['--country', 'US', '--name', 'Example'];

function config(customer: string, user: { user: string; password: string }): unknown {
  return {
    customers: [
      {
        id: customer,
        qps: 1000,
        concurrency: 100,
        clients: [{ consumerKey: CANARY.consumerKey, consumerSecret: CANARY.consumerSecret }],
        users: [user],
      },
    ],
  };
}

/** Canary credentials of both interfaces in the environment; Interface B's user is alpha's unless `betaUser`. */
function creds(betaUser = false): Record<string, string> {
  const b = betaUser ? BETA_USER : { user: CANARY.user, password: CANARY.password };
  return { BIZDATA_CONSUMER_KEY: CANARY.consumerKey, BIZDATA_CONSUMER_SECRET: CANARY.consumerSecret, BIZDATA_USER: b.user, BIZDATA_PASSWORD: b.password };
}

/** The same credentials as `creds`, given for the connection `name` by name (BIZDATA_<NAME>_…): another connection takes no others. */
function namedCreds(name: string, betaUser = false): Record<string, string> {
  return Object.fromEntries(Object.entries(creds(betaUser)).map(([k, v]) => [k.replace(/^BIZDATA_/, `BIZDATA_${name.toUpperCase()}_`), v]));
}

const isToken = (r: Received): boolean => r.path.startsWith('/v1/token') || r.path.startsWith('/Authentication/');
const authorizations = (l: Listener): string[] => l.received.filter((r) => !isToken(r)).map((r) => String(r.headers.authorization));

describe('bizdata with named connections (two sandboxes)', function () {
  this.timeout(60_000);
  const dirs = tempDirs();
  const outputs: string[] = [];
  let alphaSb: RunningSandbox;
  let betaSb: RunningSandbox;
  let alpha: Listener;
  let beta: Listener;
  let dir: string;
  let file: string;
  /** Every data call's Authorization at each relay, over the whole suite. */
  const seen = { alpha: new Set<string>(), beta: new Set<string>() };

  before(async () => {
    alphaSb = await startSandbox({ port: 0, config: config('alpha', { user: CANARY.user, password: CANARY.password }) });
    betaSb = await startSandbox({ port: 0, config: config('beta', BETA_USER) });
    alpha = await startListener('127.0.0.1', 0, alphaSb.url);
    beta = await startListener('127.0.0.1', 0, betaSb.url);
  });

  beforeEach(async () => {
    dir = await dirs.make('bizdata-conns-');
    file = join(dir, 'connections.json');
    await writeFile(file, connectionsText());
  });

  afterEach(() => {
    for (const r of alpha.received.filter((x) => !isToken(x))) seen.alpha.add(String(r.headers.authorization));
    for (const r of beta.received.filter((x) => !isToken(x))) seen.beta.add(String(r.headers.authorization));
    alpha.received.length = 0;
    beta.received.length = 0;
  });

  after(async () => {
    await Promise.all([alpha?.close(), beta?.close()]);
    await Promise.all([alphaSb?.close(), betaSb?.close()]);
    // Each connection's token reached only its own sandbox, over every run of the suite.
    assert.ok(seen.alpha.size > 0 && seen.beta.size > 0, 'both sandboxes answered data calls');
    assert.deepEqual([...seen.alpha].filter((a) => seen.beta.has(a)), [], 'a token reached both sandboxes');
    assertNoCanary(outputs, SECRETS);
  });

  function connectionsText(active = 'alpha'): string {
    const at = (l: Listener): Record<string, string> => ({ authUrl: l.url, baseUrl: l.url, legacyUrl: l.url, origin: 'https://app.example.com' });
    return JSON.stringify({ active, connections: { alpha: at(alpha), beta: at(beta), prod: { ...at(beta), production: true, concurrency: 2 } } }, null, 2);
  }

  const run = (args: readonly string[], env: Record<string, string> = {}): Promise<Run> => runCli(args, env, dir, outputs);

  /** The relay reached: token and data calls counted per relay. */
  function reached(): { alpha: { token: number; data: number }; beta: { token: number; data: number } } {
    const count = (l: Listener) => ({ token: l.received.filter(isToken).length, data: l.received.filter((r) => !isToken(r)).length });
    return { alpha: count(alpha), beta: count(beta) };
  }

  it("uses the file's active connection, and --connection or BIZDATA_CONNECTION over it", async () => {
    let r = await run(['ip', IP, '--connections', file], creds());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`bizdata: connection "alpha" \\(${alpha.url.replace(/\./g, '\\.')}\\)`));
    assert.equal(typeof JSON.parse(r.stdout), 'object');
    assert.deepEqual(reached(), { alpha: { token: 1, data: 1 }, beta: { token: 0, data: 0 } });

    alpha.received.length = 0;
    r = await run(['org', ...ORG, '--connections', file, '--connection', 'beta'], creds(true));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /connection "beta"/);
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 1 } });

    beta.received.length = 0;
    r = await run(['org', ...ORG, '--connections', file], { ...creds(true), BIZDATA_CONNECTION: 'beta' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 1 } });

    // The flag wins over the variable: alpha's user at alpha.
    beta.received.length = 0;
    r = await run(['org', ...ORG, '--connections', file, '--connection', 'alpha'], { ...creds(), BIZDATA_CONNECTION: 'beta' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(reached(), { alpha: { token: 1, data: 1 }, beta: { token: 0, data: 0 } });
  });

  it('finds the file in $XDG_CONFIG_HOME/bizdata/connections.json without --connections', async () => {
    const home = join(dir, 'config', 'bizdata');
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'connections.json'), connectionsText('beta'));
    const r = await run(['org', ...ORG], { ...creds(true), XDG_CONFIG_HOME: join(dir, 'config') });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /connection "beta"/);
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 1 } });
  });

  it('lets a flag override a field for one run, and ignores the address variables under a connection', async () => {
    // --legacy-url moves alpha's Interface B to beta's sandbox for this run: beta's user signs in there.
    let r = await run(['org', ...ORG, '--connections', file, '--legacy-url', beta.url], creds(true));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 1 } });
    beta.received.length = 0;
    // BIZDATA_LEGACY_URL names beta, but the connection alpha decides: alpha's user at alpha.
    r = await run(['org', ...ORG, '--connections', file], { ...creds(), BIZDATA_LEGACY_URL: beta.url, BIZDATA_AUTH_URL: beta.url });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(reached(), { alpha: { token: 1, data: 1 }, beta: { token: 0, data: 0 } });
  });

  it('refuses an unknown name, listing the connections, and a broken file at its line; nothing is sent', async () => {
    let r = await run(['ip', IP, '--connections', file, '--connection', 'gamma'], creds());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--connection: No connection is named "gamma" in .*connections\.json\. The connections are: alpha, beta, prod, sandbox\./);
    r = await run(['token', '--connections', file], { ...creds(), BIZDATA_CONNECTION: 'gamma' });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /BIZDATA_CONNECTION: No connection is named "gamma"/);
    await writeFile(file, '{\n  "active": "alpha",\n  "connections": {\n    "alpha": { "baseUrl": "http://example.com" }\n  }\n}');
    r = await run(['ip', IP, '--connections', file], creds());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /connections\.json:4:27: connection "alpha", field "baseUrl" uses plain http:\/\/ to example\.com/);
    await writeFile(file, '{"connections": {');
    r = await run(['batch', join(dir, 'none.txt'), '--out', join(dir, 'o.jsonl'), '--connections', file], creds());
    assert.equal(r.code, 2);
    await writeFile(join(dir, 'x.http'), `GET {{baseUrl}}/v1/duns-search/ip/${IP}`);
    r = await run(['send', join(dir, 'x.http'), '--connections', join(dir, 'missing.json')], creds());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Cannot read the connections file .*missing\.json: there is no such file \(looked for [^)]*\)\. Check the path given to --connections\./);
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 0, data: 0 } });
  });

  it('keeps tokens by account: two connections to one account share one, and bizdata connections shows it', async () => {
    let r = await run(['ip', IP, '--connections', file, '--connection', 'beta', '--keep-token'], creds());
    assert.equal(r.code, 0, r.stderr);
    // prod is the same account at the same host: its run reuses beta's kept token.
    r = await run(['ip', IP, '--connections', file, '--connection', 'prod', '--keep-token'], creds());
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 2 } });
    assert.equal(new Set(authorizations(beta)).size, 1);

    r = await run(['connections', '--connections', file], creds());
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 4, r.stdout);
    assert.match(lines[0], new RegExp(`^\\* alpha    ${alpha.url.replace(/\./g, '\\.')}$`));
    assert.match(lines[1], new RegExp(`^  beta     ${beta.url.replace(/\./g, '\\.')}  token A valid until \\d{4}-\\d\\d-\\d\\dT`));
    assert.match(lines[2], /^ {2}prod {5}http:\/\/127\.0\.0\.1:\d+ {2}production {2}token A valid until /);
    assert.match(lines[3], /^ {2}sandbox {2}http:\/\/127\.0\.0\.1:8080 {2}local sandbox, demo credentials$/);
    // Without the account's secret, no token state is shown: nothing else can unseal it. And the
    // listing changes nothing: the kept token is still there for the next listing.
    r = await run(['connections', '--connections', file], { BIZDATA_CONSUMER_KEY: CANARY.consumerKey, BIZDATA_CONSUMER_SECRET: 'not-the-secret' });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /token/);

    r = await run(['connections', '--connections', file, '--json'], { ...creds(), BIZDATA_CONNECTION: 'prod' });
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { file: string; active: string; connections: Array<{ name: string; active: boolean; hosts: string[]; production: boolean; sandbox: boolean; tokens: Array<{ interface: string; state: string; expiresAt: string }> }> };
    assert.equal(json.file, file);
    assert.equal(json.active, 'prod');
    assert.deepEqual(
      json.connections.map((c) => [c.name, c.active, c.hosts, c.production, c.sandbox, c.tokens.map((t) => [t.interface, t.state])]),
      [
        ['alpha', false, [alpha.url], false, false, []],
        ['beta', false, [beta.url], false, false, [['a', 'valid']]],
        ['prod', true, [beta.url], true, false, [['a', 'valid']]],
        ['sandbox', false, ['http://127.0.0.1:8080'], false, true, []],
      ],
    );
    // The listing never calls the service.
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 2 } });
  });

  it('sends each request of a file through its # @connection, and refuses a name that names none at its line', async () => {
    const http = join(dir, 'calls.bizdata.http');
    await writeFile(
      http,
      ['# @name first', `GET {{baseUrl}}/v1/duns-search/ip/${IP}?view=standard`, '', '###', '# @connection beta', '# @name second', `GET {{baseUrl}}/v1/duns-search/ip/${IP}?view=standard`].join('\n'),
    );
    let r = await run(['send', http, '--connections', file], { ...creds(), ...namedCreds('beta') });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^\[alpha\] first: GET http:\/\/127\.0\.0\.1:\d+\/v1\/duns-search\/ip\/.* -> 200/m);
    assert.match(r.stderr, /^\[beta\] second: GET http:\/\/127\.0\.0\.1:\d+\/v1\/duns-search\/ip\/.* -> 200/m);
    assert.deepEqual(reached(), { alpha: { token: 1, data: 1 }, beta: { token: 1, data: 1 } });
    assert.notEqual(authorizations(alpha)[0], authorizations(beta)[0]);

    // At the top of the file: every request's.
    alpha.received.length = 0;
    beta.received.length = 0;
    await writeFile(http, ['# @connection beta', '', `GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true`].join('\n'));
    r = await run(['send', http, '--connections', file], namedCreds('beta', true));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 1 } });

    // A request of beta's written to alpha's host: beta's token goes only to beta's hosts, so the file is refused.
    beta.received.length = 0;
    await writeFile(http, ['# @connection beta', `GET ${alpha.url}/v1/duns-search/ip/${IP}`].join('\n'));
    r = await run(['send', http, '--connections', file], { ...creds(), ...namedCreds('beta') });
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`${http.replace(/\./g, '\\.')}:2: The request goes to ${alpha.url.replace(/\./g, '\\.')}, which is no configured service host`));
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 0, data: 0 } });

    await writeFile(http, ['GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7', '', '###', '# @connection staging', 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.8'].join('\n'));
    r = await run(['send', http, '--connections', file], creds());
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`nothing was sent: .*calls\\.bizdata\\.http has a problem\\.\\n${http.replace(/\./g, '\\.')}:4: "# @connection staging" names no connection; use one of alpha, beta, prod, sandbox`));
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 0, data: 0 } });
  });

  it('asks before a batch against a production connection: --yes for scripts; lines name the connection', async () => {
    const input = join(dir, 'ips.txt');
    const out = join(dir, 'out.jsonl');
    await writeFile(input, '203.0.113.7\n203.0.113.8\n');
    let r = await run(['batch', input, '--out', out, '--connections', file, '--connection', 'prod'], creds());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /The connection "prod" is marked "production": true, so a batch against it needs confirmation; nothing was sent\. Add --yes to run it \(2 lookups from .*ips\.txt\)/);
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 0, data: 0 } });

    r = await run(['batch', input, '--out', out, '--connections', file, '--connection', 'prod', '--yes'], creds());
    assert.equal(r.code, 0, r.stderr);
    const lines = (await readFile(out, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as { ok: boolean; connection: string });
    assert.deepEqual(lines.map((l) => [l.ok, l.connection]), [[true, 'prod'], [true, 'prod']]);
    assert.equal((JSON.parse(r.stdout) as { connection: string }).connection, 'prod');
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 2 } });

    // The same output under another connection: another account's answers, so it runs them again.
    r = await run(['batch', input, '--out', out, '--connections', file], creds());
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { skipped: number; done: number }).done, 2);
    assert.deepEqual(reached(), { alpha: { token: 1, data: 2 }, beta: { token: 1, data: 2 } });
  });

  it('describes the options and the format in --help', async () => {
    for (const cmd of ['ip', 'org', 'batch', 'send', 'token']) {
      const r = await run([cmd, '--help']);
      assert.equal(r.code, 0, cmd);
      assert.match(r.stdout, /--connections FILE +the connections file/, cmd);
      assert.match(r.stdout, /--connection NAME +the connection to use \[BIZDATA_CONNECTION, default the file's "active"\]/, cmd);
    }
    assert.match((await run(['batch', '--help'])).stdout, /-y, --yes +run against a connection marked "production": true without asking/);
    assert.match((await run(['send', '--help'])).stdout, /"# @connection NAME" above a request sends it through that connection/);
    const r = await run(['connections', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /"production": true, "qps": 20,/);
    assert.match(r.stdout, /Fields: authUrl, baseUrl, legacyUrl/);
    assert.match((await run(['--help'])).stdout, /connections +list the named connections/);
  });

  it('names the connection in token JSON, and keeps --sandbox and the plain variables working', async () => {
    let r = await run(['token', '--interface', 'b', '--connections', file, '--connection', 'beta'], creds(true));
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { connection: string; state: string }).connection, 'beta');
    assert.deepEqual(reached(), { alpha: { token: 0, data: 0 }, beta: { token: 1, data: 0 } });
    beta.received.length = 0;
    // --sandbox is the connection "sandbox": the file's active one is not used.
    r = await run(['ip', IP, '--connections', file, '--sandbox', alpha.url], {});
    assert.equal(r.code, 3, `alpha knows no demo credentials: refused there, not sent to beta\n${r.stderr}`);
    assert.deepEqual(reached(), { alpha: { token: 1, data: 0 }, beta: { token: 0, data: 0 } });
    alpha.received.length = 0;
    r = await run(['ip', IP, '--connections', file, '--connection', 'beta', '--sandbox', alpha.url], creds());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Give --connection beta or --sandbox, not both/);
    // No file and no name: today's variables.
    r = await run(['org', ...ORG], { ...creds(true), BIZDATA_LEGACY_URL: beta.url });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /connection "/);
  });
});
