// Lookups by command with arguments open the expected JSON editor; history, curl, save, re-run.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { admin, extensionApi, stats, useSignedInTestSandbox } from './helpers';

describe('lookups and results', function () {
  this.timeout(60_000);
  const { c, sandbox } = useSignedInTestSandbox();

  it('looks up an IP address from an argument object and opens a read-only JSON result', async () => {
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.7', view: 'standard' });
    assert.equal(typeof uri, 'string');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'no editor opened');
    assert.equal(editor.document.uri.toString(), uri);
    assert.equal(editor.document.uri.scheme, 'bizdata-result');
    assert.match(editor.document.uri.path, /\.json$/);
    assert.equal(editor.document.languageId, 'json');
    const text = editor.document.getText();
    assert.ok(text.includes('\n  '), 'the body is pretty-printed');
    const body = JSON.parse(text) as unknown;
    assert.ok(body && typeof body === 'object');
    assert.ok(text.includes('203.0.113.7'), 'the result is about the address asked for');
  });

  it('looks up an organization and shows CM000 in the Lookups view', async () => {
    const api = await extensionApi();
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpOrganization', { country: 'gb', name: 'Acme Widgets Ltd', territory: 'London' });
    assert.ok(uri);
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.toString(), uri);
    assert.equal(doc?.languageId, 'json');
    assert.ok(doc?.getText().includes('"CM000"'));
    const items = await api.testing.treeItems('lookups');
    const history = items.filter((i) => i.contextValue === 'bizdata.lookup.history');
    assert.ok(history.length >= 2, JSON.stringify(items));
    assert.match(history[0].label, /Acme Widgets Ltd \(GB, London\)/);
    assert.match(history[0].description, /^CM000 · 200 · \d+ ms · default$/);
    assert.equal(history[1].label, '203.0.113.7');
  });

  it('rejects a malformed IP before any request, with the validation text', async () => {
    const before = await stats(sandbox());
    const uri = await vscode.commands.executeCommand('bizdata.lookUpIp', { ip: '999.1.1.1' });
    assert.equal(uri, undefined);
    const after = await stats(sandbox());
    assert.equal(after.requests, before.requests);
  });

  it('copies the request as curl with placeholders, never the token', async () => {
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '198.51.100.20' });
    const curl = await vscode.commands.executeCommand<string>('bizdata.copyAsCurl', { resultUri: uri });
    assert.match(curl, /^# Business Data connection: default\ncurl /);
    assert.ok(curl.includes('/v1/duns-search/ip/198.51.100.20'));
    assert.ok(curl.includes('<TOKEN>'), curl);
    for (const secret of [c.secret, c.password]) assert.ok(!curl.includes(secret));
    assert.ok(!/Bearer (?!<)/.test(curl), 'a real bearer token leaked into the curl command');
    assert.equal(await vscode.env.clipboard.readText(), curl);
  });

  it('saves the response into the workspace as <name>.response.json', async () => {
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '192.0.2.44' });
    const saved = await vscode.commands.executeCommand<string>('bizdata.saveResponse', { resultUri: uri });
    assert.ok(saved);
    const file = vscode.Uri.parse(saved);
    assert.match(file.path, /ip-192\.0\.2\.44(-\d+)?\.response\.json$/);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder && file.path.startsWith(folder.path));
    const written = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    assert.equal(written, doc.getText());
    await vscode.workspace.fs.delete(file);
  });

  it('re-runs a result with a new token ({ resultUri, forceNewToken })', async () => {
    const first = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.99' });
    const tokensBefore = (await stats(sandbox())).customers.test.tokenRequests;
    const second = await vscode.commands.executeCommand<string>('bizdata.rerunLookup', { resultUri: first, forceNewToken: true });
    assert.ok(second && second !== first, 'the re-run opened a new result');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), second);
    const after = await stats(sandbox());
    assert.equal(after.customers.test.tokenRequests, tokensBefore + 1, 'forceNewToken fetched exactly one new token');
  });

  it('opens the failing response (SC001) as a result when the service refuses the token', async () => {
    // Invalidate every token and change the password: re-authentication fails as well.
    const sb = sandbox();
    await admin(sb, 'tokens/invalidate', { reason: 'release-update' });
    await admin(sb, `users/${encodeURIComponent(c.user)}/password`, { password: `${c.password}-changed` });
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpOrganization', { country: 'US', name: 'Refused Inc' });
    assert.ok(uri, 'the failing response was not opened');
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.toString(), uri);
    assert.equal(doc?.languageId, 'json');
    assert.ok(doc?.getText().includes('SC001'), doc?.getText());
    const api = await extensionApi();
    const items = await api.testing.treeItems('lookups');
    assert.ok(items.some((i) => i.contextValue === 'bizdata.lookup.history' && i.description.startsWith('SC001 · 401')), JSON.stringify(items));
    await admin(sb, `users/${encodeURIComponent(c.user)}/password`, { password: c.password });
    await admin(sb, `users/${encodeURIComponent(c.user)}/unlock`, {});
  });
});
