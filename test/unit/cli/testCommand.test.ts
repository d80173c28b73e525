// `bizdata test` against a real sandbox: what passes, fails and errs, the exit statuses of each stop,
// the three reports (lines, JSON, JUnit valid against the Jenkins schema), a malformed assertion that
// sends nothing, and an SC006 storm that the client waits out without a failure.
import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoCanary, CANARY } from '../core/harness';
import { canaryEnv, sandboxRuns } from './cliHarness';
import { readJunit } from './junitSchema';

const IP = 'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7?view=standard';
const BAD_COUNTRY = 'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=ZZ&SubjectName=Example&match=true&MatchTypeText=Advanced';
const ORG = 'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true&MatchTypeText=Advanced';

interface JsonRun {
  passed: boolean;
  summary: { files: number; requests: number; passed: number; failed: number; errors: number };
  stopped?: { kind: string; code?: string };
  files: Array<{
    file: string;
    requests: Array<{ name: string; line: number; connection: string; verdict: string; status?: number; code?: string; message?: string; messageLine?: number; assertions: Array<{ line: number; assertion: string; passed: boolean; expected: string; actual: string }> }>;
  }>;
}

describe('bizdata test', () => {
  let dir = '';
  const { run, file, sandbox } = sandboxRuns('bizdata-test-', (d) => (dir = d));

  it('passes, fails and errs per request: lines with FILE:LINE, a JSON document, a JUnit report, exit 1', async () => {
    const sb = await sandbox();
    const pass = await file('pass.bizdata.http', ['# @name lookup', IP, '', '?? status == 200', '?? body $.matchCandidates[0].organization.duns matches /^[0-9]{9}$/', '', '###', ORG]);
    const fail = await file('fail.bizdata.http', [
      '# @name wrong',
      IP,
      '?? body $.candidatesMatchedQuantity == 5',
      '?? header content-type includes json',
      '?? body $.nowhere exists',
      '###',
      '# @name refused',
      BAD_COUNTRY,
      '###',
      '# @name chained',
      'GET {{baseUrl}}/v1/duns-search/ip/{{wrong.response.body.$.nowhere}}?view=standard',
      '?? status == 200',
    ]);
    const junit = join(dir, 'report.xml');
    const r = await run(['test', pass, fail, '--junit', junit], canaryEnv(sb.url));
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], new RegExp(`^PASS ${pass}:2 lookup: GET http://127\\.0\\.0\\.1:\\d+/v1/duns-search/ip/198\\.51\\.100\\.7\\?view=standard -> 200 \\(\\d+ ms\\)$`));
    assert.match(lines[1], new RegExp(`^PASS ${pass}:8 request 2: GET .* -> 200 CM000 `));
    assert.match(lines[2], new RegExp(`^FAIL ${fail}:2 wrong: GET .* -> 200 `));
    assert.equal(lines[3], `  ${fail}:3: body $.candidatesMatchedQuantity: expected == 5, actual 1`);
    assert.equal(lines[4], `  ${fail}:5: body $.nowhere: expected exists, actual (missing)`);
    assert.match(lines[5], new RegExp(`^FAIL ${fail}:8 refused: GET .* -> 400 invalid_request `));
    assert.match(lines[6], new RegExp(`^  ${fail}:8: The answer is no success \\(HTTP 400 invalid_request\\): .*"ZZ" is not an assigned ISO 3166.* To expect this answer, assert it, as "\\?\\? status == 400" or "\\?\\? code == invalid_request"\\.$`));
    assert.match(lines[7], new RegExp(`^ERROR ${fail}:11 chained: GET `));
    assert.match(lines[8], new RegExp(`^  ${fail}:11: \\{\\{wrong\\.response\\.body\\.\\$\\.nowhere\\}\\} has no value`));
    assert.match(lines[9], /^2 files, 5 requests: 2 passed, 2 failed, 1 error \((?:\d+ ms|\d+\.\d s)\)$/);
    assert.equal(lines.length, 10);

    const xml = await readFile(junit, 'utf8');
    assertNoCanary([xml]);
    const suites = await readJunit(xml);
    assert.deepEqual(
      suites.map((s) => [s.name, s.tests, s.failures, s.errors]),
      [
        [pass, 2, 0, 0],
        [fail, 3, 2, 1],
      ],
    );
    const [wrong, refused, chained] = suites[1].cases;
    assert.deepEqual([wrong.name, wrong.classname], ['wrong', fail]);
    assert.equal(wrong.failure?.message, `${fail}:3: body $.candidatesMatchedQuantity: expected == 5, actual 1`);
    assert.equal(wrong.failure?.text, `${fail}:3: body $.candidatesMatchedQuantity: expected == 5, actual 1\n${fail}:5: body $.nowhere: expected exists, actual (missing)`);
    assert.match(refused.failure?.message ?? '', new RegExp(`^${fail}:8: The answer is no success`));
    assert.match(chained.error?.message ?? '', new RegExp(`^${fail}:11: \\{\\{wrong`));
    assert.equal(wrong.error, undefined);
    assert.equal(chained.failure, undefined);
    assert.match(wrong.time, /^\d+\.\d{3}$/);
    const props = suites[1].properties;
    assert.deepEqual(
      [props.get('file'), props.get('connection'), props.get('request.1.name'), props.get('request.2.name'), props.get('request.2.connection'), props.get('request.2.resultCode'), props.get('request.3.name')],
      [fail, 'default', 'wrong', 'refused', 'default', 'invalid_request', 'chained'],
    );
    assert.equal(suites[0].properties.get('request.2.resultCode'), 'CM000');

    const j = await run(['test', pass, fail, '--json'], canaryEnv(sb.url));
    assert.equal(j.code, 1);
    const doc = JSON.parse(j.stdout) as JsonRun;
    assert.deepEqual([doc.passed, doc.summary], [false, { files: 2, requests: 5, passed: 2, failed: 2, errors: 1 }]);
    const [w, ref, ch] = doc.files[1].requests;
    assert.deepEqual(
      w.assertions.map((a) => [a.line, a.assertion, a.passed, a.expected, a.actual]),
      [
        [3, 'body $.candidatesMatchedQuantity == 5', false, '== 5', '1'],
        [4, 'header content-type includes json', true, 'includes json', '"application/json; charset=utf-8"'],
        [5, 'body $.nowhere exists', false, 'exists', '(missing)'],
      ],
    );
    assert.deepEqual([ref.verdict, ref.status, ref.code, ref.line], ['failed', 400, 'invalid_request', 8]);
    assert.deepEqual([ch.verdict, ch.messageLine, ch.status], ['error', 11, undefined]);
    // The chained request was never sent: a data call each for the other four, two runs.
    assert.equal((await sb.customer()).dataCalls, 8);
  });

  it('exits 0 when everything passes', async () => {
    const sb = await sandbox();
    const ok = await file('ok.bizdata.http', [IP, '?? status == 200', '###', BAD_COUNTRY, '?? status == 400', '?? code == invalid_request']);
    const r = await run(['test', ok], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /1 file, 2 requests: 2 passed, 0 failed, 0 errors/);
  });

  it('refuses a malformed assertion at its line before anything is sent, saying what to write (exit 2)', async () => {
    const sb = await sandbox();
    const good = await file('good.bizdata.http', [IP, '?? status == 200']);
    const bad = await file('bad.bizdata.http', [IP, '?? status == 200', '?? js response.statusCode === 200', '###', ORG, '?? body $.a contains b']);
    const r = await run(['test', good, bad, '--junit', join(dir, 'report.xml')], canaryEnv(sb.url));
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`nothing was sent: ${bad} has 2 problems\\.\\n${bad}:3: "\\?\\? js" runs JavaScript, and request files here never run code.*\\n${bad}:6: "contains" is not an operator here: write "includes" instead of "contains"\\.`));
    assert.equal((await sb.stats()).requests, 0);
    await assert.rejects(readFile(join(dir, 'report.xml')));
  });

  it('judges a catastrophic "matches" pattern instead of hanging, and refuses one that needs backtracking (exit 2)', async () => {
    const sb = await sandbox();
    // On JavaScript's RegExp the first pattern backtracks through 2^30 ways against the 31 characters
    // of "application/json; charset=utf-8" and the run never ends.
    const slow = await file('slow.bizdata.http', [IP, '?? header content-type matches /^(.+)+!$/', '?? header content-type matches /^(.+)+8$/']);
    const r = await run(['test', slow, '--json'], canaryEnv(sb.url));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as JsonRun;
    assert.deepEqual(
      report.files[0].requests[0].assertions.map((a) => [a.line, a.passed, a.actual]),
      [
        [2, false, '"application/json; charset=utf-8"'],
        [3, true, '"application/json; charset=utf-8"'],
      ],
    );
    const backtracking = await file('lookahead.bizdata.http', [IP, '?? code matches /^CM(?!0)/']);
    const refused = await run(['test', backtracking], canaryEnv(sb.url));
    assert.equal(refused.code, 2);
    assert.ok(refused.stderr.includes(`${backtracking}:2: "/^CM(?!0)/" has a lookahead`), refused.stderr);
    assert.match(refused.stderr, /Match the text itself instead/);
    assert.equal((await sb.customer()).dataCalls, 1);
  });

  it('stops the run as an error on refused credentials (exit 3), and the lockout guard stops it before a third try', async () => {
    const sb = await sandbox();
    const f = await file('auth.bizdata.http', [ORG, '?? status == 200', '###', ORG]);
    const env = { ...canaryEnv(sb.url), BIZDATA_PASSWORD: 'wrong-password' };
    const junit = join(dir, 'report.xml');
    const first = await run(['test', f, '--junit', junit], env);
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stdout, new RegExp(`^ERROR ${f}:1 request 1: GET `));
    assert.match(first.stdout, /1 file, 1 request: 0 passed, 0 failed, 1 error/);
    assert.match(first.stderr, /the run stopped: no other request was sent\.\nbizdata: auth failure \(SC001/);
    const xml = await readFile(junit, 'utf8');
    assertNoCanary([xml]);
    const [suite] = await readJunit(xml);
    assert.deepEqual([suite.tests, suite.errors, suite.cases[0].error?.type], [1, 1, 'SC001']);
    assert.equal((await run(['test', f], env)).code, 3);
    const third = await run(['test', f, '--json'], env);
    assert.equal(third.code, 3);
    assert.match(third.stderr, /refused by the lockout guard/);
    const doc = JSON.parse(third.stdout) as JsonRun;
    assert.deepEqual([doc.passed, doc.stopped?.kind, doc.summary.errors], [false, 'guard', 1]);
    const user = (await sb.admin('GET', 'users/canaryUSER-5c2e90aa')) as { locked: boolean; failures: number };
    assert.deepEqual({ locked: user.locked, failures: user.failures }, { locked: false, failures: 2 });
  });

  it('stops the run on a contract limit with exit 4, sending nothing after it', async () => {
    const sb = await sandbox({ contractLimit: 1 });
    const f = await file('limit.bizdata.http', [IP, '###', IP, '###', IP]);
    const r = await run(['test', f], canaryEnv(sb.url));
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stdout, /1 file, 2 requests: 1 passed, 0 failed, 1 error/);
    assert.match(r.stderr, /SC005/);
    assert.equal((await sb.customer()).dataCalls, 2);
  });

  it('counts no failure in an SC006 storm: the client waits out the rate limit and retries', async function () {
    this.timeout(90_000);
    const sb = await sandbox({ qps: 2, concurrency: 1 });
    const lines = Array.from({ length: 8 }, (_, i) => [`GET {{baseUrl}}/v1/duns-search/ip/198.51.100.${i + 1}?view=standard`, '?? status == 200', '?? body $.candidatesMatchedQuantity == 1', '###']).flat();
    const f = await file('storm.bizdata.http', lines);
    const r = await run(['test', f, '--json', '--qps', '50'], canaryEnv(sb.url), 80_000);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as JsonRun;
    assert.deepEqual(doc.summary, { files: 1, requests: 8, passed: 8, failed: 0, errors: 0 });
    const stats = await sb.customer();
    assert.ok((stats.resultCodes.SC006 ?? 0) > 0, `the sandbox refused some calls with SC006: ${JSON.stringify(stats.resultCodes)}`);
  });

  it('sends each request through its connection (--connection, # @connection) and names it in every report', async () => {
    const sb = await sandbox();
    const other = await sandbox();
    try {
      const address = (url: string) => ({ authUrl: url, baseUrl: url, legacyUrl: url, origin: 'https://app.example.com' });
      const connections = join(dir, 'connections.json');
      await writeFile(connections, JSON.stringify({ active: 'test', connections: { test: address(sb.url), other: address(other.url) } }));
      const f = await file('two.bizdata.http', [IP, '?? status == 200', '###', '# @connection other', IP, '?? status == 200']);
      const junit = join(dir, 'report.xml');
      // "other" takes only its own credentials, given by name.
      const otherCreds = { BIZDATA_OTHER_CONSUMER_KEY: CANARY.consumerKey, BIZDATA_OTHER_CONSUMER_SECRET: CANARY.consumerSecret };
      const r = await run(['test', f, '--connections', connections, '--json', '--junit', junit], { ...canaryEnv(sb.url), ...otherCreds });
      assert.equal(r.code, 0, r.stderr);
      const doc = JSON.parse(r.stdout) as JsonRun;
      assert.deepEqual(doc.files[0].requests.map((q) => q.connection), ['test', 'other']);
      assert.deepEqual([(await sb.customer()).dataCalls, (await other.customer()).dataCalls], [1, 1]);
      const [suite] = await readJunit(await readFile(junit, 'utf8'));
      assert.deepEqual([suite.properties.get('connection'), suite.properties.get('request.1.connection'), suite.properties.get('request.2.connection')], ['test, other', 'test', 'other']);
      // --connection chooses the run's connection: the request without its own goes there too.
      const chosen = await run(['test', f, '--connections', connections, '--connection', 'other'], canaryEnv(sb.url));
      assert.equal(chosen.code, 0, chosen.stderr);
      assert.deepEqual([(await sb.customer()).dataCalls, (await other.customer()).dataCalls], [1, 3]);
      // A name that names no connection refuses the run at its line, nothing sent.
      const typo = await file('typo.bizdata.http', ['# @connection nowhere', IP]);
      const refused = await run(['test', f, typo, '--connections', connections], canaryEnv(sb.url));
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, new RegExp(`${typo}:1: `));
      assert.deepEqual([(await sb.customer()).dataCalls, (await other.customer()).dataCalls], [1, 3]);
    } finally {
      await other.close();
    }
  });

  it('reads every *.bizdata.http under a folder, and refuses a folder without one', async () => {
    const sb = await sandbox();
    await file('one.bizdata.http', [IP]);
    await file('notes.http', ['GET https://elsewhere.example.net/']);
    const r = await run(['test', dir], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^PASS .*one\.bizdata\.http:1 /);
    assert.match(r.stdout, /1 file, 1 request: 1 passed/);
    const help = await run(['test', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: bizdata test FILE\|DIR\.\.\. \[--junit FILE\] \[--json\]/);
    assert.match(help.stdout, /they are data, and no JavaScript ever runs/);
    assert.equal((await run(['test'])).code, 2);
    const none = await run(['test', await file('none.bizdata.http', ['# nothing yet'])], canaryEnv(sb.url));
    assert.equal(none.code, 2);
    assert.match(none.stderr, /none\.bizdata\.http holds no request\. Write one as "GET \{\{baseUrl\}\}\/v1\/…"/);
    const empty = await run(['test', join(__dirname)], canaryEnv(sb.url));
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /No \*\.bizdata\.http file under .*\. Name request files like lookups\.bizdata\.http/);
  });
});
