// `--report FILE.html` of `bizdata test`, `send` and `batch` against a real sandbox: a passing run, a
// failing run and a 10,000-row batch, each report's numbers read back from its static HTML and checked
// against the same run's --json or summary (counts, codes, the one duration, the limit's label), its
// calls chart scaled to the run, a 429 the client waits out marked; the page's CSP allows exactly its
// inline script and style (by hash), its only links are relative file links, and no canary credential
// or token is in it.
import * as assert from 'node:assert/strict';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { canaryEnv, sandboxRuns } from './cliHarness';
import { assertScaledToRun, assertSelfContained, codeCounts, durationMs, limitSource, shown } from './reportPage';

const IP = 'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7?view=standard';
const ORG = 'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true&MatchTypeText=Advanced';

interface TestJson {
  summary: { requests: number; passed: number; failed: number; errors: number };
  durationMs: number;
  files: Array<{ requests: Array<{ code?: string; verdict: string; assertions: Array<{ line: number; passed: boolean; expected: string; actual: string }> }> }>;
}

describe('run reports (--report)', function () {
  this.timeout(180_000);
  let dir = '';
  const { run, file, sandbox } = sandboxRuns('bizdata-report-', (d) => (dir = d));

  it('a passing test run: the counts, codes and duration of the report are those of --json and JUnit; no limit is named before one is known', async () => {
    const sb = await sandbox();
    const pass = await file('pass.bizdata.http', ['# @name lookup', IP, '?? status == 200', '###', '# @name org', ORG, '?? code == CM000']);
    const report = join(dir, 'report.html');
    const junit = join(dir, 'junit.xml');
    const r = await run(['test', pass, '--json', '--report', report, '--junit', junit], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as TestJson;
    const html = await readFile(report, 'utf8');
    assert.equal(shown(html, 'total'), json.summary.requests);
    assert.equal(shown(html, 'passed'), json.summary.passed);
    assert.equal(shown(html, 'failed'), 0);
    assert.equal(shown(html, 'errors'), 0);
    // Every request the sandbox saw (two lookups, a sign-in per interface) is on the page.
    assert.equal(shown(html, 'calls'), (await sb.stats()).requests);
    assert.equal(shown(html, 'signins'), 2);
    assert.match(html, /<span data-count="signins">2<\/span> sign-ins and 2 data calls/);
    assert.equal(codeCounts(html).get('CM000'), json.files[0].requests.filter((q) => q.code === 'CM000').length);
    assert.match(html, /Success — The call succeeded/, "CM000 in the catalog's words, as explainLine writes them");
    // One duration: the page's, the JSON's and JUnit's are the same figure.
    assert.equal(durationMs(html), json.durationMs);
    assert.match(await readFile(junit, 'utf8'), new RegExp(`<testsuites [^>]*time="${(json.durationMs / 1000).toFixed(3).replace('.', '\\.')}"`));
    // A sandbox that refused nothing, and no cap given: no limit is known, and none is named.
    assert.equal(limitSource(html), 'unknown');
    assert.match(html, /not known yet/);
    assertScaledToRun(html);
    // The slowest calls and the response times count the same calls: the data calls, sign-ins aside.
    assert.match(html, /2 data calls: median \d+ ms, slowest \d+ ms; 2 sign-ins not counted/);
    assert.equal([...html.matchAll(/<tr><td class="num">\d+ ms<\/td>/g)].length, 2, 'the two data calls in the slowest table');
    assertSelfContained(html);
  });

  it('a failing test run: every failure at FILE:LINE with expected, actual, the request and the answer, redacted', async () => {
    const sb = await sandbox();
    const fail = await file('fail.bizdata.http', ['# @name wrong', IP, '?? body $.candidatesMatchedQuantity == 5', '###', '# @name refused', ORG.replace('=US', '=ZZ'), '###', '# @name fine', IP]);
    // The first lookup is throttled once (429, Retry-After 1 s): the client waits and retries; the report marks the wait.
    await sb.admin('POST', 'faults', { type: 'respond', count: 1, status: 429, path: '/v1/duns-search', headers: { 'retry-after': '1' }, body: { error: { errorCode: '429', errorMessage: 'Too many requests' } } });
    const report = join(dir, 'report.html');
    const r = await run(['test', fail, '--json', '--report', report], canaryEnv(sb.url));
    assert.equal(r.code, 1, r.stderr);
    const json = JSON.parse(r.stdout) as TestJson;
    const html = await readFile(report, 'utf8');
    for (const name of ['passed', 'failed', 'errors'] as const) assert.equal(shown(html, name), json.summary[name], name);
    assert.equal(shown(html, 'failed'), 2);
    assert.equal(durationMs(html), json.durationMs);
    const wrong = json.files[0].requests[0].assertions[0];
    assert.ok(html.includes(`${fail}:${wrong.line}`.replace(/&/g, '&amp;')), 'the failed assertion at FILE:LINE');
    assert.ok(html.includes(`<td>${wrong.expected}</td><td>${wrong.actual}</td>`), 'expected and actual');
    assert.match(html, /<h4>Request<\/h4><pre>GET http:\/\/127\.0\.0\.1:\d+\/V4\.0\/organizations\?CountryISOAlpha2Code=ZZ/);
    assert.match(html, /authorization: &lt;TOKEN&gt;/i, 'the request as sent, its token a placeholder');
    assert.match(html, /<h4>Answer<\/h4><pre>\{/);
    assert.equal(codeCounts(html).get('invalid_request'), 1);
    assert.equal(shown(html, 'waits'), 1, 'the wait for the 429');
    assert.match(html, /"waits":\[\{"second":\d+,"ms":\d+,"what":"HTTP 429[^"]*"\}\]/, 'marked on the timeline');
    assert.equal(codeCounts(html).get('HTTP 429') ?? codeCounts(html).get('429'), 1, 'the throttled answer among the codes');
    // Each code's words once: in the one codes table, and nowhere a sentence twice.
    assert.equal([...html.matchAll(/<table id="codes">/g)].length, 1);
    for (const words of html.matchAll(/<td>([^<]{20,})<\/td><\/tr>/g)) {
      const sentences = words[1].split(/(?<=\.)\s+/).map((s) => s.trim()).filter((s) => s.length > 12);
      assert.equal(new Set(sentences).size, sentences.length, `a sentence said twice: ${words[1]}`);
    }
    assertScaledToRun(html);
    assertSelfContained(html);
  });

  it('bizdata send: each request sent, passed by a successful answer, and the failure that stopped it', async () => {
    const sb = await sandbox();
    const calls = await file('calls.bizdata.http', ['# @name lookup', IP, '###', '# @name refused', ORG.replace('=US', '=ZZ'), '###', '# @name never', IP]);
    const report = join(dir, 'send.html');
    const r = await run(['send', calls, '--report', report], canaryEnv(sb.url));
    assert.notEqual(r.code, 0, 'the refused request stops the run');
    const html = await readFile(report, 'utf8');
    assert.equal(shown(html, 'total'), 2, 'the two requests sent; the third never was');
    assert.equal(shown(html, 'passed'), 1);
    assert.equal(shown(html, 'failed'), 1);
    assert.equal(shown(html, 'calls'), (await sb.stats()).requests);
    assert.ok(html.includes(`${calls}:5`), 'the failure at FILE:LINE');
    assertSelfContained(html);
  });

  it('a batch report links its results file only as a relative file, whatever the file is named', async () => {
    const sb = await sandbox();
    const input = await file('ips.txt', ['198.51.100.7']);
    await mkdir(join(dir, 'out'));
    // Names a browser would read as a script, another page's part or a query, if written as they are.
    for (const name of ['javascript:alert(document.domain)', 'out/mailto:x@example.com', '#top?x=1.jsonl']) {
      const out = join(dir, name);
      const report = join(dir, 'batch.html');
      const r = await run(['batch', input, '--out', out, '--report', report], canaryEnv(sb.url));
      assert.equal(r.code, 0, r.stderr);
      const html = await readFile(report, 'utf8');
      const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      assert.equal(hrefs.length, 1, `one link, to the results file: ${hrefs.join(' ')}`);
      assert.match(hrefs[0], /^\.\/[^:?#]*$/, 'a relative file link: no scheme, query or fragment');
      assert.equal(fileURLToPath(new URL(hrefs[0], pathToFileURL(report))), out, 'it opens the results file');
      assert.ok(html.includes(`>${name.replace(/&/g, '&amp;')}</a>`), 'the link shows the name as it is');
    }
  });

  it('a 10,000-row batch: the rows by outcome and per code as the summary and the results file say, in a small file, its results link relative', async () => {
    const sb = await sandbox({ qps: 100_000, concurrency: 64 });
    const rows = Array.from({ length: 10_000 }, (_, i) => (i % 1000 === 999 ? `999.0.${Math.floor(i / 1000)}.1` : `198.51.${Math.floor(i / 250)}.${i % 250}`));
    const input = await file('ips.txt', rows);
    // A results file named like a script link: the report links it as a file beside it, never as a script.
    const out = join(dir, 'javascript:alert(1).jsonl');
    const report = join(dir, 'batch.html');
    const r = await run(['batch', input, '--out', out, '--concurrency', '32', '--qps', '5000', '--report', report], canaryEnv(sb.url), 170_000);
    assert.equal(r.code, 1, r.stderr);
    const summary = JSON.parse(r.stdout) as {
      ok: number;
      failed: number;
      durationMs: number;
      job: { rows: number; ok: number; failed: number; notDone: number };
      limit: { qps: number | null; source: string };
    };
    const html = await readFile(report, 'utf8');
    assert.equal(shown(html, 'total'), summary.job.rows);
    assert.equal(shown(html, 'passed'), summary.job.ok);
    assert.equal(shown(html, 'failed'), summary.job.failed);
    assert.equal(shown(html, 'notdone'), summary.job.notDone);
    assert.equal(shown(html, 'thisrun'), summary.ok + summary.failed);
    assert.equal(summary.failed, 10, 'the ten addresses that are not IP addresses');
    assert.equal(durationMs(html), summary.durationMs);
    // The cap given is the limit named, in the summary and on the page.
    assert.deepEqual(summary.limit, { qps: 5000, source: 'configured' });
    assert.equal(limitSource(html), 'configured');
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; code?: string; status?: number });
    const perCode = codeCounts(html, 'rows');
    assert.equal([...perCode.values()].reduce((a, b) => a + b, 0), lines.length, 'every row of the job counted once');
    assert.equal(perCode.get('HTTP 200'), lines.filter((l) => l.ok && l.code === undefined).length);
    const link = /<a href="\.\/javascript%3Aalert\(1\)\.jsonl">javascript:alert\(1\)\.jsonl<\/a>/;
    assert.match(html, link, 'a relative link to the results file, beside the report');
    assertScaledToRun(html);
    const size = (await stat(report)).size;
    assert.ok(size < 200_000, `the report of 10,000 rows is ${size} bytes`);
    assertSelfContained(html);
  });
});
