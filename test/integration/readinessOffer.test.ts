// "Not ready" (not signed in, or no address to call) is answered by one message whose buttons follow
// the reason's kind, from a lookup, a batch and the commands that act on a signed-in interface alike.
import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { answerErrorMessages, canaries, signOutEverywhere, stats, useTestSandbox, waitFor, type ShownMessage } from './helpers';

const SIGN_IN_OFFER = ['Sign In', 'Start Local Sandbox'];

describe('the "not ready" offer', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);
  const ipsFile = join(process.env.BIZDATA_TEST_WORKSPACE ?? tmpdir(), 'not-ready-ips.txt');
  let answer: (m: ShownMessage) => string | undefined = () => undefined;
  let messages: ReturnType<typeof answerErrorMessages>;

  before(() => {
    messages = answerErrorMessages((m) => answer(m));
  });

  after(async () => {
    messages.restore();
    await rm(ipsFile, { force: true });
  });

  beforeEach(async () => {
    messages.shown.length = 0;
    answer = () => undefined;
    await signOutEverywhere();
  });

  /** The one message shown since the test began. */
  async function offered(): Promise<ShownMessage> {
    const [shown] = await waitFor(() => messages.shown, (s) => s.length > 0, 'the offer');
    assert.equal(messages.shown.length, 1, JSON.stringify(messages.shown));
    return shown;
  }

  it('a lookup while signed out offers Sign In and the sandbox, and sends nothing', async () => {
    const before = (await stats(sandbox())).requests;
    assert.equal(await vscode.commands.executeCommand('bizdata.lookUpIp', { ip: '203.0.113.7' }), undefined);
    const shown = await offered();
    assert.match(shown.message, /not signed in to Interface A/);
    assert.deepEqual(shown.items, SIGN_IN_OFFER);
    assert.equal((await stats(sandbox())).requests, before);
  });

  it('a batch and Sign Out, with nobody signed in, offer the same', async () => {
    await writeFile(ipsFile, '203.0.113.7\n');
    assert.equal(await vscode.commands.executeCommand('bizdata.runBatchLookup', { file: ipsFile }), undefined);
    assert.deepEqual((await offered()).items, SIGN_IN_OFFER);
    messages.shown.length = 0;
    assert.equal(await vscode.commands.executeCommand('bizdata.signOut'), false);
    const shown = await offered();
    assert.match(shown.message, /not signed in to any interface/);
    assert.deepEqual(shown.items, SIGN_IN_OFFER);
  });

  it('an empty endpoint setting offers Open Settings and the sandbox', async () => {
    assert.equal(await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret }), 'valid');
    const config = vscode.workspace.getConfiguration('bizdata.endpoints');
    await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    try {
      assert.equal(await vscode.commands.executeCommand('bizdata.lookUpIp', { ip: '203.0.113.7' }), undefined);
      const shown = await offered();
      assert.match(shown.message, /bizdata\.endpoints\.baseUrl is empty/);
      assert.deepEqual(shown.items, ['Open Settings', 'Start Local Sandbox']);
    } finally {
      await config.update('baseUrl', sandbox().url, vscode.ConfigurationTarget.Global);
    }
  });

  it('"Sign In" signs in to the interface the lookup needed', async () => {
    const win = vscode.window as unknown as { showInputBox: (o?: vscode.InputBoxOptions) => Thenable<string | undefined> };
    const originalInput = win.showInputBox;
    const asked: string[] = [];
    win.showInputBox = (o) => {
      asked.push(o?.title ?? '');
      return Promise.resolve(undefined);
    };
    try {
      answer = () => 'Sign In';
      assert.equal(await vscode.commands.executeCommand('bizdata.lookUpOrganization', { country: 'GB', name: 'Acme Ltd' }), undefined);
      await waitFor(() => asked, (a) => a.length > 0, 'the sign-in prompt');
      assert.deepEqual(asked, ['Sign In to Interface B (connection "default")']);
    } finally {
      win.showInputBox = originalInput;
    }
  });
});
