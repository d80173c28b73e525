// `--report FILE.html` against a real sandbox: a passing run, a failing run and a 10,000-row batch,
// each report's numbers read back from its static HTML and checked against the same run's --json
// (and a 429 the client waits out, marked);
// the page's CSP allows exactly its inline script and style (by hash), it names no remote address,
// and no canary credential or token is in it.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CANARY, sandbox, type Sandbox } from '../core/harness';
import { canaryEnv, cliRuns } from './cliHarness';

const IP = 'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7?view=standard';
const ORG = 'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true&MatchTypeText=Advanced';

/** The number the page shows for `name` (the static summary, readable with script off). */
function shown(html: string, name: string): number {
  const m = new RegExp(`data-count="${name}">(\\d+)<`).exec(html);
  assert.ok(m, `the report shows no ${name} count`);
  return Number(m[1]);
}

/** Each result code's count in a table of the page (`codes` or `row-codes`). */
function codeCounts(html: string, table: string): Map<string, number> {
  const body = new RegExp(`<table id="${table}">([\\s\\S]*?)</table>`).exec(html)?.[1] ?? '';
  return new Map([...body.matchAll(/data-code="([^"]+)">(\d+)</g)].map((m) => [m[1].replace(/&quot;/g, '"'), Number(m[2])]));
}

/** What every report must be: self-contained, its inline code allowed by hash, no secret in it. */
function assertSelfContained(html: string): void {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
  assert.match(csp, /default-src 'none'/);
  const hash = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 2, 'the chart library and the report script');
  for (const s of scripts) assert.ok(csp.includes(hash(s)), 'the CSP allows each inline script by its hash');
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  assert.ok(csp.includes(hash(style)), 'the CSP allows the inline style by its hash');
  assert.doesNotMatch(html, /<(?:script|link|img|iframe)[^>]+(?:src|href)=/i, 'nothing is loaded from elsewhere');
  for (const canary of Object.values(CANARY)) assert.ok(!html.includes(canary), `no canary ${canary} in the report`);
  assert.doesNotMatch(html, /Bearer (?!<)[A-Za-z0-9._~+/=-]{8,}/, 'no token in the report');
}

interface TestJson {
  summary: { requests: number; passed: number; failed: number; errors: number };
  files: Array<{ requests: Array<{ code?: string; verdict: string; assertions: Array<{ line: number; passed: boolean; expected: string; actual: string }> }> }>;
}

describe('run reports (--report)', function () {
  this.timeout(180_000);
  let dir = '';
  let sb: Sandbox | undefined;
  const { run } = cliRuns('bizdata-report-', (d) => (dir = d));

  afterEach(async () => {
    await sb?.close();
    sb = undefined;
  });

  async function file(name: string, lines: readonly string[]): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, lines.join('\n'));
    return path;
  }

  it('a passing test run: the counts and codes of the report are those of --json', async () => {
    sb = await sandbox();
    const pass = await file('pass.bizdata.http', ['# @name lookup', IP, '?? status == 200', '###', '# @name org', ORG, '?? code == CM000']);
    const report = join(dir, 'report.html');
    const r = await run(['test', pass, '--json', '--report', report], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as TestJson;
    const html = await readFile(report, 'utf8');
    assert.equal(shown(html, 'total'), json.summary.requests);
    assert.equal(shown(html, 'passed'), json.summary.passed);
    assert.equal(shown(html, 'failed'), 0);
    assert.equal(shown(html, 'errors'), 0);
    // Every request the sandbox saw (two lookups, a sign-in per interface) is on the page.
    assert.equal(shown(html, 'calls'), (await sb.stats()).requests);
    assert.equal(codeCounts(html, 'codes').get('CM000'), json.files[0].requests.filter((q) => q.code === 'CM000').length);
    assert.match(html, /Success — The call succeeded/, "CM000 in the catalog's words, as explainLine writes them");
    assertSelfContained(html);
  });

  it('a failing test run: every failure at FILE:LINE with expected, actual, the request and the answer, redacted', async () => {
    sb = await sandbox();
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
    const wrong = json.files[0].requests[0].assertions[0];
    assert.ok(html.includes(`${fail}:${wrong.line}`.replace(/&/g, '&amp;')), 'the failed assertion at FILE:LINE');
    assert.ok(html.includes(`<td>${wrong.expected}</td><td>${wrong.actual}</td>`), 'expected and actual');
    assert.match(html, /<h4>Request<\/h4><pre>GET http:\/\/127\.0\.0\.1:\d+\/V4\.0\/organizations\?CountryISOAlpha2Code=ZZ/);
    assert.match(html, /authorization: &lt;TOKEN&gt;/i, 'the request as sent, its token a placeholder');
    assert.match(html, /<h4>Answer<\/h4><pre>\{/);
    assert.equal(codeCounts(html, 'codes').get('invalid_request'), 1);
    assert.equal(shown(html, 'waits'), 1, 'the wait for the 429');
    assert.match(html, /"waits":\[\{"second":\d+,"ms":\d+,"what":"HTTP 429[^"]*"\}\]/, 'marked on the timeline');
    assert.equal(codeCounts(html, 'codes').get('HTTP 429') ?? codeCounts(html, 'codes').get('429'), 1, 'the throttled answer among the codes');
    assertSelfContained(html);
  });

  it('bizdata send: each request sent, passed by a successful answer, and the failure that stopped it', async () => {
    sb = await sandbox();
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
    sb = await sandbox();
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

  it('a 10,000-row batch: rows by outcome and per code as --json and the results file say, in a small file', async () => {
    sb = await sandbox({ qps: 100_000, concurrency: 64 });
    const rows = Array.from({ length: 10_000 }, (_, i) => (i % 1000 === 999 ? `999.0.${Math.floor(i / 1000)}.1` : `198.51.${Math.floor(i / 250)}.${i % 250}`));
    const input = await file('ips.txt', rows);
    const out = join(dir, 'results.jsonl');
    const report = join(dir, 'batch.html');
    const r = await run(['batch', input, '--out', out, '--concurrency', '32', '--report', report], canaryEnv(sb.url), 170_000);
    assert.equal(r.code, 1, r.stderr);
    const summary = JSON.parse(r.stdout) as { total: number; ok: number; failed: number; skipped: number };
    const html = await readFile(report, 'utf8');
    assert.equal(shown(html, 'total'), summary.total);
    assert.equal(shown(html, 'passed'), summary.ok);
    assert.equal(shown(html, 'failed'), summary.failed);
    assert.equal(shown(html, 'skipped'), summary.skipped);
    assert.equal(summary.failed, 10, 'the ten addresses that are not IP addresses');
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; code?: string; status?: number });
    const perCode = codeCounts(html, 'row-codes');
    assert.equal([...perCode.values()].reduce((a, b) => a + b, 0), lines.length, 'every row of this run counted once');
    assert.equal(perCode.get('HTTP 200'), lines.filter((l) => l.ok && l.code === undefined).length);
    assert.match(html, /<a href="\.\/results\.jsonl">results\.jsonl<\/a>/, 'a link to the results file, beside the report');
    const size = (await stat(report)).size;
    assert.ok(size < 200_000, `the report of 10,000 rows is ${size} bytes`);
    assertSelfContained(html);
  });
});
