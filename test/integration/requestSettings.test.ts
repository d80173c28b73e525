// The request settings of the peers' files in the real editor: `# @prompt` opens an input box (the
// real one, closed and accepted through the quick input commands; masked for a secret-looking
// name), `# @disabled` has no Send lens and is never sent, `# @note` asks first, and
// `{{$processEnv}}` reads only what the user's own setting allows, never a workspace's.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { answerErrorMessages, answerModalWarnings, dataRootOf, extensionApi, filesContaining, openRequestFile, sleep, stats, useSignedInTestSandbox } from './helpers';

const IP_LOOKUP = 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view={{view}}';

/** Runs `command` on the quick input shown by `sending` until `sending` settles (the box may take a moment to open). */
async function answerQuickInput<T>(sending: Thenable<T>, command: 'workbench.action.closeQuickOpen' | 'workbench.action.acceptSelectedQuickOpenItem'): Promise<T> {
  let settled = false;
  const result = Promise.resolve(sending).finally(() => (settled = true));
  for (let waited = 0; !settled; waited += 250) {
    if (waited > 15_000) throw new Error('no input box was shown (the request did not wait for one)');
    await sleep(250);
    if (!settled) await vscode.commands.executeCommand(command);
  }
  return result;
}

describe('request settings in the editor', function () {
  this.timeout(90_000);
  const { sandbox } = useSignedInTestSandbox();
  const modal = answerModalWarnings();
  const requests = async () => (await stats(sandbox())).requests;
  const send = (document: vscode.TextDocument, line: number) => vscode.commands.executeCommand<string | undefined>('bizdata.sendRequest', { uri: document.uri.toString(), line });

  it('# @prompt shows an input box: closing it sends nothing, accepting it sends its value', async () => {
    const file = await openRequestFile(['# @prompt view', IP_LOOKUP, ''].join('\n'));
    try {
      const before = await requests();
      assert.equal(await answerQuickInput(send(file.document, 1), 'workbench.action.closeQuickOpen'), undefined);
      assert.equal(await requests(), before, 'nothing was sent');
      // Accepted empty: the request goes out with view= (which the service refuses, but it was sent).
      await answerQuickInput(send(file.document, 1), 'workbench.action.acceptSelectedQuickOpenItem');
      assert.equal(await requests(), before + 1);
    } finally {
      await file.dispose();
    }
  });

  it('# @prompt masks a secret-looking name, shows the description, and puts the answers into the request', async () => {
    const win = vscode.window as unknown as { showInputBox: (o?: vscode.InputBoxOptions) => Thenable<string | undefined> };
    const original = win.showInputBox;
    const asked: vscode.InputBoxOptions[] = [];
    const secret = `prompt-secret-${Date.now().toString(36)}`;
    const answers = ['standard', secret];
    win.showInputBox = (o) => {
      asked.push(o ?? {});
      return Promise.resolve(answers.shift());
    };
    const file = await openRequestFile(['# @prompt view The view of the answer', '# @prompt apiToken', IP_LOOKUP, 'X-Check: {{apiToken}}', ''].join('\n'));
    try {
      const uri = await send(file.document, 2);
      assert.ok(uri, 'sent and opened');
      assert.deepEqual(asked.map((o) => [o.password, o.prompt, o.ignoreFocusOut]), [
        [false, 'The view of the answer', true],
        [true, 'The value of {{apiToken}} for this request (# @prompt apiToken).', true],
      ]);
      const shown = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.getText() ?? '';
      assert.match(shown, /203\.0\.113\.7/, 'the answer of view=standard');
      // What is typed at a secret-looking prompt is never written: not in the history, the state or the log.
      const api = await extensionApi();
      assert.ok(!api.testing.stateDump().includes(secret), 'the secret answer is in the history or state');
      await vscode.commands.executeCommand('bizdata.showLog');
      await sleep(1500);
      assert.deepEqual(filesContaining(dataRootOf(vscode.Uri.parse(api.testing.logUri).fsPath), [secret]), []);
      // So the history cannot re-run it: it says where to send it from instead of sending "<redacted>".
      const errors = answerErrorMessages();
      try {
        assert.equal(await vscode.commands.executeCommand('bizdata.rerunLookup', { resultUri: uri }), undefined);
        assert.match(errors.shown[0]?.message ?? '', /send it again from its request file/);
      } finally {
        errors.restore();
      }
    } finally {
      win.showInputBox = original;
      await file.dispose();
    }
  });

  it('# @disabled shows no Send lens, and Send Request refuses it without sending', async () => {
    const file = await openRequestFile(['GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard', '', '###', '# @disabled', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.8?view=standard', ''].join('\n'));
    const errors = answerErrorMessages();
    try {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file.document.uri);
      const titles = (line: number) => lenses.filter((l) => l.range.start.line === line).map((l) => l.command?.title ?? '');
      assert.ok(titles(0).some((t) => t.includes('Send')), 'the other request has its Send lens');
      assert.deepEqual(titles(4), ['$(circle-slash) Disabled by # @disabled']);
      const before = await requests();
      assert.equal(await send(file.document, 4), undefined);
      assert.match(errors.shown[0]?.message ?? '', /:5: this request is marked "# @disabled", so it is never sent/);
      assert.equal(await requests(), before);
    } finally {
      errors.restore();
      await file.dispose();
    }
  });

  it('# @note asks before sending: no answer sends nothing, Send sends', async () => {
    const file = await openRequestFile(['# @note This one costs a lookup of the contract', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard', ''].join('\n'));
    try {
      const before = await requests();
      modal.answer = undefined;
      assert.equal(await send(file.document, 1), undefined);
      assert.equal(await requests(), before);
      const question = modal.asked.at(-1);
      assert.deepEqual(question?.items, ['Send']);
      modal.answer = 'Send';
      assert.ok(await send(file.document, 1));
      assert.equal(await requests(), before + 1);
    } finally {
      modal.answer = undefined;
      await file.dispose();
    }
  });

  it('{{$processEnv}} reads a name only when the user setting allows it, never by a workspace setting', async () => {
    const file = await openRequestFile(['GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard', 'X-Home: {{$processEnv HOME}}', ''].join('\n'));
    const errors = answerErrorMessages();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
    const settingsFile = join(folder, '.vscode', 'settings.json');
    const original = readFileSync(settingsFile, 'utf8');
    const config = () => vscode.workspace.getConfiguration('bizdata.requestFiles');
    try {
      const before = await requests();
      assert.equal(await send(file.document, 0), undefined);
      assert.match(errors.shown.at(-1)?.message ?? '', /add "HOME" to the user setting bizdata\.requestFiles\.allowEnv/);
      // A cloned repository's settings cannot allow it.
      writeFileSync(settingsFile, JSON.stringify({ ...(JSON.parse(original) as object), 'bizdata.requestFiles.allowEnv': ['HOME'] }, null, 2));
      await sleep(1000);
      assert.equal(await send(file.document, 0), undefined);
      assert.match(errors.shown.at(-1)?.message ?? '', /bizdata\.requestFiles\.allowEnv/);
      assert.equal(await requests(), before);
      await config().update('allowEnv', ['HOME'], vscode.ConfigurationTarget.Global);
      assert.ok(await send(file.document, 0), 'sent once the user allowed HOME');
      assert.equal(await requests(), before + 1);
    } finally {
      writeFileSync(settingsFile, original);
      await config().update('allowEnv', undefined, vscode.ConfigurationTarget.Global);
      errors.restore();
      await file.dispose();
    }
  });

  it('reads a body file (< ./file) when sending, only from inside the workspace folder', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri as vscode.Uri;
    const body = vscode.Uri.joinPath(folder, 'body-inside.json');
    await vscode.workspace.fs.writeFile(body, Buffer.from('{"a": 1}'));
    const file = await openRequestFile(
      ['POST {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard', 'Content-Type: application/json', '', '< ./body-inside.json', '', '###', 'POST {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard', 'Content-Type: application/json', '', '< ../../../../../../../../etc/hostname', ''].join('\n'),
    );
    const errors = answerErrorMessages();
    try {
      const before = await requests();
      await send(file.document, 0);
      assert.equal(await requests(), before + 1, `the request with the file inside the folder was sent: ${JSON.stringify(errors.shown)}`);
      assert.equal(await send(file.document, 6), undefined);
      assert.match(errors.shown.at(-1)?.message ?? '', /:10: The body file \.\.\/.*is outside/);
      assert.equal(await requests(), before + 1, 'nothing of the other was sent');
    } finally {
      errors.restore();
      await file.dispose();
      await vscode.workspace.fs.delete(body);
    }
  });
});
