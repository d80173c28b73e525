// Restricted Mode (an untrusted folder): request files open, highlight and show their problems, but
// Send sends nothing with a token and offers to manage trust; the folder's preferred connection is
// ignored. The suite runs with VS Code's Workspace Trust on, so its test folder is not trusted.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { canaries, closeAllEditors, extensionApi, openRequestFile, ourDiagnostics, sleep, stats, useTestSandbox, waitFor, withWorkspaceSettings } from '../integration/helpers';

describe('Restricted Mode', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);

  it('runs in a folder VS Code does not trust', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this suite needs Workspace Trust on (scripts/run-vscode-tests.mjs restricted)');
  });

  it('shows a request file and its problems, but Send sends nothing with the token and offers to manage trust', async () => {
    const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret });
    assert.equal(state, 'valid', 'signing in is the user typing credentials, not the folder');
    const file = await openRequestFile(['GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard', '', '###', 'GET https://collector.example.net/v1/x', ''].join('\n'));
    type Warn = (message: string, ...items: string[]) => Thenable<string | undefined>;
    const win = vscode.window as unknown as { showWarningMessage: Warn };
    const original = win.showWarningMessage;
    const warnings: Array<{ message: string; items: string[] }> = [];
    try {
      const problems = await waitFor(() => ourDiagnostics(file.document.uri), (d) => d.length > 0, 'the request file problems');
      assert.equal(problems[0].range.start.line, 3, 'the request to another host is underlined');
      win.showWarningMessage = (message, ...items) => {
        warnings.push({ message, items });
        return Promise.resolve(undefined);
      };
      const before = await stats(sandbox());
      assert.equal(await vscode.commands.executeCommand('bizdata.sendRequest', { uri: file.document.uri.toString(), line: 0 }), undefined);
      await sleep(300);
      const after = await stats(sandbox());
      assert.equal(after.requests, before.requests, 'nothing reached the service');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0].message, /Restricted Mode, so request files send nothing with your token/);
      assert.deepEqual(warnings[0].items, ['Manage Workspace Trust']);
    } finally {
      win.showWarningMessage = original;
      await closeAllEditors();
      await file.dispose();
    }
  });

  it('runs nothing from the Test Explorer: each file stops at its first request with the way to trust the folder, and nothing is sent', async () => {
    const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret });
    assert.equal(state, 'valid');
    const tests = (await extensionApi()).testing.tests;
    const file = await openRequestFile(['### first', 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard', '?? status == 200', '', '### second', 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.8?view=standard', ''].join('\n'));
    try {
      const fileId = file.document.uri.toString();
      const [first, second] = await waitFor(() => tests.items().filter((i) => i.parent === fileId), (items) => items.length === 2, 'the requests of the file in the Test Explorer');
      const before = await stats(sandbox());
      const run = await tests.run([fileId]);
      await run.done;
      const events = JSON.stringify(run.events);
      const last = (id: string): (typeof run.events)[number] | undefined => run.events.filter((e) => e.id === id && e.state !== 'output' && e.state !== 'enqueued').at(-1);
      assert.equal(last(first.id)?.state, 'errored', events);
      // The message is Markdown, as the peek view shows it: spaces as &nbsp;, punctuation escaped.
      const text = (last(first.id)?.messages?.[0]?.text ?? '').replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
      assert.match(text, /Restricted Mode, so request files send nothing with your token[^]*Manage Workspace Trust/);
      assert.equal(last(second.id)?.state, 'skipped', events);
      await sleep(300);
      const after = await stats(sandbox());
      assert.equal(after.requests, before.requests, 'nothing reached the service');
    } finally {
      await closeAllEditors();
      await file.dispose();
    }
  });

  it("ignores the folder's preferred connection", async () => {
    const api = await extensionApi();
    const url = sandbox().url;
    await vscode.workspace.getConfiguration().update('bizdata.connections', { connections: { mine: { baseUrl: url, authUrl: url }, other: { baseUrl: url, authUrl: url } } }, vscode.ConfigurationTarget.Global);
    try {
      await withWorkspaceSettings({ 'bizdata.preferredConnection': 'other' }, async () => {
        // Trusted, the folder's preference would win over `default` (today's endpoint settings here).
        assert.equal(api.testing.connections().active, 'default', 'not the connection the folder prefers');
      });
    } finally {
      await vscode.workspace.getConfiguration().update('bizdata.connections', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
