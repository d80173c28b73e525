// A command's UserError becomes one message as written: no stack, no second popup from VS Code.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answerErrorMessages, canaries, useTestSandbox, waitFor } from './helpers';

describe('command errors', function () {
  this.timeout(60_000);
  const c = canaries();
  useTestSandbox(c);
  let messages: ReturnType<typeof answerErrorMessages>;

  beforeEach(() => {
    messages = answerErrorMessages();
  });

  afterEach(() => {
    messages.restore();
  });

  async function shown(): Promise<ReturnType<typeof answerErrorMessages>['shown']> {
    await waitFor(() => messages.shown.length, (n) => n > 0, 'the message');
    return messages.shown;
  }

  it('shows a UserError once, as written, and the command returns nothing', async () => {
    assert.equal(await vscode.commands.executeCommand('bizdata.deleteLookup'), undefined);
    assert.deepEqual(await shown(), [{ message: 'Business Data: Choose a lookup in the Lookups view to delete.', items: [] }]);
  });

  it('names network settings the client cannot use, without the proxy password', async () => {
    assert.equal(await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret }), 'valid');
    const network = vscode.workspace.getConfiguration('bizdata.network');
    const password = `proxy-${c.password}`;
    try {
      await network.update('proxy', `http://user:${password}@[not-a-host`, vscode.ConfigurationTarget.Global);
      assert.equal(await vscode.commands.executeCommand('bizdata.lookUpIp', { ip: '203.0.113.7' }), undefined);
      const [message, ...more] = await shown();
      assert.deepEqual(more, []);
      assert.match(message.message, /^Business Data: The network settings of the connection "default" cannot be used: The proxy URL .* is not a URL/);
      assert.match(message.message, /Check bizdata\.network\.caFile and bizdata\.network\.proxy\./);
      assert.ok(!message.message.includes(password), message.message);
    } finally {
      await network.update('proxy', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
