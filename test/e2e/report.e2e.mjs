// The run reports in Chromium, as someone opens a CI artifact: each kind made by the built CLI against
// a real sandbox (limited to 10 calls a second, with canary credentials) and opened from disk: a test
// run, a batch, a data run, a data job stopped by Ctrl-C and run again (the whole job's report), and a
// run with no call left to send. Each page: the counts are the run's (its JSON), every chart area is
// drawn or said in words, the calls chart's axis is within a few times the run's highest rate, the
// outcome grid keeps small cells, the browser logs no error (a CSP violation is one) and fetches
// nothing, and no canary credential or token is in the file. With BIZDATA_UPDATE_SCREENSHOTS=1 it
// takes the docs' pictures: media/screenshots/report*.png.
/* global document -- page.evaluate and waitForFunction run their functions in the page */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
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

const CHECKS = [
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
const LOOKUP = ['### lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '?? status == 200', ''].join('\n');
const ips = (from, count) => Array.from({ length: count }, (_, i) => `198.51.100.${from + i}`);

/** Each kind of report: its file, what its JSON says, and the picture's name and height. */
const reports = {};

describe('the run reports in Chromium', function () {
  let dir;
  let sandbox;
  let browser;
  let env;

  const cli = async (args, expected) => {
    const r = await runCli(args, { ...env, BIZDATA_STATE_DIR: join(dir, 'state') }, dir);
    assert.equal(r.code, expected, `${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  /** `bizdata send … --data` until `rows` rows are written, then Ctrl-C; resolves with its summary. */
  const interrupted = async (args, results, rows) => {
    const childEnv = { ...process.env, ...env, BIZDATA_STATE_DIR: join(dir, 'state') };
    const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), ...args], { cwd: dir, env: childEnv });
    let stdout = '';
    child.stdout.on('data', (b) => (stdout += b));
    const exited = new Promise((done) => child.once('close', (_code, signal) => done(signal)));
    for (let i = 0; i < 600; i++) {
      const written = (readFileSync(results, { encoding: 'utf8', flag: 'a+' }).match(/\n/g) ?? []).length;
      if (written >= rows) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    assert.equal(await exited, 'SIGINT');
    return JSON.parse(stdout);
  };

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'bizdata-report-e2e-'));
    mkdirSync(screenshots, { recursive: true });
    const config = join(dir, 'sandbox.json');
    const clients = [{ consumerKey: CANARY.consumerKey, consumerSecret: CANARY.consumerSecret }];
    const customer = { id: 'acme', qps: 10, concurrency: 4, clients, users: [{ user: CANARY.user, password: CANARY.password }] };
    writeFileSync(config, JSON.stringify({ customers: [customer] }));
    const started = await startCliSandbox(['--config', config]);
    sandbox = started.sandbox;
    const url = started.url;
    env = {
      BIZDATA_AUTH_URL: url,
      BIZDATA_BASE_URL: url,
      BIZDATA_LEGACY_URL: url,
      BIZDATA_ORIGIN: 'https://app.example.com',
      BIZDATA_CONSUMER_KEY: CANARY.consumerKey,
      BIZDATA_CONSUMER_SECRET: CANARY.consumerSecret,
      BIZDATA_USER: CANARY.user,
      BIZDATA_PASSWORD: CANARY.password,
    };
    writeFileSync(join(dir, 'checks.bizdata.http'), CHECKS);
    writeFileSync(join(dir, 'lookup.bizdata.http'), LOOKUP);
    writeFileSync(join(dir, 'ips.txt'), ips(1, 45).join('\n'));
    writeFileSync(join(dir, 'rows.csv'), `ip,ref\n${ips(1, 34).map((ip, i) => `${ip},C-${100 + i}`).join('\n')}\n999.1.1.1,C-bad\n`);
    writeFileSync(join(dir, 'job.csv'), `ip,ref\n${ips(101, 36).map((ip, i) => `${ip},J-${100 + i}`).join('\n')}\n`);

    const test = await cli(['test', 'checks.bizdata.http', '--json', '--report', 'test.html'], 1);
    const { requests: total, passed, failed, errors } = test.summary;
    reports.test = { file: 'test.html', shot: 'report.png', height: 1000, counts: { total, passed, failed, errors } };
    const batch = await cli(['batch', 'ips.txt', '--out', 'ips.jsonl', '--report', 'batch.html'], 0);
    reports.batch = { file: 'batch.html', shot: 'report-batch.png', height: 1250, counts: jobCounts(batch) };
    const data = await cli(['send', 'lookup.bizdata.http', '--data', 'rows.csv', '--report', 'data.html'], 1);
    reports.data = { file: 'data.html', shot: 'report-data.png', height: 1250, counts: jobCounts(data) };
    const first = await interrupted(['send', 'lookup.bizdata.http', '--data', 'job.csv', '--concurrency', '2'], join(dir, 'job.results.jsonl'), 10);
    assert.ok(first.done >= 10 && !first.job.complete, JSON.stringify(first));
    const resumed = await cli(['send', 'lookup.bizdata.http', '--data', 'job.csv', '--concurrency', '2', '--report', 'resumed.html'], 0);
    assert.equal(resumed.job.earlier, first.done);
    reports.resumed = { file: 'resumed.html', shot: 'report-resumed.png', height: 1250, counts: jobCounts(resumed) };
    const idle = await cli(['batch', 'ips.txt', '--out', 'ips.jsonl', '--report', 'idle.html'], 0);
    assert.equal(idle.thisRun.rows, 0);
    reports.idle = { file: 'idle.html', shot: 'report-idle.png', height: 900, counts: jobCounts(idle) };
    browser = await launchChromium({ log: () => undefined });
  });

  after(async function () {
    await browser?.close();
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const kind of ['test', 'batch', 'data', 'resumed', 'idle']) {
    it(`${kind}: the run's counts, charts drawn or said in words and scaled to the run, no error, nothing fetched`, async function () {
      const { file, shot, height, counts } = reports[kind];
      const path = join(dir, file);
      const page = await browser.newPage({ viewport: { width: 1200, height } });
      const problems = [];
      const requests = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (req) => {
        if (req.url() !== pathToFileURL(path).href) requests.push(req.url());
      });
      await page.goto(pathToFileURL(path).href);
      await page.waitForFunction(() => [...document.querySelectorAll('.chart, #rows')].every((el) => el.hasAttribute('data-drawn')), null, { timeout: 10_000 });
      for (const [name, value] of Object.entries(counts)) assert.equal(Number(await page.locator(`[data-count="${name}"]`).textContent()), value, name);
      const seen = await page.evaluate(() => {
        const painted = (canvas) => {
          const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
          let n = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) n++;
          return n;
        };
        const timeline = document.getElementById('timeline');
        const rows = document.getElementById('rows');
        return {
          charts: [...document.querySelectorAll('.chart')].map((el) => ({ id: el.id, painted: painted(el.querySelector('canvas')) })),
          words: ['timeline-words', 'durations-words'].map((id) => document.getElementById(id)?.textContent.trim() ?? ''),
          scale: timeline ? { yMax: Number(timeline.getAttribute('data-y-max')), peak: Number(timeline.getAttribute('data-peak')) } : undefined,
          rows: rows && { painted: painted(rows), ...rows.getBoundingClientRect().toJSON(), cells: Number(rows.getAttribute('data-drawn')) },
        };
      });
      for (const chart of seen.charts) assert.ok(chart.painted > 0, `the ${chart.id} chart is empty`);
      for (const words of seen.words) assert.ok(words.length > 20, `a chart's words are missing: "${words}"`);
      const { yMax, peak } = seen.scale ?? {};
      if (seen.scale) assert.ok(yMax >= peak && yMax <= 3 * peak, `the axis runs to ${yMax} for at most ${peak} calls a second`);
      if (kind === 'test' || kind === 'idle') assert.equal(seen.scale, undefined, 'a run too short to chart, or without calls, is said in words');
      else assert.ok(seen.scale, 'a run over seconds is charted');
      if (seen.rows) {
        assert.ok(seen.rows.painted > 0, 'the outcome grid is drawn');
        // At most 14 pixels a cell: tens of rows make a strip of small cells, not squares as wide as the page.
        assert.ok(seen.rows.height <= 30 && seen.rows.width <= 1200, JSON.stringify(seen.rows));
      }
      assert.deepEqual(problems, [], 'the browser logged no error or warning');
      assert.deepEqual(requests, [], 'the report fetched nothing');
      await page.screenshot({ path: join(screenshots, shot) });
      await page.close();
    });
  }

  it('holds no canary credential and no token in any report', function () {
    for (const { file } of Object.values(reports)) {
      const html = readFileSync(join(dir, file), 'utf8');
      for (const canary of Object.values(CANARY)) assert.ok(!html.includes(canary), `${canary} is in ${file}`);
      assert.doesNotMatch(html, /Bearer (?!<)[A-Za-z0-9._~+/=-]{8,}/);
    }
    assert.match(readFileSync(join(dir, 'test.html'), 'utf8'), /authorization: &lt;TOKEN&gt;/i, 'the failed request is shown, its token a placeholder');
  });
});

/** The counts a job's report shows, from its summary. */
function jobCounts(s) {
  return { total: s.job.rows, passed: s.job.ok, failed: s.job.failed, notdone: s.job.notDone, thisrun: s.thisRun.rows, earlier: s.job.earlier };
}
