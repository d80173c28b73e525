// Request files in the Test Explorer, against the real sandbox over loopback: the controller finds a
// file of the workspace without opening it, a run reports each request at its line (a success passes,
// a failing answer fails with its code and opens from the result, a 429 the client waits out passes),
// VS Code's own Re-run Failed and Run at Cursor work on the tree, an edit changes the tree, and
// cancelling ends a run while its request is still on the wire.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { TestRunView } from '../../src/features/testingApi';
import { admin, extensionApi, openRequestFile, sleep, useSignedInTestSandbox, waitFor } from './helpers';

const PASSING_LINE = 2;
const FAILING_LINE = 5;
const FILE = [
  '### passes',
  '# @name first',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard',
  '',
  '### fails: the service answers CM001',
  'GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code=GB&SubjectName=Failing%20Co&match=true&MatchTypeText=Advanced',
].join('\n');

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
  let tests: Tests;

  before(async () => {
    tests = (await extensionApi()).testing.tests;
  });

  it('finds a request file of the workspace that no editor has open, and reads it only when asked', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder, 'nested', `found-${randomUUID()}.bizdata.http`);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(FILE, 'utf8'));
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
          ['first', PASSING_LINE],
          ['fails: the service answers CM001', FAILING_LINE],
        ],
      );
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
    // The watcher takes it out again.
    await waitFor(() => tests.items().some((i) => i.id === uri.toString()), (present) => !present, 'the deleted file to leave the tree');
  });

  it('reports the passing request and the failing one at its line, with its code, its duration and its answer', async () => {
    // The organization search answers CM001; the IP lookup is throttled once with a 429, which the client waits out.
    await admin(sandbox(), 'faults', { type: 'respond', count: 1, status: 400, path: '/V4.0/organizations', body: { MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: 'CM001', ResultText: 'Invalid request' } } } });
    await admin(sandbox(), 'faults', { type: 'respond', count: 1, status: 429, path: '/v1/duns-search', headers: { 'retry-after': '1' }, body: { error: { errorCode: '429', errorMessage: 'Too many requests' } } });
    const file = await openRequestFile(FILE);
    try {
      const fileId = file.document.uri.toString();
      const [passing, failing] = await waitFor(() => children(tests, fileId), (c) => c.length === 2, 'the requests of the open file');
      const run = await tests.run([fileId]);
      await run.done;
      const passed = outcome(run, passing.id);
      assert.equal(passed?.state, 'passed', JSON.stringify(run.events));
      assert.ok((passed.durationMs ?? -1) >= 0, 'a duration');
      const failed = outcome(run, failing.id);
      assert.equal(failed?.state, 'failed', JSON.stringify(run.events));
      const [message] = failed.messages ?? [];
      assert.equal(message.uri, fileId);
      assert.equal(message.line, FAILING_LINE);
      assert.match(plain(message.text), /^The answer is not a success: HTTP 400 · CM001 · Invalid request \(\d+ ms\)/);
      assert.match(message.text, /Open the answer/);
      assert.equal(message.contextValue, 'bizdata.testAnswer');
      assert.ok(run.events.some((e) => e.state === 'output' && e.id === failing.id && /CM001/.test(e.output ?? '')), 'the answer line in the output');

      // "Open Answer" on the failed test opens the answer the run got.
      const answerUri = await vscode.commands.executeCommand<string>('bizdata.openTestAnswer', { testId: failing.id });
      const answer = await vscode.workspace.openTextDocument(vscode.Uri.parse(answerUri));
      assert.equal(answer.uri.scheme, 'bizdata-result');
      assert.ok(answer.getText().includes('"CM001"'), answer.getText());

      // VS Code's own "Rerun Failed Tests" runs the failed request only; the fault is used up, so it passes now.
      const rerun = await runOf(tests, 'testing.reRunFailTests');
      assert.equal(outcome(rerun, failing.id)?.state, 'passed', JSON.stringify(rerun.events));
      assert.equal(outcome(rerun, passing.id), undefined, 'the passing request was not run again');

      // "Run Test at Cursor" (the gutter's and the palette's way) runs the request under the cursor.
      const editor = await vscode.window.showTextDocument(file.document);
      editor.selection = new vscode.Selection(PASSING_LINE, 3, PASSING_LINE, 3);
      const atCursor = await runOf(tests, 'testing.runAtCursor');
      assert.equal(outcome(atCursor, passing.id)?.state, 'passed', JSON.stringify(atCursor.events));
      assert.equal(outcome(atCursor, failing.id), undefined);
    } finally {
      await file.dispose();
    }
  });

  it('follows edits of an open file: a request added, renamed or removed changes the tree', async () => {
    const file = await openRequestFile(FILE);
    try {
      const fileId = file.document.uri.toString();
      await waitFor(() => children(tests, fileId).length, (n) => n === 2, 'the two requests');
      const edit = new vscode.WorkspaceEdit();
      edit.insert(file.document.uri, new vscode.Position(file.document.lineCount, 0), '\n\n### added\n# @name third\nGET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.9?view=standard\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const three = await waitFor(() => children(tests, fileId), (c) => c.length === 3, 'the added request');
      assert.deepEqual([three[2].label, three[2].line], ['third', 9]);
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
    const file = await openRequestFile(FILE);
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
