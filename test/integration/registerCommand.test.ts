// A command's UserError becomes one message as written: no stack, no second popup from VS Code.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, answerErrorMessages, waitFor } from './helpers';

describe('command errors', () => {
  before(activateExtension);

  it('shows a UserError once, as written, and the command returns nothing', async () => {
    const messages = answerErrorMessages();
    try {
      assert.equal(await vscode.commands.executeCommand('bizdata.deleteLookup'), undefined);
      await waitFor(() => messages.shown.length, (n) => n > 0, 'the message');
      assert.deepEqual(messages.shown, [{ message: 'Business Data: Choose a lookup in the Lookups view to delete.', items: [] }]);
    } finally {
      messages.restore();
    }
  });
});
