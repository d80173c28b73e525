// The interactive paths: which prompts the commands show, masked where secret, validated as typed.
// Prompts are answered through the extension's own API object, since a test cannot type into them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { canaries, useTestSandbox } from './helpers';

type InputOptions = vscode.InputBoxOptions;
interface Pick extends vscode.QuickPickItem {
  readonly id?: string;
  readonly code?: string;
}

describe('prompts', function () {
  this.timeout(60_000);
  const c = canaries();
  useTestSandbox(c);
  const win = vscode.window as unknown as {
    showInputBox: (o?: InputOptions) => Thenable<string | undefined>;
    showQuickPick: (items: readonly Pick[] | Thenable<readonly Pick[]>, o?: vscode.QuickPickOptions) => Thenable<Pick | undefined>;
  };
  const originalInput = win.showInputBox;
  const originalPick = win.showQuickPick;
  const inputs: InputOptions[] = [];
  const picks: Array<{ items: readonly Pick[]; options?: vscode.QuickPickOptions }> = [];
  let answers: string[] = [];
  let choose: (items: readonly Pick[]) => Pick | undefined = () => undefined;

  before(() => {
    win.showInputBox = (o) => {
      inputs.push(o ?? {});
      return Promise.resolve(answers.shift());
    };
    win.showQuickPick = async (items, o) => {
      const list = await items;
      picks.push({ items: list, options: o });
      return choose(list);
    };
  });

  after(() => {
    win.showInputBox = originalInput;
    win.showQuickPick = originalPick;
  });

  it('Sign In offers both interfaces and the sandbox, and masks the consumer key and secret', async () => {
    inputs.length = 0;
    choose = (items) => items.find((i) => i.id === 'a');
    answers = [c.key, c.secret];
    const state = await vscode.commands.executeCommand('bizdata.signIn');
    assert.equal(state, 'valid');
    const offered = picks.at(-1)?.items.map((i) => i.id);
    assert.deepEqual(offered, ['a', 'b', 'sandbox']);
    assert.equal(inputs.length, 2);
    for (const o of inputs) {
      assert.equal(o.password, true, `"${o.prompt ?? ''}" is not masked`);
      assert.equal(o.ignoreFocusOut, true);
      assert.ok(o.validateInput, 'no validation as you type');
      assert.ok(o.validateInput(''), 'an empty value is accepted');
    }
  });

  it('Sign In to Interface B shows the user name in clear and masks the password', async () => {
    inputs.length = 0;
    choose = (items) => items.find((i) => i.id === 'b');
    answers = [c.user, c.password];
    assert.equal(await vscode.commands.executeCommand('bizdata.signIn'), 'valid');
    assert.equal(inputs[0].password, false);
    assert.equal(inputs[1].password, true);
    assert.match(inputs[1].prompt ?? '', /Three failed sign-ins lock the account/);
  });

  it('Look Up IP Address validates the address as it is typed', async () => {
    inputs.length = 0;
    answers = ['203.0.113.7'];
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp');
    assert.ok(uri);
    const validate = inputs[0].validateInput;
    assert.ok(validate);
    assert.match(String(validate('300.1.2.3')), /not an IP address/);
    assert.equal(validate('2001:db8::1'), undefined);
  });

  it('Look Up Organization offers a searchable list of countries by name and code', async () => {
    inputs.length = 0;
    choose = (items) => items.find((i) => i.code === 'GB');
    answers = ['Acme Widgets Ltd', ''];
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpOrganization');
    assert.ok(uri);
    const last = picks.at(-1);
    assert.ok(last && last.items.length > 240, 'not the full ISO 3166 list');
    assert.ok(last.items.some((i) => i.label === 'United Kingdom' && i.description === 'GB'));
    assert.equal(last.options?.matchOnDescription, true);
    assert.match(String(inputs[0].validateInput?.('')), /cannot be empty/);
    assert.match(decodeURIComponent(uri), /org-GB-Acme-Widgets-Ltd@default\.json$/);
  });

  it('Show Token Status (the status bar click) lists each interface and the next actions', async () => {
    choose = () => undefined;
    await vscode.commands.executeCommand('bizdata.showTokenStatus');
    const labels = (picks.at(-1)?.items ?? []).map((i) => i.label);
    assert.ok(labels.some((l) => /^Interface A: valid \d+h \d+m$/.test(l)), labels.join(' | '));
    assert.ok(labels.some((l) => /^Interface B: valid/.test(l)), labels.join(' | '));
    for (const action of ['Refresh Token', 'Sign In', 'Sign Out', 'Start Local Sandbox', 'Show Log']) {
      assert.ok(labels.some((l) => l.endsWith(action)), `${action} is not offered: ${labels.join(' | ')}`);
    }
  });
});
