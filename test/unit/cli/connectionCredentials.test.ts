// Credentials stay with their connection (issue 25, findings 4 and 5), against a real sandbox behind
// recording listeners of the test's own: the BIZDATA_* credentials are the run's connection's, so a
// request file's "# @connection other" is refused at its line, before even a sign-in, unless
// "other" has credentials of its own by name; a production connection reached by send or test asks
// (--yes in a script); and a token kept with --keep-token for http://127.0.0.1:P is never sent to
// http://[::1]:P, where another program may listen.
import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WITHHELD } from '../../../src/core/requests/assertions';
import { assertNoCanary, CANARY, sandbox, type Sandbox } from '../core/harness';
import { startListener, type Listener, type Received } from '../core/listeners';
import { canaryEnv, cliRuns } from './cliHarness';
import { runAtTerminal } from './terminal';

const IP = 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard';
const OTHER_CREDS = { BIZDATA_OTHER_CONSUMER_KEY: CANARY.consumerKey, BIZDATA_OTHER_CONSUMER_SECRET: CANARY.consumerSecret };
const isSignIn = (r: Received): boolean => r.path.startsWith('/v1/token');

describe('bizdata: credentials belong to one connection', function () {
  this.timeout(60_000);
  let dir = '';
  const { run } = cliRuns('bizdata-conn-creds-', (d) => (dir = d));
  const terminalOutputs: string[] = [];
  after(() => assertNoCanary(terminalOutputs));
  let sb: Sandbox;
  let test: Listener;
  let other: Listener;

  before(async () => {
    sb = await sandbox();
    test = await startListener('127.0.0.1', 0, sb.url);
    other = await startListener('127.0.0.1', 0, sb.url);
  });
  after(async () => {
    await Promise.all([test.close(), other.close()]);
    await sb.close();
  });
  afterEach(() => {
    test.received.length = 0;
    other.received.length = 0;
  });

  async function files(lines: readonly string[], production = false): Promise<{ connections: string; http: string }> {
    const at = (l: Listener) => ({ authUrl: l.url, baseUrl: l.url, legacyUrl: l.url, origin: 'https://app.example.com', ...(production ? { production: true } : {}) });
    const connections = join(dir, 'connections.json');
    await writeFile(connections, JSON.stringify({ active: 'test', connections: { test: at(test), other: at(other) } }));
    const http = join(dir, 'calls.bizdata.http');
    await writeFile(http, lines.join('\n'));
    return { connections, http };
  }

  it('refuses a "# @connection other" request at its line without other\'s own credentials: nothing reaches other, not even a sign-in', async () => {
    const { connections, http } = await files(['# @connection other', '', IP]);
    for (const command of ['send', 'test']) {
      const r = await run([command, http, '--connections', connections, '--connection', 'test'], canaryEnv(test.url));
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`nothing was sent: a request that cannot be sent\\.\\n${http.replace(/\./g, '\\.')}:1: "# @connection other" sends this request through the connection "other", which has no credentials of its own`));
      assert.match(r.stderr, /Set BIZDATA_OTHER_CONSUMER_KEY and BIZDATA_OTHER_CONSUMER_SECRET \(Interface A\) or BIZDATA_OTHER_USER and BIZDATA_OTHER_PASSWORD \(Interface B\)/);
    }
    assert.deepEqual(other.received, [], "other's listener got a request");
    assert.deepEqual(test.received, [], "test's listener got a request");
  });

  it("sends it with other's credentials given by name, and only those", async () => {
    const { connections, http } = await files(['# @connection other', '', IP]);
    // The run's own credentials are a decoy here: none of them may reach other.
    const decoy = { BIZDATA_CONSUMER_KEY: 'decoyKEY-31c9a0', BIZDATA_CONSUMER_SECRET: 'decoySECRET-7be2d4' };
    const r = await run(['send', http, '--connections', connections, '--connection', 'test'], { ...canaryEnv(test.url), ...decoy, ...OTHER_CREDS });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^\[other\] request 1: GET .* -> 200/m);
    assert.equal(other.received.filter(isSignIn).length, 1, 'one sign-in at other');
    assert.equal(other.received.filter((x) => !isSignIn(x)).length, 1, 'one data call at other');
    const signIn = String(other.received.find(isSignIn)?.headers.authorization);
    assert.equal(signIn, `Basic ${Buffer.from(`${CANARY.consumerKey}:${CANARY.consumerSecret}`).toString('base64')}`);
    assert.ok(!JSON.stringify(other.received).includes('decoy'), "the run's own credentials reached other");
    assert.deepEqual(test.received, []);
  });

  it('asks before sending to a production connection: refused in a script without --yes, sent with it', async () => {
    const { connections, http } = await files(['# @connection other', '', IP, '?? status == 200'], true);
    for (const command of ['send', 'test']) {
      const r = await run([command, http, '--connections', connections, '--connection', 'test'], { ...canaryEnv(test.url), ...OTHER_CREDS });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /The connection "other" is marked "production": true, so sending the requests of .*calls\.bizdata\.http against it needs confirmation; nothing was sent\. Add --yes/);
    }
    assert.deepEqual([test.received, other.received], [[], []]);
    const r = await run(['test', http, '--connections', connections, '--connection', 'test', '--yes'], { ...canaryEnv(test.url), ...OTHER_CREDS });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(other.received.filter((x) => !isSignIn(x)).length, 1);
  });

  it("asks at a terminal for another connection's credentials, and never takes the run's plain ones for it", async () => {
    const { connections, http } = await files(['# @connection other', '', IP]);
    // The run's own credentials are a decoy: at a terminal too, none of them may reach other.
    const decoy = { BIZDATA_CONSUMER_KEY: 'decoyKEY-31c9a0', BIZDATA_CONSUMER_SECRET: 'decoySECRET-7be2d4' };
    const answers = [
      { question: 'Consumer key for connection "other" (hidden): ', answer: CANARY.consumerKey },
      { question: 'Consumer secret for connection "other" (hidden): ', answer: CANARY.consumerSecret },
    ];
    const r = await runAtTerminal(['send', http, '--connections', connections, '--connection', 'test'], { ...canaryEnv(test.url), ...decoy }, dir, answers, terminalOutputs);
    assert.deepEqual(r.unasked, [], `other's credentials were not asked for:\n${r.shown}`);
    assert.equal(r.code, 0, r.shown);
    assert.match(r.shown, /\[other\] request 1: GET .* -> 200/);
    const signIn = String(other.received.find(isSignIn)?.headers.authorization);
    assert.equal(signIn, `Basic ${Buffer.from(`${CANARY.consumerKey}:${CANARY.consumerSecret}`).toString('base64')}`, 'other signed in with the answers');
    assert.ok(!JSON.stringify(other.received).includes('decoy'), "the run's own credentials reached other");
    assert.deepEqual(test.received, []);
  });

  it("redacts every connection's own credentials from the start of a run, values unlike the run's plain ones, also of a connection it never reaches", async () => {
    const own = { consumerKey: 'auditKEY-0b7e51', consumerSecret: 'auditSECRET-4c19d2', user: 'auditUSER-9e03aa', password: 'auditPASS-61f8c7' };
    const named = { BIZDATA_AUDIT_CONSUMER_KEY: own.consumerKey, BIZDATA_AUDIT_CONSUMER_SECRET: own.consumerSecret, BIZDATA_AUDIT_USER: own.user, BIZDATA_AUDIT_PASSWORD: own.password };
    const other = { BIZDATA_OTHER_CONSUMER_KEY: 'otherKEY-7d21c0', BIZDATA_OTHER_CONSUMER_SECRET: 'otherSECRET-e85b13' };
    const values = [...Object.values(own), ...Object.values(other)];
    // The service answers with all of them, in a field no name pattern redacts.
    await sb.admin('POST', 'faults', { type: 'respond', path: '/v1/duns-search/ip/203.0.113.7', status: 200, body: { note: values.join(' ') } });
    try {
      const { connections, http } = await files([IP, '?? body $.note == x']);
      const junit = join(dir, 'report.xml');
      const env = { ...canaryEnv(test.url), ...named, ...other };
      const sent = await run(['send', http, '--connections', connections, '--connection', 'test'], env);
      const tested = await run(['test', http, '--connections', connections, '--connection', 'test', '--junit', junit, '--json'], env);
      await writeFile(join(dir, 'calls.data.csv'), 'row\n1\n');
      const rows = await run(['send', http, '--connections', connections, '--connection', 'test', '--out', join(dir, 'results.jsonl')], env);
      const written = [await readFile(junit, 'utf8'), await readFile(join(dir, 'results.jsonl'), 'utf8')];
      // Each shows the answer with them redacted, or withholds it (an assertion's actual value).
      const hidden = (text: string): boolean => text.includes('<redacted>') || text.includes(WITHHELD);
      const shown = { send: sent.stdout, test: tested.stdout, junit: written[0], results: written[1] };
      for (const [name, text] of Object.entries(shown)) assert.ok(hidden(text), `${name} shows the answer, redacted:\n${text}`);
      assert.equal(rows.code, 1, rows.stderr);
      const texts = [sent, tested, rows].flatMap((r) => [r.stdout, r.stderr]).concat(written);
      for (const value of values) assert.ok(texts.every((t) => !t.includes(value)), `${value} is in an output`);
    } finally {
      await sb.admin('DELETE', 'faults');
    }
  });

  it('says in --help of send, test and batch how a connection is given its own credentials', async () => {
    for (const command of ['send', 'test', 'batch']) {
      const r = await run([command, '--help']);
      assert.match(r.stdout, /for a connection "eu-prod",\n\s+BIZDATA_EU_PROD_CONSUMER_KEY, BIZDATA_EU_PROD_CONSUMER_SECRET, BIZDATA_EU_PROD_USER and\n\s+BIZDATA_EU_PROD_PASSWORD/, command);
    }
    for (const command of ['send', 'test']) assert.match((await run([command, '--help'])).stdout, /-y, --yes +send to a production connection without asking/, command);
  });
});

describe('bizdata --keep-token: tokens are kept by exact origin', function () {
  this.timeout(60_000);
  const { run } = cliRuns('bizdata-kept-origin-', () => undefined);

  it('a token kept for http://127.0.0.1:P is never sent to http://[::1]:P: a new sign-in there', async function () {
    const sb = await sandbox();
    const v4 = await startListener('127.0.0.1', 0, sb.url);
    let v6: Listener;
    try {
      v6 = await startListener('::1', v4.port, sb.url);
    } catch (err) {
      await v4.close();
      await sb.close();
      // Without IPv6 loopback (or with its port taken) there is no second host to keep apart.
      console.log(`      skipped: no [::1]:${v4.port} to listen on (${(err as Error).message})`);
      this.skip();
    }
    try {
      const ip = ['ip', '203.0.113.7', '--keep-token'];
      assert.equal((await run(ip, canaryEnv(v4.url))).code, 0);
      assert.equal((await run(ip, canaryEnv(v4.url))).code, 0);
      assert.equal(v4.received.filter(isSignIn).length, 1, 'the kept token served the second run at 127.0.0.1');
      const kept = new Set(v4.received.filter((r) => !isSignIn(r)).map((r) => String(r.headers.authorization)));
      assert.equal(kept.size, 1);

      const r = await run(ip, canaryEnv(v6.url));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(v6.received.filter(isSignIn).length, 1, 'a new sign-in at [::1]');
      const there = v6.received.filter((x) => !isSignIn(x)).map((x) => String(x.headers.authorization));
      assert.equal(there.length, 1);
      assert.ok(!kept.has(there[0]), 'the token kept for 127.0.0.1 was sent to [::1]');
      assert.ok(!JSON.stringify(v6.received).includes([...kept][0].replace(/^Bearer /, '')), 'the kept token reached [::1]');
    } finally {
      await Promise.all([v4.close(), v6.close()]);
      await sb.close();
    }
  });
});
