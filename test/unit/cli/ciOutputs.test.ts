// GitHub's own language from `bizdata test`, `batch` and data runs against a real sandbox: with
// GITHUB_ACTIONS=true the step summary appended to $GITHUB_STEP_SUMMARY and one workflow command per
// failure on stderr (the file relative to $GITHUB_WORKSPACE, escaped, redacted); `--summary FILE.md`
// anywhere; and nothing of it outside GitHub without --summary.
import * as assert from 'node:assert/strict';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CANARY, sandbox, type Sandbox } from '../core/harness';
import { canaryEnv, cliRuns } from './cliHarness';

const IP = 'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.7?view=standard';

describe('CI outputs: the step summary, annotations and --summary', function () {
  this.timeout(120_000);
  let dir = '';
  let sb: Sandbox;
  const { run } = cliRuns('bizdata-ci-', (d) => (dir = d));

  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  /** GitHub's variables for a run whose checkout is the test's folder. */
  const github = (): Record<string, string> => ({
    ...canaryEnv(sb.url),
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'),
    GITHUB_WORKSPACE: dir,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'acme/requests',
    GITHUB_RUN_ID: '4242',
  });
  const annotations = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('::'));

  async function requestFile(name: string, lines: readonly string[]): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, lines.join('\n'));
    return path;
  }

  it('bizdata test under GitHub Actions: the step summary, one ::error per failure at its line, redacted; --json stays JSON', async () => {
    // The second lookup's answer echoes the account's password: every output withholds it.
    await sb.admin('POST', 'faults', { type: 'respond', count: 1, path: '/v1/duns-search/ip/198.51.100.9', status: 200, body: { echo: CANARY.password } });
    const echo = ['# @name echo', 'GET {{baseUrl}}/v1/duns-search/ip/198.51.100.9', '?? body $.echo == nothing'];
    const lines = ['# @name wrong', IP, '?? status == 404', '', '###', ...echo];
    const file = await requestFile('a,b: odd.bizdata.http', [...lines, '', '###', '# @name fine', IP, '?? status == 200']);
    const r = await run(['test', file, '--json', '--report', join(dir, 'report.html'), '--summary', join(dir, 'summary.md')], github());
    assert.equal(r.code, 1, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { summary: { failed: number } }).summary.failed, 2, 'stdout is the --json document alone');
    const at = (line: number, name: string): string =>
      `::error file=a%2Cb%3A odd.bizdata.http,line=${line},title=bizdata test ${escape(file)}%3A ${name} failed::`;
    const withheld = '(withheld: the value holds a credential or token of this run)';
    assert.deepEqual(annotations(r.stderr), [
      `${at(3, 'wrong')}wrong: GET ${sb.url}/v1/duns-search/ip/198.51.100.7?view=standard -> 200%0Aline 3: status == 404, actual 200`,
      `${at(8, 'echo')}echo: GET ${sb.url}/v1/duns-search/ip/198.51.100.9 -> 200%0Aline 8: body $.echo == nothing, actual ${withheld}`,
    ]);
    const step = await readFile(join(dir, 'step-summary.md'), 'utf8');
    assert.match(step, /^### Failed: bizdata test .*\n\n\*\*1 passed, 2 failed, 0 errors\*\* of 3 requests, (\d+ ms|\d+\.\d s), against `default`\.\n/);
    const failure = `- **${md(file)}:2** wrong: \`GET ${sb.url}/v1/duns-search/ip/198.51.100.7?view=standard\` → 200\n`;
    assert.ok(step.includes(`${failure}  - ${md(file)}:3: \`status == 404\`, actual 200\n`), step);
    assert.match(step, /#### Slowest requests\n\n\| Request \| Time \| Answer \|/);
    const link = /The full report: \[report\.html\]\(https:\/\/github\.com\/acme\/requests\/actions\/runs\/4242#artifacts\)/;
    assert.match(step, new RegExp(`${link.source} \\(in this run's artifacts\\)\\.\\n\\n$`));
    const own = await readFile(join(dir, 'summary.md'), 'utf8');
    const asOwn = step.replace(/\[report\.html\]\([^)]*\) \(in this run's artifacts\)/, 'LINK').replace(/\n$/, '');
    assert.equal(own.replace('[report.html](report.html)', 'LINK'), asOwn);
    for (const text of [step, own]) assert.ok(!text.includes(CANARY.password), 'no canary in the summaries');
    // A second step appends its own summary to the same file, as GitHub expects.
    await run(['test', file, '--sandbox', sb.url], github());
    assert.equal((await readFile(join(dir, 'step-summary.md'), 'utf8')).split('### Failed:').length, 3);
  });

  it('outside GitHub Actions nothing of it, unless --summary; $GITHUB_STEP_SUMMARY is left alone', async () => {
    const file = await requestFile('x.bizdata.http', [IP, '?? status == 404']);
    const r = await run(['test', file], { ...canaryEnv(sb.url), GITHUB_STEP_SUMMARY: join(dir, 'step.md') });
    assert.equal(r.code, 1);
    assert.deepEqual(annotations(r.stderr), []);
    await assert.rejects(readFile(join(dir, 'step.md')));
  });

  it('a batch: its failed inputs annotated and summarised; a data run: each row\'s request at its line, named with the row', async () => {
    const inputs = join(dir, 'ips.txt');
    await writeFile(inputs, '203.0.113.7\n999.1.1.1\n');
    const batch = await run(['batch', inputs, '--out', join(dir, 'out.jsonl')], github());
    assert.equal(batch.code, 1, batch.stderr);
    const [annotation] = annotations(batch.stderr);
    assert.match(annotation, /^::error title=bizdata batch .*ips\.txt%3A row 2%3A 999\.1\.1\.1 failed::row 2: 999\.1\.1\.1/);
    assert.match(await readFile(join(dir, 'step-summary.md'), 'utf8'), /\*\*1 ok, 1 failed\*\* of 2 rows/);

    // A private address matches nothing: its row's assertion fails.
    const file = await requestFile('rows.bizdata.http', [
      '# @name lookup', 'GET {{baseUrl}}/v1/duns-search/ip/{{ip}}', '?? body $.candidatesMatchedQuantity >= 1',
    ]);
    await writeFile(join(dir, 'rows.csv'), 'ip\n198.51.100.7\n10.0.0.1\n');
    const data = await run(['test', file, '--data', join(dir, 'rows.csv')], github());
    assert.equal(data.code, 1, data.stderr);
    const title = `title=bizdata test ${escape(file)} × ${escape(join(dir, 'rows.csv'))}%3A lookup%3A ip=10.0.0.1 [${escape(join(dir, 'rows.csv'))}%3A3] failed`;
    assert.deepEqual(annotations(data.stderr).map((l) => /^::error (.*?)::/.exec(l)?.[1]), [`file=rows.bizdata.http,line=3,${title}`]);
  });

  it('refuses a --summary that is not Markdown, or in a folder that is not there, before anything is sent; never writes through a link', async () => {
    const file = await requestFile('x.bizdata.http', [IP]);
    const before = (await sb.stats()).requests;
    const notMd = await run(['test', file, '--summary', join(dir, 'summary.txt')], canaryEnv(sb.url));
    assert.deepEqual([notMd.code, notMd.stderr.trim()], [2, `bizdata test: --summary ${join(dir, 'summary.txt')}: name a Markdown file, such as summary.md.`]);
    const nowhere = await run(['test', file, '--summary', join(dir, 'no', 'summary.md')], canaryEnv(sb.url));
    assert.equal(nowhere.code, 2);
    assert.equal((await sb.stats()).requests, before, 'nothing was sent');
    const target = join(dir, 'elsewhere.md');
    await writeFile(target, 'untouched');
    await symlink(target, join(dir, 'linked.md'));
    const linked = await run(['test', file, '--summary', join(dir, 'linked.md')], canaryEnv(sb.url));
    assert.equal(linked.code, 2);
    assert.match(linked.stderr, /Cannot write the summary to .*linked\.md: it is a symbolic link, which is never written through\./);
    assert.equal(await readFile(target, 'utf8'), 'untouched');
  });
});

/** A property value as GitHub's escaping writes it. */
function escape(s: string): string {
  return s.replace(/%/g, '%25').replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A text as the Markdown summary shows it (its markup characters escaped). */
function md(s: string): string {
  return s.replace(/[\\`*_{}[\]()#|~!$]/g, (ch) => `\\${ch}`);
}
