// The run report in Chromium, as someone opens a CI artifact: `bizdata test --report` against a real
// sandbox (with canary credentials), the file opened from disk. The charts draw (non-empty canvases),
// the counts on the page are the run's (--json), the browser logs no error (a CSP violation is one)
// and makes no network request, and no canary credential or token is in the file. Takes the README's
// screenshot media/screenshots/report.png with BIZDATA_UPDATE_SCREENSHOTS=1.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'mocha';
import { runCli, startCliSandbox } from '../../scripts/examples-report.mjs';
import { launchChromium } from '../../scripts/vscode-host.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const screenshots = process.env.BIZDATA_UPDATE_SCREENSHOTS === '1' ? join(root, 'media', 'screenshots') : join(root, 'test-results', 'screenshots');
const CANARY = { consumerKey: 'canaryKEY-e2e-31d7', consumerSecret: 'canarySECRET-e2e-9a04', user: 'canaryUSER-e2e-77c1', password: 'canaryPASS-e2e-c5b2' };

const REQUESTS = [
  '# @name ipLookup',
  'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7?view=standard',
  '?? status == 200',
  '?? body $.matchCandidates[0].organization.duns matches /^[0-9]{9}$/',
  '',
  '###',
  '# @name wrongCount',
  'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard',
  '?? body $.candidatesMatchedQuantity == 5',
  '',
  '###',
  '# @name match',
  'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=GB&SubjectName=Granite%20Textiles&match=true&MatchTypeText=Advanced',
  '?? code == CM000',
  '',
  '###',
  '# @name unknownCountry',
  'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=ZZ&SubjectName=Example&match=true&MatchTypeText=Advanced',
  '?? code == CM000',
].join('\n');

describe('the run report in Chromium', function () {
  let dir;
  let sandbox;
  let browser;
  let report;
  let json;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'bizdata-report-e2e-'));
    mkdirSync(screenshots, { recursive: true });
    const config = join(dir, 'sandbox.json');
    writeFileSync(config, JSON.stringify({ customers: [{ id: 'acme', qps: 50, concurrency: 4, clients: [{ consumerKey: CANARY.consumerKey, consumerSecret: CANARY.consumerSecret }], users: [{ user: CANARY.user, password: CANARY.password }] }] }));
    const started = await startCliSandbox(['--config', config]);
    sandbox = started.sandbox;
    const file = join(dir, 'checks.bizdata.http');
    writeFileSync(file, REQUESTS);
    report = join(dir, 'report.html');
    const env = {
      BIZDATA_AUTH_URL: started.url,
      BIZDATA_BASE_URL: started.url,
      BIZDATA_LEGACY_URL: started.url,
      BIZDATA_ORIGIN: 'https://app.example.com',
      BIZDATA_CONSUMER_KEY: CANARY.consumerKey,
      BIZDATA_CONSUMER_SECRET: CANARY.consumerSecret,
      BIZDATA_USER: CANARY.user,
      BIZDATA_PASSWORD: CANARY.password,
    };
    const r = await runCli(['test', 'checks.bizdata.http', '--json', '--report', report], env, dir);
    assert.equal(r.code, 1, r.stderr);
    json = JSON.parse(r.stdout);
    browser = await launchChromium({ log: () => undefined });
  });

  after(async function () {
    await browser?.close();
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('draws its charts offline, shows the run\'s counts, logs no error and fetches nothing', async function () {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    const problems = [];
    const requests = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (req) => {
      if (req.url() !== pathToFileURL(report).href) requests.push(req.url());
    });
    await page.goto(pathToFileURL(report).href);
    await page.locator('#timeline canvas').first().waitFor({ timeout: 10_000 });
    // Each chart's canvas has pixels drawn on it.
    const drawn = await page.evaluate(() =>
      ['#timeline canvas', '#durations canvas'].map((selector) => {
        // eslint-disable-next-line no-undef -- runs in the page
        const canvas = document.querySelector(selector);
        if (!canvas) return 0;
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
        return painted;
      }),
    );
    for (const [i, painted] of drawn.entries()) assert.ok(painted > 0, `chart ${i + 1} is empty`);
    const count = async (name) => Number(await page.locator(`[data-count="${name}"]`).textContent());
    assert.equal(await count('total'), json.summary.requests);
    assert.equal(await count('passed'), json.summary.passed);
    assert.equal(await count('failed'), json.summary.failed);
    assert.equal(await count('errors'), json.summary.errors);
    assert.equal(await page.locator('details.failure').count(), json.summary.failed + json.summary.errors);
    assert.deepEqual(problems, [], 'the browser logged no error or warning');
    assert.deepEqual(requests, [], 'the report fetched nothing');
    await page.screenshot({ path: join(screenshots, 'report.png') });
    await page.close();
  });

  it('holds no canary credential and no token', function () {
    const html = readFileSync(report, 'utf8');
    for (const canary of Object.values(CANARY)) assert.ok(!html.includes(canary), `${canary} is in the report`);
    assert.doesNotMatch(html, /Bearer (?!<)[A-Za-z0-9._~+/=-]{8,}/);
    assert.match(html, /authorization: &lt;TOKEN&gt;/i, 'the failed request is shown, its token a placeholder');
  });
});
