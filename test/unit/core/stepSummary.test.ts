// The Markdown summary and the workflow commands of a run (core/report/stepSummary.ts,
// workflowCommands.ts), from the report's model: GitHub's escaping rules for commands (the toolkit's
// command.ts), and text from the run that can never become markup, a link or a second command.
import * as assert from 'node:assert/strict';
import { reportModel, type ReportRun, type ReportTest } from '../../../src/core/report/reportModel';
import { stepSummary } from '../../../src/core/report/stepSummary';
import { escapeData, escapeProperty, failureCommands, workflowCommand } from '../../../src/core/report/workflowCommands';

const failing = (over: Partial<ReportTest> = {}): ReportTest => ({
  name: 'ipLookup',
  file: 'requests/a.bizdata.http',
  line: 3,
  verdict: 'failed',
  method: 'GET',
  url: 'http://127.0.0.1:8080/v1/duns-search/ip/198.51.100.7',
  status: 200,
  durationMs: 41,
  failedAssertions: [{ line: 5, text: 'status == 404', expected: '== 404', actual: '200' }],
  ...over,
});

const run = (tests: readonly ReportTest[], extra: Partial<ReportRun> = {}): ReportRun => ({
  title: 'bizdata test requests',
  kind: 'test',
  startedAt: 0,
  durationMs: 1234,
  connections: ['sandbox'],
  wire: [],
  limit: { source: 'unknown' },
  tests,
  ...extra,
});
const same = (t: string): string => t;

describe('workflow commands, escaped as GitHub reads them', () => {
  it('escapes %, CR and LF in a message, and also : and , in a property', () => {
    assert.equal(escapeData('100% done\r\nnext'), '100%25 done%0D%0Anext');
    assert.equal(escapeProperty('a,b: c%\n'), 'a%2Cb%3A c%25%0A');
    assert.equal(workflowCommand('error', { file: 'x,y:z.http', line: 7, title: undefined }, 'a::b\nc'), '::error file=x%2Cy%3Az.http,line=7::a::b%0Ac');
  });

  it('one ::error per failure at its first failed assertion, the request line otherwise, and one for a stop', () => {
    const other = failing({ name: 'other', line: 9, failedAssertions: [], verdict: 'error', message: 'no answer: refused' });
    const model = reportModel(run([failing(), other], { stopped: 'SC005: the contract is used up' }), same);
    const lines = failureCommands(model, (f) => `repo/${f}`);
    const sent = 'GET http://127.0.0.1:8080/v1/duns-search/ip/198.51.100.7 -> 200';
    assert.deepEqual(lines, [
      `::error file=repo/requests/a.bizdata.http,line=5,title=bizdata test requests%3A ipLookup failed::ipLookup: ${sent}%0Aline 5: status == 404, actual 200`,
      `::error file=repo/requests/a.bizdata.http,line=9,title=bizdata test requests%3A other could not be judged::other: ${sent}%0Ano answer: refused`,
      '::error title=bizdata test requests%3A the run stopped early::SC005: the contract is used up',
    ]);
  });

  it('a text from the run cannot end the command or start another', () => {
    const model = reportModel(run([failing({ name: 'x\n::warning file=evil::pwned', file: 'a,line=1.http' })]), same);
    const [line] = failureCommands(model, same);
    assert.equal(line.split('\n').length, 1);
    assert.match(line, /^::error file=a%2Cline=1\.http,line=5,title=/);
    assert.doesNotMatch(line, /\n::warning/);
  });

  it('redacts with the run\'s redaction before escaping', () => {
    const echoed = failing({ failedAssertions: [{ line: 5, text: 'body == x', expected: '== x', actual: '"s3cr%t"' }] });
    const model = reportModel(run([echoed]), (t) => t.replaceAll('s3cr%t', '<redacted>'));
    const [line] = failureCommands(model, same);
    assert.match(line, /actual "<redacted>"$/);
    assert.doesNotMatch(stepSummary(model), /s3cr/);
  });
});

describe('the Markdown summary of a run', () => {
  it('the counts, each failure at FILE:LINE with its assertions, the slowest requests and the report link', () => {
    const fine: ReportTest = { ...failing({ name: 'fine', line: 12, durationMs: 7, failedAssertions: [] }), verdict: 'passed' };
    // The calls on the wire: the data call is the slowest request, named by its test; the sign-in is left out.
    const url = failing().url as string;
    const wire = [
      { kind: 'sent', at: 0, ms: 300, signIn: true, status: 200, method: 'POST', url: 'http://127.0.0.1:8080/v1/token' },
      { kind: 'sent', at: 1, ms: 41, signIn: false, status: 200, method: 'GET', url },
    ] as const;
    const md = stepSummary(reportModel(run([failing(), fine], { wire }), same), {
      report: { href: 'https://github.com/o/r/actions/runs/1#artifacts', name: 'report.html', where: "in this run's artifacts" },
    });
    assert.match(md, /^### Failed: bizdata test requests\n\n\*\*1 passed, 1 failed, 0 errors\*\* of 2 requests, 1234 ms, against `sandbox`\.\n/);
    assert.ok(md.includes('\n- **requests/a.bizdata.http:3** ipLookup: `GET http://127.0.0.1:8080/v1/duns-search/ip/198.51.100.7` → 200\n'), md);
    assert.ok(md.includes('\n  - requests/a.bizdata.http:5: `status == 404`, actual 200\n'), md);
    const slowest = '| requests/a.bizdata.http:3 ipLookup | 41 ms | 200 |\n';
    assert.ok(md.includes(`#### Slowest requests\n\n| Request | Time | Answer |\n|---|---:|---|\n${slowest}`), md);
    assert.match(md, /The full report: \[report\.html\]\(https:\/\/github\.com\/o\/r\/actions\/runs\/1#artifacts\) \(in this run's artifacts\)\.\n$/);
  });

  it('a passing run says so; a batch counts inputs', () => {
    const passed = stepSummary(reportModel(run([{ ...failing({ failedAssertions: [] }), verdict: 'passed' }]), same));
    assert.match(passed, /^### Passed: bizdata test requests\n\n\*\*1 passed, 0 failed, 0 errors\*\* of 1 request,/);
    const rows = [
      { label: '8.8.8.8', outcome: 'ok', earlier: true },
      { label: '999.1.1.1', outcome: 'failed', text: 'not an IP address' },
      { label: '1.1.1.1', outcome: 'unsent' },
    ] as const;
    const batch = stepSummary(reportModel({ ...run([]), kind: 'batch', tests: undefined, job: { source: 'ips.txt', resultsFile: 'r.jsonl', rows } }, same));
    assert.match(batch, /\*\*1 ok, 1 failed, 1 not done, 1 done by an earlier run\*\* of 3 rows/);
    assert.match(batch, /- \*\*2\*\* row 2: 999\.1\.1\.1\n {2}- not an IP address/);
  });

  it('text from the run is shown as it is: no markup, no link, no HTML, one line each', () => {
    const name = '<img src=x onerror=alert(1)> [click](javascript:alert(1)) **bold** | cell $x$\nsecond line';
    const hostile = failing({ name, failedAssertions: [{ line: 5, text: 'body == `x`', expected: '', actual: '`' }] });
    const md = stepSummary(reportModel(run([hostile]), same));
    assert.doesNotMatch(md, /<img/);
    assert.ok(md.includes('&lt;img src=x onerror=alert\\(1\\)&gt; \\[click\\]\\(javascript:alert\\(1\\)\\) \\*\\*bold\\*\\* \\| cell \\$x\\$ second line'), md);
    assert.match(md, /`` body == `x` ``, actual \\`/);
    const failure = md.slice(md.indexOf('#### Failures'), md.indexOf('#### Slowest'));
    assert.equal(failure.trim().split('\n').length, 4, 'a heading, a blank line, the failure and its assertion');
  });
});
