import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './helpers';

describe('activation', () => {
  it('activates in the real extension host and reports how long activate() took', async () => {
    const ext = vscode.extensions.getExtension<{ activationMs: number }>(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
    const api = await ext.activate();
    assert.equal(ext.isActive, true);
    assert.equal(typeof api.activationMs, 'number');
    console.log(`[integration] activate() took ${api.activationMs.toFixed(2)} ms`);
  });

  it('registers its commands, and one runs', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('bizdata.showLog'), 'bizdata.showLog is not registered');
    await vscode.commands.executeCommand('bizdata.showLog');
  });
});
