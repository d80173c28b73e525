// Start Local Sandbox runs the bundled CLI, signs in with its demo credentials and points this
// window at it without touching settings; Stop ends the process.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi, waitFor } from './helpers';

describe('local sandbox from VS Code', function () {
  this.timeout(60_000);

  after(async () => {
    await vscode.commands.executeCommand('bizdata.stopSandbox');
  });

  it('starts, serves a lookup with the demo credentials, and stops', async () => {
    const api = await extensionApi();
    const settingsBefore = JSON.stringify(vscode.workspace.getConfiguration('bizdata').inspect('endpoints.baseUrl'));
    const url = await vscode.commands.executeCommand<string>('bizdata.startSandbox');
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(api.testing.sandboxUrl(), url);
    assert.equal(JSON.stringify(vscode.workspace.getConfiguration('bizdata').inspect('endpoints.baseUrl')), settingsBefore, 'settings changed');

    const bar = await waitFor(() => api.testing.statusBar(), (b) => b.text.includes('(sandbox)'), 'sandbox status');
    assert.match(bar.text, /\(sandbox\): valid/);
    const items = await api.testing.treeItems('connections');
    const sandboxItem = items.find((i) => i.label === 'Local sandbox');
    assert.equal(sandboxItem?.contextValue, 'bizdata.sandbox.running');
    assert.match(sandboxItem?.description ?? '', /running at http/);

    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.7' });
    assert.ok(uri);
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'json');
    const org = await vscode.commands.executeCommand<string>('bizdata.lookUpOrganization', { country: 'DE', name: 'Beispiel GmbH' });
    assert.ok(org);

    assert.equal(await vscode.commands.executeCommand('bizdata.stopSandbox'), true);
    assert.equal(api.testing.sandboxUrl(), undefined);
    await assert.rejects(fetch(`${url}/_sandbox/stats`, { signal: AbortSignal.timeout(2000) }), 'the sandbox still answers after Stop');
    const after = await waitFor(() => api.testing.statusBar(), (b) => !b.text.includes('(sandbox)'), 'status after stop');
    assert.ok(!after.text.includes('(sandbox)'));
  });
});
