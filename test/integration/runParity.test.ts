// Issue 26's parity: the same request files run through `bizdata test --json` (the built dist/cli.js)
// and through the Test Explorer decide the same, because both are hosts of the one run engine. Against
// one sandbox behind a recording relay: the same requests reach the service (method, path and body of
// each data call; the sign-ins are each host's own), each request gets the same verdict, and the same
// message (the Test Explorer adds the place, and a link to the answer). The files hold a chain after an
// expected refusal (`?? status == 404`, then `{{missing.response.body...}}`), a failing assertion, a
// `# @disabled` request, a `< ./body.json` body, and an SC001 and an SC005 answer, each of which stops
// its run (the requests after it are skipped). And the run's edges (issue 32), decided by one
// preflight: a file with an unknown reference refused before anything is sent, a data file with a bad
// row (that row fails at ROWS:LINE, every other row runs), and a data file beside the request file
// that links out of its folder (never read): the same refusals at the same FILE:LINE or ROWS:LINE.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestRunView } from '../../src/features/testingApi';
import { recordingRelay, type RawRequest } from '../recordingRelay';
import { admin, answerErrorMessages, answerModalWarnings, EXTENSION_PATH, extensionApi, pointAt, runCodeLens, useSignedInTestSandbox, waitFor } from './helpers';

const ORG_SEARCH = 'GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code=GB&SubjectName=Parity%20Co&match=true&MatchTypeText=Advanced';
const IP = (ip: string): string => `GET {{baseUrl}}/{{aVersion}}/duns-search/ip/${ip}?view=standard`;
const B_REFUSAL = (code: string, text: string) => ({ MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: code, ResultText: text } } });

const FILES: Readonly<Record<string, readonly string[]>> = {
  main: [
    '### expects a refusal',
    '# @name missing',
    IP('198.51.100.44'),
    '?? status == 404',
    '',
    '### chained on the refusal',
    IP('{{missing.response.body.$.error.nearest}}'),
    '?? status == 200',
    '?? body $.inquiryDetail.ipAddress == 203.0.113.8',
    '',
    '### a failing assertion',
    IP('203.0.113.9'),
    '?? body $.inquiryDetail.ipAddress == 203.0.113.10',
    '',
    '### never',
    '# @disabled',
    IP('203.0.113.66'),
    '',
    '### with a body file',
    'POST {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.67?view=standard',
    'Content-Type: application/json',
    '',
    '< ./body.json',
    '',
  ],
  sc001: ['### refused: SC001', ORG_SEARCH, '?? status == 401', '', '### after the stop', IP('203.0.113.7'), '?? status == 200', ''],
  sc005: ['### refused: SC005', ORG_SEARCH, '?? status == 401', '', '### after the stop', IP('203.0.113.7'), ''],
  unknown: ['### one', IP('203.0.113.7'), '', '### two: a reference to nothing', IP('{{nowhere}}'), '', '### three', IP('203.0.113.9'), ''],
  rows: ['### lookup', 'GET {{baseUrl}}{{path}}', 'X-Note: {{note}}', '', '?? status == 200', ''],
  linked: ['### lookup', IP('{{ip}}'), ''],
};

/** The data files beside `rows` and `linked` (the latter a link to a file outside the workspace). */
const ROWS_DATA = 'path,note\n/v1/duns-search/ip/203.0.113.7?view=standard,fine\n/v1/duns-search/ip/203.0.113.8?view=standard,"two\nlines"\n/v1/duns-search/ip/203.0.113.9?view=standard,fine\n';

type Verdict = 'passed' | 'failed' | 'error' | 'skipped';

/** Per request line (1-based): its verdict, its message (without place or link), and whether each assertion held. */
type Decisions = Record<number, { readonly verdict: Verdict; readonly message?: string; readonly assertions: readonly boolean[] }>;

interface CliRequest {
  readonly line: number;
  readonly verdict: Verdict;
  readonly message?: string;
  readonly assertions: ReadonlyArray<{ readonly passed: boolean }>;
}

/** A message as a reader sees it: the peek view's escapes undone, whitespace as single spaces, no link. */
function plain(text: string): string {
  return text
    .split('\n\n[Open the answer]')[0]
    .replace(/&nbsp;/g, ' ')
    .replace(/\\(.)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The data calls as the service got them: method, path and body (the sign-ins are each host's own). */
function dataCalls(requests: readonly RawRequest[]): string[] {
  return requests.filter((r) => !/ \/(v1\/token|Authentication)\b/.test(r.line)).map((r) => `${r.line.replace(/ HTTP\/1\.1$/, '')} ${r.body.toString('latin1')}`);
}

/**
 * The data calls the relay recorded since `before` (its record then), sorted: the relay keeps each
 * connection's bytes apart, and a client spreads its calls over the connections of its pool.
 */
function callsSince(before: readonly RawRequest[], now: readonly RawRequest[]): string[] {
  const left = dataCalls(now);
  for (const call of dataCalls(before)) left.splice(left.indexOf(call), 1);
  return left.sort();
}

describe('one run engine: bizdata test and the Test Explorer decide alike (issue 26)', function () {
  this.timeout(120_000);
  const { c, sandbox } = useSignedInTestSandbox();
  const modal = answerModalWarnings();
  const folder = (): vscode.Uri => {
    const f = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(f, 'the integration tests run with a workspace folder');
    return f;
  };
  const dir = `parity-${randomUUID()}`;
  let relay: Awaited<ReturnType<typeof recordingRelay>>;
  let state: string;

  before(async () => {
    relay = await recordingRelay(new URL(sandbox().url));
    // Pointing the addresses at the relay asks before the credentials go there: the user says yes.
    modal.answer = 'Send Them to the New Address';
    await pointAt(relay.url);
    state = await mkdtemp(join(tmpdir(), 'bizdata-parity-'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), dir, 'body.json'), Buffer.from('{\r\n  "city": "São Paulo"\r\n}\n'));
    for (const [name, lines] of Object.entries(FILES)) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), dir, `${name}.bizdata.http`), Buffer.from(lines.join('\n'), 'utf8'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), dir, 'rows.data.csv'), Buffer.from(ROWS_DATA, 'utf8'));
    await writeFile(join(state, 'outside.csv'), 'ip\n203.0.113.7\n');
    await symlink(join(state, 'outside.csv'), join(folder().fsPath, dir, 'linked.data.csv'));
    await admin(sandbox(), 'faults', { type: 'respond', path: '/v1/duns-search/ip/198.51.100.44', status: 404, body: { error: { errorCode: '40400', errorMessage: 'No organization at this address', nearest: '203.0.113.8' } } });
  });

  // The sandbox, its faults and the addresses go with the suite's own tear-down (helpers.ts).
  after(async () => {
    await relay.close();
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), dir), { recursive: true });
    await rm(state, { recursive: true, force: true });
  });

  /** `bizdata test FILE --json` as CI runs it, with the same account, through the relay. */
  function cliRun(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BIZDATA_')) env[k] = v;
    Object.assign(env, {
      ELECTRON_RUN_AS_NODE: '1',
      BIZDATA_STATE_DIR: state,
      BIZDATA_AUTH_URL: relay.url,
      BIZDATA_BASE_URL: relay.url,
      BIZDATA_LEGACY_URL: relay.url,
      BIZDATA_ORIGIN: 'https://localhost',
      BIZDATA_CONSUMER_KEY: c.key,
      BIZDATA_CONSUMER_SECRET: c.secret,
      BIZDATA_USER: c.user,
      BIZDATA_PASSWORD: c.password,
    });
    return new Promise((done) =>
      execFile(process.execPath, [join(EXTENSION_PATH, 'dist', 'cli.js'), 'test', file, '--json'], { env, timeout: 90_000, cwd: join(folder().fsPath, dir) }, (err, stdout, stderr) =>
        done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );
  }

  async function throughCli(name: string): Promise<{ decisions: Decisions; calls: string[]; code: number }> {
    const before = relay.requests();
    const file = `${name}.bizdata.http`;
    const run = await cliRun(file);
    const report = JSON.parse(run.stdout) as { files: ReadonlyArray<{ requests: readonly CliRequest[] }> };
    const decisions: Decisions = {};
    for (const r of report.files.flatMap((f) => f.requests)) decisions[r.line] = {
        verdict: r.verdict,
        ...(r.message !== undefined ? { message: plain(r.message) } : {}),
        // A request in error was not judged by its assertions (the Test Explorer skips them).
        assertions: r.verdict === 'error' ? [] : r.assertions.map((a) => a.passed),
      };
    // Not in the report: skipped, as "# @disabled" (one line on stderr) or after the run stopped.
    FILES[name].forEach((line, i) => {
      const requestLine = /^(GET|POST) /.test(line) ? i + 1 : undefined;
      if (requestLine !== undefined && !decisions[requestLine]) decisions[requestLine] = { verdict: 'skipped', assertions: [] };
    });
    return { decisions, calls: callsSince(before, relay.requests()), code: run.code };
  }

  /** The Test Explorer's latest run, for what it wrote besides the results. */
  let lastRun: TestRunView | undefined;

  async function throughTestExplorer(name: string): Promise<{ decisions: Decisions; calls: string[] }> {
    const tests = (await extensionApi()).testing.tests;
    const uri = vscode.Uri.joinPath(folder(), dir, `${name}.bizdata.http`);
    const lines = FILES[name];
    const requestCount = lines.filter((l) => /^(GET|POST) /.test(l)).length;
    await tests.discover();
    await tests.resolve(uri.toString());
    const items = await waitFor(() => tests.items().filter((i) => i.parent === uri.toString()), (i) => i.length === requestCount, `the requests of ${name}`);
    const before = relay.requests();
    const run: TestRunView = await tests.run([uri.toString()]);
    await run.done;
    lastRun = run;
    const last = (id: string) => run.events.filter((e) => e.id === id && !['output', 'enqueued', 'started'].includes(e.state)).at(-1);
    const decisions: Decisions = {};
    for (const item of items) {
      const outcome = last(item.id);
      assert.ok(outcome, `an outcome for ${item.label}: ${JSON.stringify(run.events)}`);
      const verdict: Verdict = outcome.state === 'errored' ? 'error' : (outcome.state as Verdict);
      const text = outcome.messages?.[0]?.text;
      // A message of the engine's, or (for failed assertions) the Test Explorer's own list of them, which has no counterpart in the JSON.
      const message = text === undefined || /^\d+ of \d+ assertions failed/.test(plain(text)) ? undefined : plain(text).replace(/^\S+:\d+: /, '');
      const checks = tests.items().filter((i) => i.parent === item.id);
      const assertions = verdict === 'passed' || verdict === 'failed' ? checks.map((check) => last(check.id)?.state === 'passed') : [];
      decisions[(item.line ?? -1) + 1] = { verdict, ...(message !== undefined ? { message } : {}), assertions };
    }
    return { decisions, calls: callsSince(before, relay.requests()) };
  }

  async function same(name: string): Promise<Decisions> {
    const editor = await throughTestExplorer(name);
    const cli = await throughCli(name);
    assert.deepEqual(cli.calls, editor.calls, 'the same data calls reached the service');
    assert.deepEqual(cli.decisions, editor.decisions, 'the same verdicts and messages');
    return cli.decisions;
  }

  it('a chain after an expected refusal, a failing assertion, a disabled request and a body file', async () => {
    const decisions = await same('main');
    // What the engine decided, for the record: the refusal passes and its answer is chained on.
    assert.deepEqual(
      Object.values(decisions).map((d) => d.verdict),
      ['passed', 'passed', 'failed', 'skipped', decisions[20].verdict],
    );
    assert.notEqual(decisions[20].verdict, 'skipped', 'the body file request ran');
  });

  it('Send chains on an expected refusal\'s answer too, as the runs do', async () => {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder(), dir, 'main.bizdata.http'));
    await vscode.window.showTextDocument(document);
    // The refusal is shown as an error too; the test answers nothing.
    const errors = answerErrorMessages();
    try {
      await runCodeLens<string>(document, 2, 'Send');
      const chained = await runCodeLens<string | undefined>(document, 6, 'Send');
      assert.ok(chained, 'the chained request was sent');
      const answer = await vscode.workspace.openTextDocument(vscode.Uri.parse(chained));
      assert.equal((JSON.parse(answer.getText()) as { inquiryDetail?: { ipAddress?: string } }).inquiryDetail?.ipAddress, '203.0.113.8');
    } finally {
      errors.restore();
    }
  });

  it('an SC001 answer ends the run as an error in both, whatever its assertion expects', async () => {
    await admin(sandbox(), 'faults', { type: 'respond', path: '/V4.0/organizations', status: 401, body: B_REFUSAL('SC001', 'Your user credentials are invalid.') });
    try {
      const decisions = await same('sc001');
      assert.deepEqual([decisions[2].verdict, decisions[6].verdict], ['error', 'skipped']);
      // The output says why the rest was skipped, in the words of the one stop table.
      assert.ok(lastRun?.events.some((e) => e.state === 'output' && /the run stopped here: the credentials or the token were refused/.test(e.output ?? '')), JSON.stringify(lastRun?.events));
    } finally {
      await fetch(`${sandbox().url}/_sandbox/faults`, { method: 'DELETE', headers: { 'x-sandbox-admin': sandbox().adminKey } });
      await admin(sandbox(), 'faults', { type: 'respond', path: '/v1/duns-search/ip/198.51.100.44', status: 404, body: { error: { errorCode: '40400', errorMessage: 'No organization at this address', nearest: '203.0.113.8' } } });
    }
  });

  it('an SC005 answer ends the run as an error in both', async () => {
    await admin(sandbox(), 'faults', { type: 'respond', path: '/V4.0/organizations', status: 401, body: B_REFUSAL('SC005', 'Maximum limit permitted by the contract reached.') });
    const decisions = await same('sc005');
    assert.deepEqual([decisions[2].verdict, decisions[6].verdict], ['error', 'skipped']);
  });

  /** A message as the lines it holds, the run's folder taken off the paths (the CLI names files as given, the editor from the workspace). */
  const lines = (text: string): string[] =>
    text
      .replace(/&nbsp;/g, ' ')
      .replace(/\\(.)/g, '$1')
      .split(/\n+/)
      .map((l) => l.split(`${dir}/`).join('').trim())
      .filter((l) => /^\S+\.(bizdata\.http|data\.csv)(:\d+)?: /.test(l));

  /** A refused run through both hosts: the refusal lines of each, and what reached the service. */
  async function refusedAlike(name: string): Promise<string[]> {
    const before = relay.requests();
    const cli = await cliRun(`${name}.bizdata.http`);
    assert.equal(cli.code, 2, cli.stderr);
    const tests = (await extensionApi()).testing.tests;
    const uri = vscode.Uri.joinPath(folder(), dir, `${name}.bizdata.http`);
    await tests.discover();
    await tests.resolve(uri.toString());
    const run = await tests.run([uri.toString()]);
    await run.done;
    const errored = run.events.filter((e) => e.state === 'errored');
    assert.equal(errored.length, 1, JSON.stringify(run.events));
    assert.deepEqual(callsSince(before, relay.requests()), [], 'nothing reached the service');
    const editor = lines(errored[0].messages?.[0]?.text ?? '');
    assert.deepEqual(lines(cli.stderr), editor, 'the same refusals at the same places');
    return editor;
  }

  it('refuses a file with a reference to nothing before anything is sent, in both, at the same line', async () => {
    const refusals = await refusedAlike('unknown');
    assert.deepEqual(refusals.map((l) => l.split(': ')[0]), ['unknown.bizdata.http:5']);
    assert.match(refusals[0], /Unknown variable "nowhere"/);
  });

  it('never reads a data file beside a request file that links out of its folder, in both', async () => {
    const [refusal] = await refusedAlike('linked');
    assert.match(refusal, /^linked\.bizdata\.http: The data file .*linked\.data\.csv is outside /);
  });

  it('a data file with a bad row: that row fails at ROWS:LINE in both, every other row runs, the same calls', async () => {
    const before = relay.requests();
    const cli = await cliRun('rows.bizdata.http');
    const report = JSON.parse(cli.stdout) as { files: ReadonlyArray<{ requests: ReadonlyArray<{ name: string; verdict: Verdict; message?: string }> }> };
    const fromCli = Object.fromEntries(report.files[0].requests.map((r) => [Number(/:(\d+)\]$/.exec(r.name)?.[1]), { verdict: r.verdict, message: lines(r.message ?? '') }]));
    const cliCalls = callsSince(before, relay.requests());
    const tests = (await extensionApi()).testing.tests;
    const uri = vscode.Uri.joinPath(folder(), dir, 'rows.bizdata.http');
    await tests.discover();
    await tests.resolve(uri.toString());
    const rows = await waitFor(() => tests.items().filter((i) => i.parent === uri.toString()), (r) => r.length === 3, 'the rows of rows.data.csv');
    const middle = relay.requests();
    const run = await tests.run([uri.toString()]);
    await run.done;
    const last = (id: string) => run.events.filter((e) => e.id === id && ['passed', 'failed', 'errored', 'skipped'].includes(e.state)).at(-1);
    const fromEditor = Object.fromEntries(rows.map((r) => [Number(/#row(\d+)$/.exec(r.id)?.[1]), { verdict: (last(r.id)?.state === 'errored' ? 'error' : last(r.id)?.state) as Verdict, message: lines(last(r.id)?.messages?.[0]?.text ?? '') }]));
    assert.deepEqual(callsSince(middle, relay.requests()), cliCalls, 'the same data calls reached the service');
    assert.deepEqual(fromCli, fromEditor, 'the same verdict per row, and the bad row at the same ROWS:LINE');
    assert.deepEqual([fromCli[2].verdict, fromCli[3].verdict, fromCli[5].verdict], ['passed', 'error', 'passed']);
    assert.match(fromCli[3].message[0], /^rows\.data\.csv:3: lookup \(rows\.bizdata\.http:2\) cannot be sent with this row's values: .*line break/);
  });
});
