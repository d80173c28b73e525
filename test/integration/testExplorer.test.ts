// Request files in the Test Explorer, against the real sandbox over loopback: the controller finds a
// file of the workspace without opening it, a run reports each request and `??` assertion at its line
// (a success passes, a failing answer fails with its code and opens from the result, a failed
// assertion shows expected and actual, a 429 the client waits out passes),
// VS Code's own Re-run Failed and Run at Cursor work on the tree, an edit changes the tree, and
// cancelling ends a run while its request is still on the wire.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { TestRunView } from '../../src/features/testingApi';
import { recordingRelay } from '../recordingRelay';
import { admin, answerModalWarnings, extensionApi, openRequestFile, pointAt, sleep, useSignedInTestSandbox, waitFor } from './helpers';

const ORG_SEARCH = 'GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code=GB&SubjectName=Failing%20Co&match=true&MatchTypeText=Advanced';
const FILE = [
  '### passes',
  '# @name first',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard',
  '?? status == 200',
  '?? body $.inquiryDetail.ipAddress == 203.0.113.7',
  '',
  '### fails: the service answers CM001',
  ORG_SEARCH,
  '',
  '### expects CM001',
  ORG_SEARCH,
  '?? code == CM001',
  '?? status == 400',
  '',
  '### chained, with an assertion that does not hold',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{first.response.body.$.inquiryDetail.ipAddress}}?view=standard',
  '?? body $.inquiryDetail.ipAddress == 203.0.113.9',
  '?? duration < 60000',
].join('\n');
const LINES = { passing: 2, failing: 7, expectsCode: 10, chained: 15, wrongAssertion: 16 };

/** A file with two requests and no assertions, for the edits. */
const SMALL = FILE.split('\n').slice(0, 8).filter((l) => !l.startsWith('??')).join('\n');

type Tests = Awaited<ReturnType<typeof extensionApi>>['testing']['tests'];

/** The last event a run reported for a test (its outcome), by the test's id. */
function outcome(run: TestRunView, id: string): TestRunView['events'][number] | undefined {
  return run.events.filter((e) => e.id === id && e.state !== 'output' && e.state !== 'enqueued').at(-1);
}

/** A message's Markdown as the peek view shows it (spaces and escapes as text). */
function plain(markdown: string): string {
  return markdown.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
}

function children(tests: Tests, fileId: string): ReturnType<Tests['items']> {
  return tests.items().filter((i) => i.parent === fileId);
}

/** The run VS Code started through one of its own testing commands, once it ended. */
async function runOf(tests: Tests, command: string): Promise<TestRunView> {
  const before = tests.runs().length;
  await vscode.commands.executeCommand(command);
  const [run] = await waitFor(() => tests.runs().slice(before), (r) => r.length > 0, `a run started by ${command}`);
  await run.done;
  return run;
}

describe('request files in the Test Explorer', function () {
  this.timeout(90_000);
  const { sandbox } = useSignedInTestSandbox();
  /** Pointing the addresses at a relay asks before the credentials go there (issue 25): the user says yes. */
  const modal = answerModalWarnings();
  let tests: Tests;

  before(async () => {
    tests = (await extensionApi()).testing.tests;
  });

  it('finds a request file of the workspace that no editor has open, and reads it only when asked', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    // The tree watches the workspace from its first discovery on. A file created and deleted within
    // one batch of the watcher's events is reported as neither, so the new file's creation must have
    // been delivered before it is deleted: events come in order, and a probe file the watcher reports
    // by itself (no discovery) after it shows that it was.
    await tests.discover();
    const uri = vscode.Uri.joinPath(folder, 'nested', `found-${randomUUID()}.bizdata.http`);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(FILE, 'utf8'));
    const probe = vscode.Uri.joinPath(folder, 'nested', `probe-${randomUUID()}.bizdata.http`);
    await vscode.workspace.fs.writeFile(probe, Buffer.from(FILE, 'utf8'));
    await waitFor(() => tests.items().some((i) => i.id === probe.toString()), (present) => present, 'the watcher to report a new file');
    await vscode.workspace.fs.delete(probe);
    await waitFor(() => tests.items().some((i) => i.id === probe.toString()), (present) => !present, 'the watcher to report a deleted file');
    try {
      await tests.discover();
      const file = tests.items().find((i) => i.id === uri.toString());
      assert.ok(file, `the file is in the tree: ${JSON.stringify(tests.items().map((i) => i.id))}`);
      assert.match(file.label, /^nested\/found-.*\.bizdata\.http$/);
      assert.equal(file.canResolveChildren, true, 'not read until expanded');
      assert.equal(children(tests, file.id).length, 0);
      await tests.resolve(file.id);
      const requests = children(tests, file.id);
      assert.deepEqual(
        requests.map((r) => [r.label, r.line]),
        [
          ['first', LINES.passing],
          ['fails: the service answers CM001', LINES.failing],
          ['expects CM001', LINES.expectsCode],
          ['chained, with an assertion that does not hold', LINES.chained],
        ],
      );
      assert.deepEqual(
        children(tests, requests[0].id).map((a) => [a.label, a.line]),
        [
          ['?? status == 200', 3],
          ['?? body $.inquiryDetail.ipAddress == 203.0.113.7', 4],
        ],
      );
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
    // The watcher takes it out again.
    await waitFor(() => tests.items().some((i) => i.id === uri.toString()), (present) => !present, 'the deleted file to leave the tree');
  });

  it('reports each request and assertion at its line: passes, fails with expected and actual, an expected code, and a 429 waited out', async () => {
    // The organization search answers CM001 twice; the IP lookup is throttled once with a 429, which the client waits out.
    await admin(sandbox(), 'faults', { type: 'respond', count: 2, status: 400, path: '/V4.0/organizations', body: { MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: 'CM001', ResultText: 'Invalid request' } } } });
    await admin(sandbox(), 'faults', { type: 'respond', count: 1, status: 429, path: '/v1/duns-search', headers: { 'retry-after': '1' }, body: { error: { errorCode: '429', errorMessage: 'Too many requests' } } });
    const file = await openRequestFile(FILE);
    try {
      const fileId = file.document.uri.toString();
      const [passing, failing, expectsCode, chained] = await waitFor(() => children(tests, fileId), (c) => c.length === 4, 'the requests of the open file');
      const run = await tests.run([fileId]);
      await run.done;
      const events = JSON.stringify(run.events);

      // Passed, with its duration, and so did both its assertions.
      const passed = outcome(run, passing.id);
      assert.equal(passed?.state, 'passed', events);
      assert.ok((passed.durationMs ?? -1) >= 1000, 'the duration counts the wait for the 429');
      for (const a of children(tests, passing.id)) assert.equal(outcome(run, a.id)?.state, 'passed', events);

      // No assertions and a failing answer: failed at the request line, with the code, and the answer a click away.
      const failed = outcome(run, failing.id);
      assert.equal(failed?.state, 'failed', events);
      const [message] = failed.messages ?? [];
      assert.equal(message.uri, fileId);
      assert.equal(message.line, LINES.failing);
      // The one judge's words, as `bizdata test` prints them (core/run/judge.ts).
      assert.match(plain(message.text), /^The answer is no success \(HTTP 400 CM001\): [^]*Invalid request[^]*"\?\? status == 400"/);
      assert.match(message.text, /Open the answer/);
      assert.equal(message.contextValue, 'bizdata.testAnswer');
      assert.ok(run.events.some((e) => e.state === 'output' && e.id === failing.id && /CM001/.test(e.output ?? '')), 'the answer line in the output');

      // The same refusal, asserted by its code: passes.
      assert.equal(outcome(run, expectsCode.id)?.state, 'passed', events);

      // Chained on the first answer; its wrong assertion fails at its own line with expected and actual.
      assert.equal(outcome(run, chained.id)?.state, 'failed', events);
      const [wrong, quick] = children(tests, chained.id);
      const wrongOutcome = outcome(run, wrong.id);
      assert.equal(wrongOutcome?.state, 'failed', events);
      const [assertionMessage] = wrongOutcome.messages ?? [];
      assert.equal(assertionMessage.line, LINES.wrongAssertion);
      assert.equal(assertionMessage.expected, '203.0.113.9');
      assert.equal(assertionMessage.actual, '203.0.113.7', 'the chained value went out');
      assert.match(plain(assertionMessage.text), /expected == 203\.0\.113\.9, actual "203\.0\.113\.7"/);
      assert.equal(outcome(run, quick.id)?.state, 'passed', events);
      const [chainedMessage] = outcome(run, chained.id)?.messages ?? [];
      assert.match(plain(chainedMessage.text), new RegExp(`1 of 2 assertions failed[^]*:${LINES.wrongAssertion + 1}: `));

      // "Open Answer" on the failed test opens the answer the run got.
      const answerUri = await vscode.commands.executeCommand<string>('bizdata.openTestAnswer', { testId: failing.id });
      const answer = await vscode.workspace.openTextDocument(vscode.Uri.parse(answerUri));
      assert.equal(answer.uri.scheme, 'bizdata-result');
      assert.ok(answer.getText().includes('"CM001"'), answer.getText());

      // VS Code's own "Rerun Failed Tests" runs the failed requests only (and what they chain on); the CM001 answers are used up.
      const rerun = await runOf(tests, 'testing.reRunFailTests');
      const rerunEvents = JSON.stringify(rerun.events);
      assert.equal(outcome(rerun, failing.id)?.state, 'passed', rerunEvents);
      assert.equal(outcome(rerun, expectsCode.id), undefined, rerunEvents);
      assert.equal(outcome(rerun, passing.id)?.state, 'passed', 'run again: the chained request needs its answer');

      // "Run Test at Cursor" (the gutter's and the palette's way) runs the request under the cursor, after the one it chains on.
      const editor = await vscode.window.showTextDocument(file.document);
      editor.selection = new vscode.Selection(LINES.chained, 3, LINES.chained, 3);
      const atCursor = await runOf(tests, 'testing.runAtCursor');
      const cursorEvents = JSON.stringify(atCursor.events);
      assert.equal(outcome(atCursor, chained.id)?.state, 'failed', cursorEvents);
      assert.equal(outcome(atCursor, passing.id)?.state, 'passed', cursorEvents);
      assert.equal(outcome(atCursor, failing.id), undefined, cursorEvents);
    } finally {
      await file.dispose();
    }
  });

  it('skips a # @disabled request without sending it, and sends a < ./file body from the workspace folder byte for byte', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const bodyName = `body-${randomUUID()}.json`;
    const body = Buffer.from('{\r\n  "id": "{{kept}}",\r\n  "city": "São Paulo"\r\n}\n');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, bodyName), body);
    // The extension's addresses go through a recording relay in front of the sandbox: what reached it is checked.
    const relay = await recordingRelay(new URL(sandbox().url));
    modal.answer = 'Send Them to the New Address';
    await pointAt(relay.url);
    const file = await openRequestFile(
      [
        '### never',
        '# @disabled',
        'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.66?view=standard',
        '?? status == 200',
        '',
        '### with a body file',
        'POST {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.67?view=standard',
        'Content-Type: application/json',
        '',
        `< ./${bodyName}`,
        '',
      ].join('\n'),
    );
    try {
      const fileId = file.document.uri.toString();
      const [never, withBody] = await waitFor(() => children(tests, fileId), (c) => c.length === 2, 'the requests of the open file');
      const run = await tests.run([fileId]);
      await run.done;
      const events = JSON.stringify(run.events);
      assert.equal(outcome(run, never.id)?.state, 'skipped', events);
      for (const a of children(tests, never.id)) assert.equal(outcome(run, a.id)?.state, 'skipped', events);
      assert.ok(outcome(run, withBody.id), events);
      const sent = relay.requests().filter((r) => r.line.includes('/duns-search/ip/'));
      assert.deepEqual(
        sent.map((r) => r.line.replace(/\/v\d[^/]*\//, '/VERSION/')),
        ['POST /VERSION/duns-search/ip/203.0.113.67?view=standard HTTP/1.1'],
        'the disabled request was not sent',
      );
      assert.ok(sent[0].body.equals(body), `the body file as it is on disk, got ${JSON.stringify(sent[0].body.toString('latin1'))}`);
    } finally {
      await pointAt(sandbox().url);
      await relay.close();
      await file.dispose();
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, bodyName));
    }
  });

  it('follows edits of an open file: a request added, renamed or removed changes the tree', async () => {
    const file = await openRequestFile(SMALL);
    try {
      const fileId = file.document.uri.toString();
      await waitFor(() => children(tests, fileId).length, (n) => n === 2, 'the two requests');
      const edit = new vscode.WorkspaceEdit();
      edit.insert(file.document.uri, new vscode.Position(file.document.lineCount, 0), '\n\n### added\n# @name third\nGET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.9?view=standard\n?? status == 200\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const three = await waitFor(() => children(tests, fileId), (c) => c.length === 3, 'the added request');
      assert.deepEqual([three[2].label, three[2].line], ['third', 9]);
      assert.deepEqual(
        children(tests, three[2].id).map((a) => [a.label, a.line]),
        [['?? status == 200', 10]],
      );
      const rename = new vscode.WorkspaceEdit();
      rename.replace(file.document.uri, new vscode.Range(1, 0, 1, '# @name first'.length), '# @name renamed');
      assert.ok(await vscode.workspace.applyEdit(rename));
      await waitFor(() => children(tests, fileId)[0]?.label, (l) => l === 'renamed', 'the renamed request');
      const remove = new vscode.WorkspaceEdit();
      remove.delete(file.document.uri, new vscode.Range(3, 0, 6, 0));
      assert.ok(await vscode.workspace.applyEdit(remove));
      const two = await waitFor(() => children(tests, fileId), (c) => c.length === 2, 'the removed request');
      assert.deepEqual(
        two.map((c) => c.label),
        ['renamed', 'third'],
      );
    } finally {
      await file.dispose();
    }
  });

  it('cancelling ends the run at once, with its request still on the wire, and skips the rest', async () => {
    await admin(sandbox(), 'faults', { type: 'latency', path: '/v1/duns-search', latencyMs: 20_000, count: 1 });
    const file = await openRequestFile(SMALL);
    try {
      const fileId = file.document.uri.toString();
      const [slow, next] = await waitFor(() => children(tests, fileId), (c) => c.length === 2, 'the requests');
      const source = new vscode.CancellationTokenSource();
      const started = Date.now();
      const running = tests.run([fileId], source.token);
      const run = await waitFor(() => tests.runs().at(-1), (r) => r?.events.some((e) => e.state === 'started' && e.id === slow.id) === true, 'the slow request to start');
      assert.ok(run);
      await sleep(300);
      source.cancel();
      await running;
      assert.ok(run.ended, 'the run ended');
      assert.ok(Date.now() - started < 10_000, `the run waited for the answer (${Date.now() - started} ms)`);
      assert.equal(outcome(run, slow.id)?.state, 'skipped', JSON.stringify(run.events));
      assert.equal(outcome(run, next.id)?.state, 'skipped', JSON.stringify(run.events));
      source.dispose();
    } finally {
      await file.dispose();
    }
  });
});
