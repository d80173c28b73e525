// Data-driven runs through the built CLI against the real sandbox over loopback: `bizdata send FILE
// --data ROWS` writes one result per row and resumes (after a second run and after kill -9), a CSV
// out with --column parses back with one line per row, `bizdata test FILE --data ROWS` gives a
// verdict per row, and every refusal comes before anything is sent (the sandbox's own counters).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ResultLine } from '../../../src/core/data/results';
import { assertNoCanary, sandbox, type Sandbox } from '../core/harness';
import { waitFor } from '../sandbox/helpers';
import { canaryEnv, CLI, cliEnv, cliRuns } from './cliHarness';

const IP_FILE = `# One IP lookup per row: {{ip}} is the data file's column.
### lookup
GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard

?? status == 200
`;

const ORG_FILE = `### match
GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code={{country}}&SubjectName={{%name}}&match=true&MatchTypeText=Advanced

?? code == CM000
`;

describe('bizdata send and test --data', function () {
  this.timeout(60_000);
  let dir = '';
  let sb: Sandbox;
  const { run } = cliRuns('bizdata-data-', (d) => (dir = d));
  afterEach(() => sb?.close());

  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const ipRows = (count: number): string => `ip\n${Array.from({ length: count }, (_, i) => `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`).join('\n')}\n`;
  const results = async (path: string): Promise<ResultLine[]> =>
    (await readFile(path, 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as ResultLine);

  /** `bizdata send` of 150 IP rows at 50 QPS in a child process, once it has written `lines` rows. */
  async function startAndWait(lines: number) {
    sb = await sandbox({ qps: 50, concurrency: 5 });
    const requests = await file('ip.bizdata.http', IP_FILE);
    const rows = await file('rows.csv', ipRows(150));
    const out = join(dir, 'out.jsonl');
    const child = spawn(process.execPath, [CLI, 'send', requests, '--data', rows, '--out', out, '--concurrency', '4'], { env: cliEnv(canaryEnv(sb.url), join(dir, 'state')) });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
    await waitFor(`${lines} rows written`, async () => ((await readFile(out, 'utf8').catch(() => '')).match(/\n/g)?.length ?? 0) >= lines || undefined);
    return { child, exited, stdout: () => stdout, requests, rows, out };
  }

  /** Sends the signal and asserts the process ended by it. */
  async function exitedAfter(child: { kill(s: NodeJS.Signals): boolean }, signal: NodeJS.Signals, exited: Promise<NodeJS.Signals | null>): Promise<true> {
    child.kill(signal);
    assert.equal(await exited, signal);
    return true;
  }

  it('writes one result line per row, with its values, status and answer; a second run sends nothing', async () => {
    sb = await sandbox({ qps: 100, concurrency: 8 });
    const requests = await file('ip.bizdata.http', IP_FILE);
    const rows = await file('rows.csv', `\uFEFF${ipRows(24).replace(/\n/g, '\r\n')}`);
    const out = join(dir, 'out.jsonl');
    const first = await run(['send', requests, '--data', rows, '--out', out, '--concurrency', '4'], canaryEnv(sb.url));
    assert.equal(first.code, 0, first.stderr);
    const lines = await results(out);
    assert.equal(lines.length, 24);
    assert.deepEqual(lines.map((l) => l.line).sort((a, b) => a - b), Array.from({ length: 24 }, (_, i) => i + 2));
    for (const l of lines) {
      assert.deepEqual([l.ok, l.status, l.final], [true, 200, true]);
      assert.ok(typeof l.values.ip === 'string' && l.answer !== undefined);
    }
    const summary = JSON.parse(first.stdout) as { done: number; ok: number; skipped: number };
    assert.deepEqual([summary.done, summary.ok, summary.skipped], [24, 24, 0]);
    const calls = (await sb.customer()).dataCalls;
    const second = await run(['send', requests, '--data', rows, '--out', out], canaryEnv(sb.url));
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(JSON.parse(second.stdout), { ...JSON.parse(second.stdout), skipped: 24, done: 0 });
    assert.equal((await sb.customer()).dataCalls, calls, 'no row was sent again');
    assert.equal((await results(out)).length, 24);
    assertNoCanary([await readFile(out, 'utf8')]);
  });

  it('runs the requests of each row in order with its own chained answers, rows at once', async () => {
    sb = await sandbox({ qps: 100, concurrency: 8 });
    const requests = await file(
      'chain.bizdata.http',
      `### first\n# @name first\nGET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard\n\n### again, from the first answer\nGET {{baseUrl}}/v1/duns-search/ip/{{first.response.body.$.inquiryDetail.ipAddress}}?view=standard\n\n?? status == 200\n`,
    );
    const rows = await file('rows.csv', ipRows(16));
    const out = join(dir, 'out.jsonl');
    const r = await run(['send', requests, '--data', rows, '--out', out, '--concurrency', '6'], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stderr);
    const lines = await results(out);
    assert.equal(lines.length, 16);
    for (const l of lines) assert.equal((l.answer as { inquiryDetail: { ipAddress: string } }).inquiryDetail.ipAddress, l.values.ip, `row ${l.line} chained on its own answer`);
    assert.equal((await sb.customer()).contractUsed, 32, 'two requests per row');
  });

  it('after kill -9 in the middle, a second run with the same --out writes every row once', async function () {
    this.timeout(120_000);
    const { child, exited, requests, rows, out } = await startAndWait(40);
    await exitedAfter(child, 'SIGKILL', exited);
    const before = (await results(out)).length;
    assert.ok(before >= 40 && before < 150, `killed in the middle: ${before} rows written`);
    // The second run starts with nothing learned, on a machine other tests load: time enough for it.
    const again = await run(['send', requests, '--data', rows, '--out', out, '--concurrency', '4'], canaryEnv(sb.url), 100_000);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    const lines = await results(out);
    const byLine = new Map<number, number>();
    for (const l of lines) byLine.set(l.line, (byLine.get(l.line) ?? 0) + 1);
    assert.equal(byLine.size, 150, 'every row is written');
    assert.deepEqual([...byLine.values()].filter((n) => n !== 1), [], 'no row is written twice');
    assert.ok(lines.every((l) => l.ok && l.final));
    // Only the rows on the wire at the kill (at most --concurrency) were sent twice.
    const answered = (await sb.customer()).contractUsed;
    assert.ok(answered >= 150 && answered <= 154, `${answered} answered data calls for 150 rows`);
  });

  it('stops cleanly at a failure every row would meet (wrong credentials: one sign-in), and a run with the right ones does every row', async () => {
    sb = await sandbox();
    const requests = await file('orgs.bizdata.http', ORG_FILE);
    const rows = await file('orgs.csv', `country,name\n${Array.from({ length: 20 }, (_, i) => `US,"Example ${i}, Inc."`).join('\n')}\n`);
    const out = join(dir, 'out.jsonl');
    const refused = await run(['send', requests, '--data', rows, '--out', out, '--concurrency', '4'], { ...canaryEnv(sb.url), BIZDATA_PASSWORD: 'wrong-password' });
    assert.equal(refused.code, 3, refused.stderr);
    assert.equal((JSON.parse(refused.stdout) as { stoppedBy?: { kind: string } }).stoppedBy?.kind, 'auth');
    assert.match(refused.stderr, /the run stopped: no new row was started/);
    assert.equal((await sb.customer()).authFailures, 1, 'one sign-in, not one per row');
    const written = await results(out);
    assert.ok(written.length <= 4 && written.every((l) => !l.final), 'only the rows on their way were written, none as done');
    const ok = await run(['send', requests, '--data', rows, '--out', out, '--concurrency', '4'], canaryEnv(sb.url));
    assert.equal(ok.code, 0, ok.stderr);
    const done = (await results(out)).filter((l) => l.final);
    assert.deepEqual(done.map((l) => l.line).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 2));
  });

  it('on SIGINT no new row starts, the summary is printed on stdout, the process ends by the signal, and a second run does the rest', async function () {
    this.timeout(120_000);
    const { child, exited, stdout: printed, requests, rows, out } = await startAndWait(20);
    const stdout = (await exitedAfter(child, 'SIGINT', exited)) && printed();
    const summary = JSON.parse(stdout) as { done: number; total: number; cancelled: boolean };
    assert.ok(summary.done >= 20 && summary.done < 150 && summary.cancelled, stdout);
    assert.equal((await results(out)).length, summary.done, 'every row the summary counts is written, whole');
    const again = await run(['send', requests, '--data', rows, '--out', out, '--concurrency', '4'], canaryEnv(sb.url), 100_000);
    assert.equal(again.code, 0, again.stderr);
    const lines = await results(out);
    assert.equal(new Set(lines.map((l) => l.line)).size, 150);
    assert.equal(lines.length, 150, 'no row written twice');
  });

  it('refuses before anything is sent, not even a sign-in: an unreadable data file, an unclosed quote, a row without a used variable, a bad --column', async () => {
    sb = await sandbox();
    const requests = await file('orgs.bizdata.http', ORG_FILE);
    const good = await file('orgs.csv', 'country,name\nUS,"Example, Inc."\n');
    const cases: Array<[string[], RegExp]> = [
      [['--data', join(dir, 'missing.csv')], /The data file .*missing\.csv does not exist/],
      [['--data', await file('open.csv', 'country,name\nUS,Fine\nGB,"Unclosed\nDE,Late\n')], /open\.csv:3: a quote opens a field here and is never closed/],
      [['--data', await file('short.jsonl', '{"country":"US","name":"A"}\n{"country":"GB"}\n')], /short\.jsonl:2: this row has no value for "name", which .*orgs\.bizdata\.http uses/],
      [['--data', await file('header.csv', 'country\nUS\n')], /header\.csv:1: the header has no column "name"/],
      [['--data', good, '--out', join(dir, 'r.csv'), '--column', 'duns=$.a['], /--column duns=\$\.a\[: .*JSONPath/],
      [['--data', good, '--out', join(dir, 'r.txt')], /results are written as JSON Lines \(\.jsonl\) or CSV \(\.csv\)/],
    ];
    for (const [args, message] of cases) {
      const r = await run(['send', requests, ...args], canaryEnv(sb.url));
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    const noted = await file('noted.bizdata.http', ORG_FILE.replace('### match\n', '### match\n# @note spends the contract\n'));
    const asked = await run(['send', noted, '--data', good], canaryEnv(sb.url));
    assert.equal(asked.code, 2, asked.stderr);
    assert.match(asked.stderr, /marked "# @note", which a data-driven run would ask once per row\. Pass --confirm-notes/);
    const t = await run(['test', requests, '--data', join(dir, 'short.jsonl')], canaryEnv(sb.url));
    assert.equal(t.code, 2, t.stderr);
    assert.match(t.stderr, /short\.jsonl:2:/);
    assert.equal((await sb.stats()).requests, 0, 'the sandbox saw no request at all');
  });

  it('writes a CSV of the input columns, line, status, code and --column cells: one line per input row, read back by a CSV parser', async () => {
    sb = await sandbox();
    const requests = await file('orgs.bizdata.http', ORG_FILE);
    const rows = await file('orgs.csv', 'country,name,note\r\nUS,"Example, Inc.","say ""hi"""\r\nGB,NoMatch Industries,\r\nDE,"=Formula, GmbH",x\r\n');
    const out = join(dir, 'enriched.csv');
    const column = 'duns=$.MatchResponse.MatchResponseDetail.MatchCandidate[0].DUNSNumber';
    const r = await run(['send', requests, '--data', rows, '--out', out, '--column', column], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stderr);
    const again = await run(['send', requests, '--data', rows, '--out', out, '--column', column], canaryEnv(sb.url));
    assert.equal(again.code, 0, again.stderr);
    const table = parse(await readFile(out), { bom: true, columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(Object.keys(table[0]), ['country', 'name', 'note', 'line', 'status', 'code', 'duns']);
    assert.deepEqual(
      table.map((t) => [t.country, t.name, t.note, t.line, t.status, t.code]),
      [
        ['US', 'Example, Inc.', 'say "hi"', '2', '200', 'CM000'],
        ['GB', 'NoMatch Industries', '', '3', '200', 'CM000'],
        ['DE', "'=Formula, GmbH", 'x', '4', '200', 'CM000'],
      ],
    );
    assert.match(table[0].duns, /^\d{9}$/);
    assert.equal(table[1].duns, '', 'no candidate: an empty cell');
  });

  it('without --out writes the results beside the data file, named after it as the editor names them (orgs.csv: orgs.results.jsonl)', async () => {
    sb = await sandbox();
    const requests = await file('orgs.bizdata.http', ORG_FILE);
    const rows = await file('orgs.csv', 'country,name\nUS,"Example, Inc."\nGB,NoMatch Industries\n');
    const r = await run(['send', requests, '--data', rows], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stderr);
    const beside = rows.replace(/\.csv$/, '.results.jsonl');
    assert.equal((JSON.parse(r.stdout) as { outFile: string }).outFile, beside);
    const lines = (await results(beside)).sort((a, b) => a.line - b.line);
    assert.deepEqual(lines.map((l) => [l.line, l.code]), [[2, 'CM000'], [3, 'CM000']], 'one line per row');
  });

  it('test --data gives a verdict per row and request, named with the row line, in lines, JSON and JUnit', async () => {
    sb = await sandbox();
    const requests = await file('ip.bizdata.http', IP_FILE);
    const rows = await file('rows.csv', 'ip,comment\n203.0.113.7,good\nnot-an-ip,bad\n198.51.100.9,good\n');
    const junit = join(dir, 'junit.xml');
    const lines = await run(['test', requests, '--data', rows, '--junit', junit], canaryEnv(sb.url));
    assert.equal(lines.code, 1, lines.stderr);
    assert.match(lines.stdout, /^PASS .*lookup \[rows\.csv:2\]/m);
    assert.match(lines.stdout, /^FAIL .*lookup \[rows\.csv:3\]: GET .*\/not-an-ip\?view=standard -> 400/m);
    assert.match(lines.stdout, /^PASS .*lookup \[rows\.csv:4\]/m);
    assert.match(lines.stdout, /3 requests: 2 passed, 1 failed, 0 errors/);
    assert.equal((await readFile(junit, 'utf8')).match(/<testcase /g)?.length, 3);
    const json = await run(['test', requests, '--data', rows, '--json'], canaryEnv(sb.url));
    const report = JSON.parse(json.stdout) as { files: Array<{ requests: Array<{ name: string; verdict: string }> }> };
    assert.deepEqual(
      report.files[0].requests.map((q) => [q.name, q.verdict]),
      [
        ['lookup [rows.csv:2]', 'passed'],
        ['lookup [rows.csv:3]', 'failed'],
        ['lookup [rows.csv:4]', 'passed'],
      ],
    );
  });
});
