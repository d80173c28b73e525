// The lockout guard: after two failed Interface B sign-ins the extension asks before a third, in
// plain words, and sends nothing unless the user explicitly chooses "Try anyway".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { canaries, extensionApi, stats, useTestSandbox } from './helpers';

type Warn = (message: string, ...rest: unknown[]) => Thenable<unknown>;

describe('lockout guard prompt', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);
  const window = vscode.window as unknown as { showWarningMessage: Warn };
  const original = window.showWarningMessage;
  const asked: Array<{ message: string; modal: boolean; items: unknown[] }> = [];
  let answer: string | undefined;

  before(() => {
    // The modal question cannot be clicked from here: answer it through the same API object.
    window.showWarningMessage = (message: string, ...rest: unknown[]) => {
      const options = rest[0] as { modal?: boolean } | undefined;
      if (options?.modal) {
        asked.push({ message, modal: true, items: rest.slice(1) });
        return Promise.resolve(answer);
      }
      return original.call(vscode.window, message, ...rest);
    };
  });

  after(() => {
    window.showWarningMessage = original;
  });

  async function authFailures(): Promise<number> {
    return (await stats(sandbox())).customers.test.authFailures ?? 0;
  }

  it('counts failures, asks before the third attempt, and sends nothing when declined', async () => {
    for (let i = 1; i <= 2; i++) {
      const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'b', user: c.user, password: `wrong-${i}` });
      assert.notEqual(state, 'valid');
    }
    assert.equal(await authFailures(), 2);
    assert.equal(asked.length, 0, 'asked too early');

    answer = undefined; // the user closes the question
    const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'b', user: c.user, password: c.password });
    assert.equal(asked.length, 1, 'no question before the risky attempt');
    assert.match(asked[0].message, /has failed 2 times in a row\. One more failure locks the account until the service's support unlocks it\./);
    assert.ok(asked[0].items.includes('Try anyway'));
    assert.equal(await authFailures(), 2, 'an attempt was sent although the user declined');
    assert.equal(state, 'locked');
    const api = await extensionApi();
    const bar = await api.testing.statusBar();
    assert.match(bar.text, /sign-in held, next failure locks/);
    // The count is kept in globalState (to survive a restart) under a hash, not the account name.
    const dump = api.testing.stateDump();
    assert.ok(dump.includes('bizdata.guard.failures'));
    assert.ok(!dump.includes(c.user) && !dump.includes(c.password));
  });

  it('"Try anyway" sends the attempt with the risk confirmed; success clears the count', async () => {
    answer = 'Try anyway';
    const state = await vscode.commands.executeCommand('bizdata.refreshToken', { interfaceId: 'b' });
    assert.equal(asked.length, 2);
    assert.equal(state, 'valid');
    assert.equal(await authFailures(), 2);
    const api = await extensionApi();
    assert.match((await api.testing.statusBar()).text, /valid/);
  });
});
