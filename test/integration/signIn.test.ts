// Sign in and out through the commands; the secret lives in SecretStorage and nowhere else.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { canaries, dataRootOf, extensionApi, filesContaining, sleep, stats, useTestSandbox, waitFor } from './helpers';

describe('sign in and out', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);

  it('signs in to Interface A with an argument object and shows a valid token', async () => {
    const api = await extensionApi();
    const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret });
    assert.equal(state, 'valid');
    const bar = await waitFor(() => api.testing.statusBar(), (b) => /valid 2[34]h \d+m/.test(b.text), 'a valid status bar');
    assert.match(bar.text, /Business Data A: valid 2[34]h \d+m/);
    assert.match(bar.tooltip, /Interface A/);
    assert.ok(!bar.tooltip.includes(c.key), 'the tooltip shows the account masked');
    assert.match(bar.accessibilityLabel, /token valid/);
    const items = await api.testing.treeItems('connections');
    const a = items.find((i) => i.label.startsWith('Interface A'));
    assert.equal(a?.contextValue, 'bizdata.connection.signedIn');
    assert.match(a?.description ?? '', /valid/);
  });

  it('signs in to Interface B with user and password', async () => {
    const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'b', user: c.user, password: c.password });
    assert.equal(state, 'valid');
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpOrganization', { country: 'GB', name: 'Canary Test Ltd' });
    assert.ok(uri, 'the organization lookup opened a result');
  });

  it('keeps the secrets in SecretStorage only: not in settings, state, logs or files', async () => {
    const api = await extensionApi();
    const needles = [c.secret, c.password, Buffer.from(`${c.key}:${c.secret}`).toString('base64')];
    // Settings, as VS Code resolves them at every level.
    const config = vscode.workspace.getConfiguration('bizdata');
    const inspected = JSON.stringify(
      ['endpoints.authUrl', 'endpoints.baseUrl', 'endpoints.legacyUrl', 'endpoints.origin', 'network.proxy', 'network.caFile'].map((k) => config.inspect(k)),
    );
    for (const n of needles) assert.ok(!inspected.includes(n), 'a secret is in the settings');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (folder) {
      const wsSettings = readFileSync(join(folder, '.vscode', 'settings.json'), 'utf8');
      for (const n of needles) assert.ok(!wsSettings.includes(n), 'a secret is in the workspace settings.json');
    }
    // globalState and workspaceState.
    const state = api.testing.stateDump();
    for (const n of [...needles, c.key, c.user]) assert.ok(!state.includes(n), 'a credential is in globalState/workspaceState');
    // The log (flushed to disk) and every file VS Code keeps for this test run.
    await vscode.commands.executeCommand('bizdata.showLog');
    await sleep(1500);
    const logDir = vscode.Uri.parse(api.testing.logUri).fsPath;
    const roots = new Set([dataRootOf(logDir), dataRootOf(vscode.Uri.parse(api.testing.globalStorageUri).fsPath)]);
    if (folder) roots.add(folder);
    for (const root of roots) {
      const hits = filesContaining(root, needles);
      assert.deepEqual(hits, [], `a secret was written to ${hits.join(', ')}`);
    }
    // The log does exist and has request lines, so the search above looked at real content.
    const logHits = filesContaining(dataRootOf(logDir), ['/v1/token']);
    assert.ok(logHits.length > 0, `no log file with request lines under ${dataRootOf(logDir)}`);
  });

  it('signs out: credentials and tokens are forgotten', async () => {
    const api = await extensionApi();
    assert.equal(await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'a' }), true);
    assert.equal(await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'b' }), true);
    const bar = await waitFor(() => api.testing.statusBar(), (b) => b.text.includes('signed out'), 'signed-out status bar');
    assert.match(bar.text, /signed out/);
    // Signed out everywhere: the Connections view is empty so its welcome buttons show.
    assert.deepEqual(await api.testing.treeItems('connections'), []);
    // A lookup now explains that nobody is signed in instead of calling the service.
    const before = await stats(sandbox());
    const uri = await vscode.commands.executeCommand('bizdata.lookUpIp', { ip: '203.0.113.7' });
    assert.equal(uri, undefined);
    const after = await stats(sandbox());
    assert.equal(after.requests, before.requests, 'a signed-out lookup reached the service');
  });
});
