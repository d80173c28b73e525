// The testing API and the credentials taken from command arguments exist only because this suite
// runs the extension in ExtensionMode.Test; test/production shows both gone from the installed .vsix.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { canaries, EXTENSION_ID, stats, useTestSandbox } from './helpers';

describe('testing API (ExtensionMode.Test only)', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);

  it('is what activate() returns in test mode', async () => {
    const ext = vscode.extensions.getExtension<ExtensionApi | undefined>(EXTENSION_ID);
    assert.ok(ext);
    const api = await ext.activate();
    assert.ok(api, 'no API in test mode');
    assert.equal(ext.exports, api);
    assert.equal(typeof api.activationMs, 'number');
    for (const name of ['statusBar', 'statusBarAsShown', 'treeItems', 'sandboxUrl', 'stateDump'] as const) {
      assert.equal(typeof api.testing[name], 'function', name);
    }
    assert.match(api.testing.logUri, /^[\w-]+:/);
    assert.equal(typeof JSON.parse(api.testing.stateDump()), 'object');
  });

  it('lets bizdata.signIn take credentials as arguments: the token request reaches the service', async () => {
    const before = (await stats(sandbox())).customers.test.tokenRequests;
    const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret });
    assert.equal(state, 'valid');
    assert.equal((await stats(sandbox())).customers.test.tokenRequests, before + 1);
  });
});
