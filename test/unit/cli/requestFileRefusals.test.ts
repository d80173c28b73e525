// What a request file from someone else can no longer do (issue 25, findings 3, 6, 7 and 8), through
// the built CLI against the real sandbox and a listener of the test's own: name the host or the path
// the token reaches, reflect the request, call the sign-in addresses, hang the run with a JSONPath
// regular expression or an answer that never ends, pass a test on a failed sign-in, crash on a file
// whose requests are all disabled.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoCanary } from '../core/harness';
import { startListener } from '../core/listeners';
import { waitFor } from '../sandbox/helpers';
import { canaryEnv, CLI, cliEnv, sandboxRuns } from './cliHarness';

const IP = 'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7?view=standard';
const ORG = 'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true&MatchTypeText=Advanced';

describe('request files that try to steer the token, hang the run or crash it', () => {
  let dir = '';
  let listener: Server | undefined;
  const { run, file, sandbox } = sandboxRuns('bizdata-refusals-', (d) => (dir = d));
  const captured: string[] = [];
  after(() => assertNoCanary(captured));

  afterEach(async () => {
    await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
    listener = undefined;
  });

  /** A listener of the test's own as the service: it counts every request that reaches it. */
  async function countingService(): Promise<{ url: string; seen: () => number }> {
    let seen = 0;
    listener = createServer((_req, res) => {
      seen++;
      res.writeHead(401, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => listener?.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`, seen: () => seen };
  }

  it('refuses identity headers (any case, empty or odd values) and TRACE/TRACK at their lines, in request lines and curl commands, sending nothing', async () => {
    const service = await countingService();
    const f = await file('identity.bizdata.http', [
      IP,
      'Host: attacker.example.net',
      'x-forwarded-HOST:',
      'Forwarded: host=a b',
      '',
      '###',
      'TRACE {{baseUrl}}/v1/echo',
      '###',
      'track {{baseUrl}}/v1/echo',
      '###',
      `curl -H 'X-Original-URL: /v1/token' {{baseUrl}}/v1/duns-search/ip/198.51.100.7`,
    ]);
    for (const command of ['send', 'test']) {
      const r = await run([command, f], canaryEnv(service.url));
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`${f}:2: The Host header tells a server which host, address or path the request is for`));
      assert.match(r.stderr, new RegExp(`${f}:3: The x-forwarded-HOST header`));
      assert.match(r.stderr, new RegExp(`${f}:4: The Forwarded header`));
      assert.match(r.stderr, new RegExp(`${f}:7: "TRACE" asks the server to send the request back`));
      assert.match(r.stderr, new RegExp(`${f}:9: "track" asks the server to send the request back`));
      assert.match(r.stderr, new RegExp(`${f}:11: The X-Original-URL header`));
    }
    assert.equal(service.seen(), 0, 'nothing reached the service');
  });

  it('refuses every identity and method-override header, in a request and in a curl command, and every method that reflects or tunnels, each at its line', async () => {
    const service = await countingService();
    // Written here, not imported: a name dropped from identityHeaders.ts fails this test.
    const identity = ['Host', 'Forwarded', 'X-Forwarded-Host', 'X-Forwarded-For', 'X-Forwarded-Proto', 'X-Forwarded-Port', 'X-Forwarded-Prefix', 'X-Forwarded-Server', 'X-Forwarded-Scheme'];
    identity.push('X-Forwarded-Uri', 'X-Real-IP', 'X-Original-Host', 'X-Host', 'X-Original-URL', 'X-Original-URI', 'X-Rewrite-URL', 'X-Envoy-Original-Path');
    const overrides = ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override'];
    const lines: string[] = [];
    const expected: Array<{ line: number; says: RegExp }> = [];
    const add = (request: readonly string[], at: number, says: RegExp): void => {
      if (lines.length > 0) lines.push('###');
      expected.push({ line: lines.length + at, says });
      lines.push(...request);
    };
    for (const name of [...identity, ...overrides]) {
      // Any case: the second spelling swaps every letter's case.
      const swapped = [...name].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
      const what = overrides.includes(name) ? 'which method the request is' : 'which host, address or path the request is for';
      add([IP, `${name}: value`], 2, new RegExp(`The ${name} header tells a server ${what}`));
      add([`curl -H '${swapped}: value' {{baseUrl}}/v1/duns-search/ip/198.51.100.7`], 1, new RegExp(`The ${swapped} header tells a server ${what}`));
    }
    for (const method of ['TRACE', 'track', 'Connect']) {
      const says = method.toUpperCase() === 'CONNECT' ? /"CONNECT" opens a tunnel/ : new RegExp(`"${method}" asks the server to send the request back`);
      add([`${method} {{baseUrl}}/v1/duns-search/ip/198.51.100.7`], 1, says);
    }
    for (const method of ['TRACE', 'TRACK', 'CONNECT']) {
      const says = method === 'CONNECT' ? /"CONNECT" opens a tunnel/ : new RegExp(`"${method}" asks the server to send the request back`);
      add([`curl -X ${method} {{baseUrl}}/v1/duns-search/ip/198.51.100.7`], 1, says);
    }
    const f = await file('every-identity.bizdata.http', lines);
    for (const command of ['send', 'test']) {
      const r = await run([command, f], canaryEnv(service.url));
      assert.equal(r.code, 2, r.stderr);
      const refused = new Map(r.stderr.split('\n').flatMap((l) => (l.startsWith(`${f}:`) ? [[Number(l.slice(f.length + 1).split(':')[0]), l] as const] : [])));
      for (const { line, says } of expected) assert.match(refused.get(line) ?? `line ${line} is not refused`, says, lines[line - 1]);
      assert.equal(refused.size, expected.length, r.stderr);
    }
    assert.equal(service.seen(), 0, 'nothing reached the service');
  });

  it('refuses a request to the sign-in addresses at its line (any spelling), so the kept token is never dropped', async () => {
    const sb = await sandbox();
    const f = await file('signin.bizdata.http', [IP, '###', 'POST {{authUrl}}/V1//Token/', '###', 'POST {{legacyUrl}}/authentication/V2.0/', '###', 'GET {{baseUrl}}/v1/%74oken', '###', IP]);
    const r = await run(['test', f], canaryEnv(sb.url));
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, new RegExp(`${f}:3: The request goes to Interface A's sign-in \\(/v1/token\\)`));
    assert.match(r.stderr, new RegExp(`${f}:5: The request goes to Interface B's sign-in`));
    assert.match(r.stderr, new RegExp(`${f}:7: The request goes to Interface A's sign-in`));
    const customer = await sb.customer();
    assert.deepEqual([customer.tokenRequests, customer.dataCalls], [0, 0]);
  });

  it('refuses a ";" and an encoded "/" or "\\" (any case, encoded again) in a path at their lines, in send, test and curl commands: nothing reaches the service', async () => {
    const service = await countingService();
    const f = await file('paths.bizdata.http', [
      'GET {{baseUrl}}/v1/token;x',
      '###',
      'GET {{baseUrl}}/v1/duns-search/ip/..%2f..%2ftoken',
      '###',
      'GET {{baseUrl}}/v1/duns-search/ip/..%5C..%5Ctoken?view=standard',
      '###',
      'GET {{baseUrl}}/v1/duns-search/ip/..%252F..%25252ftoken',
      '###',
      'GET {{legacyUrl}}/V4.0;jsessionid=1/organizations?CountryISOAlpha2Code=US&SubjectName=Example',
      '###',
      `curl '{{baseUrl}}/v1/duns-search/ip/%2e%2e%2F%2e%2e%2Ftoken'`,
      '###',
      '# A ";" in the query string is a value like any other.',
      'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7?view=standard;x',
    ]);
    for (const command of ['send', 'test']) {
      const r = await run([command, f], canaryEnv(service.url));
      assert.equal(r.code, 2, r.stderr);
      const refused = (line: number, segment: string, what: string): RegExp => new RegExp(`${f}:${line}: The path segment "${segment}" holds ${what}.*, so the service could read the path as another one than the client checked`);
      assert.match(r.stderr, refused(1, 'token;x', 'a ";" \\(a path parameter'));
      assert.match(r.stderr, refused(3, '\\.\\.%2f\\.\\.%2ftoken', 'an encoded "/"'));
      assert.match(r.stderr, refused(5, '\\.\\.%5C\\.\\.%5Ctoken', 'an encoded "\\\\"'));
      assert.match(r.stderr, refused(7, '\\.\\.%252F\\.\\.%25252ftoken', 'an encoded "/"'));
      assert.match(r.stderr, refused(9, 'V4\\.0;jsessionid=1', 'a ";"'));
      assert.match(r.stderr, refused(11, '%2e%2e%2F%2e%2e%2Ftoken', 'an encoded "/"'));
      assert.doesNotMatch(r.stderr, new RegExp(`${f}:14:`), 'a ";" in the query is no path parameter');
    }
    assert.equal(service.seen(), 0, 'nothing reached the service');
  });

  it("refuses a data row's value that puts an encoded \"/\" or a \";\" in the path: that row fails, the others are sent, and it never reaches the wire", async () => {
    const sb = await sandbox();
    const relay = await startListener('127.0.0.1', 0, sb.url);
    try {
      const f = await file('rows.bizdata.http', ['GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard']);
      await writeFile(join(dir, 'rows.data.csv'), 'ip\n198.51.100.7\n..%2F..%2Ftoken\nx;y\n198.51.100.8\n');
      const r = await run(['send', f], canaryEnv(relay.url));
      assert.notEqual(r.code, 0, r.stderr);
      const lines = (await readFile(join(dir, 'rows.data.results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { line: number; ok: boolean; error?: { text: string } });
      const byLine = new Map(lines.map((l) => [l.line, l]));
      assert.match(byLine.get(3)?.error?.text ?? '', /rows\.data\.csv:3: .*The path segment "\.\.%2F\.\.%2Ftoken" holds an encoded "\/"/);
      assert.match(byLine.get(4)?.error?.text ?? '', /rows\.data\.csv:4: .*The path segment "x;y" holds a ";"/);
      assert.deepEqual([byLine.get(2)?.ok, byLine.get(5)?.ok], [true, true], 'the other rows were sent');
      const paths = relay.received.map((x) => x.path);
      assert.deepEqual(paths.filter((p) => !p.startsWith('/v1/token')).sort(), ['/v1/duns-search/ip/198.51.100.7?view=standard', '/v1/duns-search/ip/198.51.100.8?view=standard']);
    } finally {
      await relay.close();
    }
  });

  it('refuses JSONPath match() and search() at their line instead of running them on a backtracking engine', async () => {
    const sb = await sandbox();
    // The sandbox quotes the bad SubjectName back: 40 "a" and a "!".
    const f = await file('redos.bizdata.http', ['GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=ZZ&SubjectName=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', '?? body $..[?search(@, "(a+)+$")] !exists']);
    // Before the change this ran at full CPU for minutes: the harness ends it after 20 s.
    const r = await run(['test', f], canaryEnv(sb.url), 20_000);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${f}:2: .*calls search\\(\\), whose regular expression would run on a backtracking engine`));
    assert.match(r.stderr, /check it with "matches", which runs on RE2/);
    // A chained value reads paths through the same module.
    const chained = await file('chained.bizdata.http', ['# @name x', IP, '###', `@v = {{x.response.body.$[?match(@.a, "(a|a)*b")]}}`, 'GET {{baseUrl}}/v1/duns-search/ip/{{v}}?view=standard']);
    const c = await run(['send', chained], canaryEnv(sb.url), 20_000);
    assert.equal(c.code, 2, c.stderr);
    assert.match(c.stderr, new RegExp(`${chained}:4: .*calls match\\(\\)`));
    assert.equal((await sb.customer()).dataCalls, 0);
  });

  it('ends bizdata test on SIGTERM while an answer never comes, and writes the JUnit report of what ran', async function () {
    this.timeout(60_000);
    const sb = await sandbox();
    await sb.admin('POST', 'faults', { type: 'latency', path: '/V4.0/', latencyMs: 120_000 });
    const f = await file('long.bizdata.http', [IP, '?? status == 200', '###', ORG, '?? status == 200']);
    const junit = join(dir, 'report.xml');
    const child = spawn(process.execPath, [CLI, 'test', f, '--junit', junit, '--timeout', '600'], { env: cliEnv(canaryEnv(sb.url), dir) });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const exit = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('close', (code, signal) => resolve(signal ?? code)));
    try {
      // Every request is counted as it arrives: A's sign-in, the first request, B's sign-in, the second (held).
      await waitFor('the second request on the wire', async () => (((await sb?.stats())?.requests ?? 0) >= 4 ? true : undefined), 30_000);
      child.kill('SIGTERM');
      // A deadline for the harness only (before the change the process waited the 600 s --timeout).
      const ended = await Promise.race([exit, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000).unref())]);
      assert.equal(ended, 'SIGTERM', out);
    } finally {
      child.kill('SIGKILL');
      captured.push(out);
    }
    await stat(junit);
    const xml = await readFile(junit, 'utf8');
    assert.match(xml, /<testcase name="request 1"/);
    assert.doesNotMatch(xml, /request 2/, 'the request cut by the signal is no test result');
    assertNoCanary([xml]);
  });

  it('judges no assertion against a failed sign-in: a 307 from the token endpoint, a B answer that does not echo TransactionDetail', async () => {
    const sb = await sandbox();
    await sb.admin('POST', 'faults', { type: 'respond', path: '/v1/token', status: 307, headers: { location: 'https://elsewhere.example.net/v1/token' }, body: '' });
    await sb.admin('POST', 'faults', { type: 'respond', path: '/Authentication/', status: 200, headers: { authorization: 'not-echoed-token' }, body: { TransactionResult: { ResultID: 'CM000' } } });
    const f = await file('signin-fails.bizdata.http', ['# @name viaA', IP, '?? status == 307', '###', '# @name viaB', ORG, '?? status == 200']);
    const junit = join(dir, 'report.xml');
    const r = await run(['test', f, '--junit', junit], canaryEnv(sb.url));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0], new RegExp(`^ERROR ${f}:2 viaA: GET http://127\\.0\\.0\\.1:\\d+/v1/duns-search/ip/198\\.51\\.100\\.7\\?view=standard$`));
    assert.ok(lines.some((l) => l.startsWith(`  ${f}:2: The sign-in failed, so the request was not sent: `)), r.stdout);
    assert.ok(lines.some((l) => /^ERROR .*:6 viaB: GET .*\/V4\.0\/organizations/.test(l)), r.stdout);
    assert.match(r.stdout, /0 passed, 0 failed, 2 errors/);
    const xml = await readFile(junit, 'utf8');
    for (const text of [r.stdout, xml]) assert.ok(!/\/v1\/token|\/Authentication\//.test(text), `no report names a sign-in address as the request: ${text}`);
    assert.equal((await sb.customer()).dataCalls, 0);
  });

  it('sends nothing for a file whose requests are all # @disabled, and exits 0 with one line saying so', async () => {
    const service = await countingService();
    const f = await file('disabled.bizdata.http', ['# @disabled', IP, '###', '# @disabled', ORG]);
    const sent = await run(['send', f], canaryEnv(service.url));
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(sent.stderr, `${f}: all 2 requests are marked "# @disabled", so nothing was sent. Delete "# @disabled" above a request to send it.\n`);
    assert.equal(sent.stdout, '');
    const junit = join(dir, 'report.xml');
    const tested = await run(['test', f, '--junit', junit], canaryEnv(service.url));
    assert.equal(tested.code, 0, tested.stderr);
    assert.equal(tested.stdout, `${f}: all 2 requests are marked "# @disabled", so nothing was sent. Delete "# @disabled" above a request to send it.\n`);
    assert.match(await readFile(junit, 'utf8'), /<testsuites name="bizdata test" tests="0"/);
    assert.equal(service.seen(), 0);
  });

  it('ends a data run whose requests are all # @disabled as a run without data: its one line, exit 0, nothing sent, no results written', async () => {
    const service = await countingService();
    const f = await file('disabled-rows.bizdata.http', ['# @disabled', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '###', '# @disabled', ORG]);
    const rows = join(dir, 'ips.csv');
    await writeFile(rows, 'ip\n198.51.100.7\n198.51.100.8\n');
    const line = `${f}: all 2 requests are marked "# @disabled", so nothing was sent. Delete "# @disabled" above a request to send it.\n`;
    const sent = await run(['send', f, '--data', rows, '--concurrency', '2'], canaryEnv(service.url));
    assert.deepEqual([sent.code, sent.stdout, sent.stderr], [0, '', line], 'send: the line on stderr, as without data');
    const junit = join(dir, 'j.xml');
    const tested = await run(['test', f, '--data', rows, '--junit', junit], canaryEnv(service.url));
    assert.deepEqual([tested.code, tested.stdout, tested.stderr], [0, line, ''], 'test: the line as its result, as without data');
    assert.match(await readFile(junit, 'utf8'), /<testsuites name="bizdata test" tests="0"/, 'an empty JUnit file where one was asked for');
    // The data file beside it makes it data-driven too: a line says so, then the same one line.
    await writeFile(join(dir, 'disabled-rows.data.csv'), 'ip\n198.51.100.7\n');
    const beside = await run(['test', f], canaryEnv(service.url));
    assert.equal(beside.code, 0, beside.stderr);
    assert.match(beside.stderr, /disabled-rows\.data\.csv is beside \S*disabled-rows\.bizdata\.http: one run per row/);
    assert.equal(beside.stdout, line);
    assert.equal(service.seen(), 0);
    await assert.rejects(stat(join(dir, 'ips.results.jsonl')), 'no results file');
    await assert.rejects(stat(join(dir, 'disabled-rows.data.results.jsonl')), 'no results file');
  });
});
