// Issue 32: a stranger's files stay in their folder. Request files and data files as an attacker's pull
// request would ship them, run by the built CLI against the real sandbox over loopback: a results file,
// --out, a report or a JUnit file that is a link is refused before anything is sent and nothing is
// written where it leads; a data file beside a request file that links out of its folder is never read;
// `--out` naming a file that is not a results file is refused and left as it is; a row whose values
// cannot be sent is that row's failure at ROWS:LINE and the other rows run; a value over the limit is
// refused at its line; a cell equal to a credential is written redacted; SIGTERM ends a data run with
// slow answers at once, the cut rows left to run again.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { link, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResultLine } from '../../../src/core/data/results';
import { startSandbox } from '../../../src/sandbox/server';
import { recordingRelay } from '../../recordingRelay';
import { assertNoCanary, CANARY, sandbox, sandboxConfig, type Sandbox } from '../core/harness';
import { waitFor } from '../sandbox/helpers';
import { tempDirs } from '../tempDirs';
import { canaryEnv, CLI, cliEnv, cliRuns, runCli } from './cliHarness';

const IP_FILE = ['### lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard', '', '?? status == 200', ''].join('\n');
const VICTIM = '#!/bin/sh\necho the victim file\n';
const SECRET_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n';

describe("a stranger's files stay in their folder (issue 32)", function () {
  this.timeout(60_000);
  let dir = '';
  let sb: Sandbox | undefined;
  const { run } = cliRuns('bizdata-stranger-', (d) => (dir = d));
  afterEach(() => sb?.close());

  /** The pull request's folder and a victim's folder beside it. */
  async function folders(): Promise<{ pr: string; victim: string }> {
    const pr = join(dir, 'pr');
    const victim = join(dir, 'victim');
    await mkdir(pr);
    await mkdir(victim);
    await writeFile(join(victim, 'rc.sh'), VICTIM);
    return { pr, victim };
  }

  async function nothingSent(): Promise<void> {
    const stats = await sb?.stats();
    assert.equal(stats?.requests ?? 0, 0, 'the sandbox received a request');
  }

  it('refuses a results file that is a link (beside the data file, --out, a dangling one): exit 2, nothing sent, nothing written where it leads', async () => {
    sb = await sandbox();
    const { pr, victim } = await folders();
    await writeFile(join(pr, 'x.bizdata.http'), IP_FILE);
    await writeFile(join(pr, 'x.data.csv'), 'ip\n203.0.113.7\n');
    await symlink(join('..', 'victim', 'rc.sh'), join(pr, 'x.data.results.jsonl'));
    const beside = await run(['send', join(pr, 'x.bizdata.http')], canaryEnv(sb.url));
    assert.equal(beside.code, 2, beside.stderr);
    assert.match(beside.stderr, /x\.data\.results\.jsonl is a link, and a results file is never written through a link/);
    const named = await run(['send', join(pr, 'x.bizdata.http'), '--data', join(pr, 'x.data.csv'), '--out', join(pr, 'x.data.results.jsonl')], canaryEnv(sb.url));
    assert.equal(named.code, 2, named.stderr);
    await symlink(join('..', 'victim', 'new.sh'), join(pr, 'dangling.jsonl'));
    const dangling = await run(['send', join(pr, 'x.bizdata.http'), '--data', join(pr, 'x.data.csv'), '--out', join(pr, 'dangling.jsonl')], canaryEnv(sb.url));
    assert.equal(dangling.code, 2, dangling.stderr);
    assert.match(dangling.stderr, /dangling\.jsonl is a link/);
    await link(join(victim, 'rc.sh'), join(pr, 'hard.jsonl'));
    const hard = await run(['send', join(pr, 'x.bizdata.http'), '--data', join(pr, 'x.data.csv'), '--out', join(pr, 'hard.jsonl')], canaryEnv(sb.url));
    assert.equal(hard.code, 2, hard.stderr);
    assert.equal(await readFile(join(victim, 'rc.sh'), 'utf8'), VICTIM);
    await assert.rejects(stat(join(victim, 'new.sh')), /ENOENT/, 'a file was made where the dangling link leads');
    await nothingSent();
  });

  it('refuses a --report or --junit that is a link before anything is sent', async () => {
    sb = await sandbox();
    const { pr, victim } = await folders();
    await writeFile(join(pr, 'x.bizdata.http'), IP_FILE.replace('{{ip}}', '203.0.113.7'));
    await symlink(join(victim, 'rc.sh'), join(pr, 'j.xml'));
    await symlink(join(victim, 'rc.sh'), join(pr, 'r.html'));
    const junit = await run(['test', join(pr, 'x.bizdata.http'), '--junit', join(pr, 'j.xml')], canaryEnv(sb.url));
    assert.equal(junit.code, 2, junit.stderr);
    assert.match(junit.stderr, /j\.xml is a link, and a JUnit report is never written through a link/);
    const report = await run(['test', join(pr, 'x.bizdata.http'), '--report', join(pr, 'r.html')], canaryEnv(sb.url));
    assert.equal(report.code, 2, report.stderr);
    assert.match(report.stderr, /r\.html is a link, and a report is never written through a link/);
    assert.equal(await readFile(join(victim, 'rc.sh'), 'utf8'), VICTIM);
    await nothingSent();
  });

  it('never reads a data file beside a request file that links out of its folder: exit 2, nothing sent, not a byte of it in any output', async () => {
    sb = await sandbox();
    const { pr, victim } = await folders();
    await writeFile(join(victim, 'id_ed25519'), SECRET_KEY);
    await writeFile(join(pr, 'k.bizdata.http'), ['GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard&k={{key}}', ''].join('\n'));
    await symlink(join('..', 'victim', 'id_ed25519'), join(pr, 'k.data.csv'));
    const junit = join(pr, 'j.xml');
    const r = await run(['test', join(pr, 'k.bizdata.http'), '--junit', junit], canaryEnv(sb.url));
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /The data file .*k\.data\.csv is outside .*pr \(it leads to .*id_ed25519\), and a run reads only files inside the request file's own folder/);
    for (const text of [r.stdout, r.stderr, await readFile(junit, 'utf8').catch(() => '')]) assert.ok(!text.includes('b3BlbnNzaC1rZXktdjEA'), text);
    await nothingSent();
  });

  it('refuses --out naming a file that is not a results file and leaves it as it was', async () => {
    sb = await sandbox();
    const { pr } = await folders();
    await writeFile(join(pr, 'x.bizdata.http'), IP_FILE);
    await writeFile(join(pr, 'rows.csv'), 'ip\n203.0.113.7\n');
    for (const notes of ['{"note":"keep me"}\n', 'a line of notes\nand another\n']) {
      await writeFile(join(pr, 'notes.jsonl'), notes);
      const r = await run(['send', join(pr, 'x.bizdata.http'), '--data', join(pr, 'rows.csv'), '--out', join(pr, 'notes.jsonl')], canaryEnv(sb.url));
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /notes\.jsonl is not a results file of a data-driven run, and is left as it is/);
      assert.equal(await readFile(join(pr, 'notes.jsonl'), 'utf8'), notes);
    }
    await nothingSent();
  });

  it("makes a row whose values cannot be sent that row's failure at ROWS:LINE (a line break in a header, a host moved, a URL too long); the other rows run", async () => {
    sb = await sandbox();
    const { pr } = await folders();
    const file = join(pr, 'rows.bizdata.http');
    await writeFile(file, ['### lookup', 'GET {{baseUrl}}{{path}}', 'X-Note: {{note}}', '', '?? status == 200', ''].join('\n'));
    const ok = '/v1/duns-search/ip/203.0.113.7?view=standard';
    const rows = [`path,note`, `${ok},fine`, `${ok},"two\nlines"`, `@collector.example.net${ok},fine`, `${ok}&pad=${'a'.repeat(9000)},fine`, `${ok},fine again`].join('\n');
    await writeFile(join(pr, 'rows.csv'), `${rows}\n`);
    const out = join(pr, 'out.jsonl');
    const r = await run(['send', file, '--data', join(pr, 'rows.csv'), '--out', out, '--concurrency', '1'], canaryEnv(sb.url));
    assert.equal(r.code, 1, r.stderr);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as ResultLine);
    assert.deepEqual(lines.map((l) => [l.line, l.ok, l.final]), [[2, true, true], [3, false, true], [5, false, true], [6, false, true], [7, true, true]]);
    for (const [i, why] of [[1, /line break/], [2, /no configured service host|user name or password/], [3, /The URL is \d+ characters long/]] as const) {
      assert.equal(lines[i].error?.kind, 'row');
      assert.match(lines[i].error?.text ?? '', new RegExp(`^.*rows\\.csv:${lines[i].line}: lookup \\(.*rows\\.bizdata\\.http:2\\) cannot be sent with this row's values`));
      assert.match(lines[i].error?.text ?? '', why);
    }
    assert.equal((await sb.customer()).dataCalls, 2, 'only the two good rows reached the service');
  });

  it('refuses a value over the limit at ROWS:LINE before anything is sent', async () => {
    sb = await sandbox();
    const { pr } = await folders();
    await writeFile(join(pr, 'x.bizdata.http'), IP_FILE);
    await writeFile(join(pr, 'rows.csv'), `ip\n203.0.113.7\n${'1'.repeat(70_000)}\n`);
    const r = await run(['send', join(pr, 'x.bizdata.http'), '--data', join(pr, 'rows.csv')], canaryEnv(sb.url));
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /rows\.csv:3: the value of "ip" is 70000 characters long; a value may have at most 65536/);
    await nothingSent();
  });

  it("writes a row's value that equals a credential of the run redacted in the results, and still resumes it", async () => {
    sb = await sandbox();
    const { pr } = await folders();
    await writeFile(join(pr, 'x.bizdata.http'), ['GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard', 'X-Ref: {{ref}}', ''].join('\n'));
    await writeFile(join(pr, 'rows.csv'), `ref\nplain\n${CANARY.consumerSecret}\n`);
    const out = join(pr, 'out.jsonl');
    const first = await run(['send', join(pr, 'x.bizdata.http'), '--data', join(pr, 'rows.csv'), '--out', out], canaryEnv(sb.url));
    assert.equal(first.code, 0, first.stderr);
    const text = await readFile(out, 'utf8');
    assert.ok(!text.includes(CANARY.consumerSecret), text);
    assert.match(text, /"ref":"<redacted>"/);
    const again = await run(['send', join(pr, 'x.bizdata.http'), '--data', join(pr, 'rows.csv'), '--out', out], canaryEnv(sb.url));
    assert.equal((JSON.parse(again.stdout) as { skipped: number }).skipped, 2, again.stdout);
  });

  it('ends a data run with slow answers at SIGTERM: the rows on the wire are cut and left unwritten, the summary printed, the process ended by the signal', async () => {
    sb = await sandbox({ responseDelayMs: 30_000 });
    const { pr } = await folders();
    await writeFile(join(pr, 'x.bizdata.http'), IP_FILE);
    await writeFile(join(pr, 'rows.csv'), `ip\n${Array.from({ length: 6 }, (_, i) => `203.0.113.${i + 1}`).join('\n')}\n`);
    const out = join(pr, 'out.jsonl');
    const child = spawn(process.execPath, [CLI, 'send', join(pr, 'x.bizdata.http'), '--data', join(pr, 'rows.csv'), '--out', out, '--concurrency', '3'], { env: cliEnv(canaryEnv(sb.url), join(dir, 'state')) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
    await waitFor('rows on the wire', async () => ((await sb?.customer())?.dataCalls ?? 0) >= 1 || undefined, 30_000);
    child.kill('SIGTERM');
    // The answers would come after 30 s; the test's own limit is half that.
    assert.equal(await exited, 'SIGTERM', stderr);
    const summary = JSON.parse(stdout) as { done: number; cancelled: boolean };
    assert.deepEqual([summary.done, summary.cancelled], [0, true]);
    assert.equal((await readFile(out, 'utf8')).trim(), '', 'a row cut on the wire is not written');
    assert.match(stderr, /SIGTERM: stopping: no new row starts; the rows on their way are answered within 0\.75 s or cut/);
  });
});

describe('chaining sends what the answer holds (issue 32)', function () {
  this.timeout(60_000);
  const outputs: string[] = [];
  const dirs = tempDirs();
  after(() => assertNoCanary(outputs));

  it("sends a peer's chained token as its author's tool sends it: the answer's own value, no placeholder on the wire", async () => {
    const dir = await dirs.make('bizdata-chain-');
    await mkdir(join(dir, 'fixtures'));
    const routes = [
      { name: 'login', method: 'POST', pathPrefix: '/v1/peer/login', body: { json: { token: 'foobar' } } },
      { name: 'echo', method: 'POST', pathPrefix: '/v1/echo/', body: { ok: true } },
    ];
    await writeFile(join(dir, 'fixtures', 'routes.json'), JSON.stringify({ routes }));
    const sandboxed = await startSandbox({ port: 0, config: sandboxConfig(), fixturesDir: join(dir, 'fixtures') });
    const relay = await recordingRelay(new URL(sandboxed.url));
    try {
      const file = join(dir, 'peer.http');
      const text = ['### one', '# @name REQUEST_ONE', 'POST {{baseUrl}}/v1/peer/login', 'Content-Type: application/json', '', '{}', '', '### two', 'POST {{baseUrl}}/v1/echo/two', 'Content-Type: application/json', '', '{"token": "{{REQUEST_ONE.response.body.$.json.token}}"}', ''];
      await writeFile(file, text.join('\n'));
      const r = await runCli(['send', file], canaryEnv(relay.url), dir, outputs, 30_000);
      assert.equal(r.code, 0, r.stderr);
      const echo = relay.requests().find((q) => q.line.startsWith('POST /v1/echo/two'));
      assert.equal(echo?.body.toString('utf8'), '{"token": "foobar"}');
    } finally {
      await relay.close();
      await sandboxed.close();
    }
  });
});
