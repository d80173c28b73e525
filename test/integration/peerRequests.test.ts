// Requests from elsewhere in the real editor: Paste curl as Request writes the clipboard's curl
// command as a request of the open request file (and it sends), Open as Business Data Request File
// writes a REST Client file converted beside itself.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { answerErrorMessages, openRequestFile, ourDiagnostics, runCodeLens, stats, useSignedInTestSandbox, waitFor } from './helpers';

describe('requests from elsewhere', function () {
  this.timeout(60_000);
  const { c, sandbox } = useSignedInTestSandbox();

  it('Paste curl as Request writes the request after the one at the cursor, with the host as {{baseUrl}}, and it sends', async () => {
    const url = sandbox().url;
    const file = await openRequestFile(['### first', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard', 'Accept: application/json', '', '### last', 'GET {{baseUrl}}/v1/x', ''].join('\n'));
    try {
      const editor = await vscode.window.showTextDocument(file.document);
      editor.selection = new vscode.Selection(1, 3, 1, 3);
      await vscode.env.clipboard.writeText(`curl -sS '${url}/v1/duns-search/ip/203.0.113.9?view=standard' \\\n  -u '${c.key}:${c.secret}' \\\n  -H 'Accept: application/json' \\\n  -H 'X-Trace: pasted'`);
      assert.equal(await vscode.commands.executeCommand('bizdata.pasteCurlAsRequest'), file.document.uri.toString());
      assert.equal(
        file.document.getText(),
        [
          '### first',
          'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard',
          'Accept: application/json',
          '',
          '###',
          'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.9?view=standard',
          'Accept: application/json',
          'X-Trace: pasted',
          '',
          '### last',
          'GET {{baseUrl}}/v1/x',
          '',
        ].join('\n'),
      );
      assert.ok(!file.document.getText().includes(c.secret), 'the -u credentials are left out');
      const before = (await stats(sandbox())).customers.test?.dataCalls ?? 0;
      const shown = await runCodeLens<string | undefined>(file.document, 5, 'Send');
      assert.ok(shown, 'the pasted request was sent and its answer opened');
      assert.equal((await stats(sandbox())).customers.test?.dataCalls, before + 1);
    } finally {
      await file.document.save();
      await file.dispose();
    }
  });

  it('Paste curl as Request refuses a command it cannot write as the same request, and changes nothing', async () => {
    const file = await openRequestFile('GET {{baseUrl}}/v1/x\n');
    const errors = answerErrorMessages();
    try {
      await vscode.env.clipboard.writeText(`curl ${sandbox().url}/v1/upload -F 'file=@photo.png'`);
      await vscode.commands.executeCommand('bizdata.pasteCurlAsRequest');
      assert.equal(errors.shown.length, 1);
      assert.match(errors.shown[0].message, /cannot be pasted as a request: -F builds a multipart body/);
      assert.equal(file.document.getText(), 'GET {{baseUrl}}/v1/x\n');
    } finally {
      errors.restore();
      await file.dispose();
    }
  });

  it('a curl command in a request file gets a Send lens, a warning at its -u line, and an error where it cannot be read', async () => {
    const file = await openRequestFile(["curl '{{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard' \\", "  -u 'me:pw'", '', '###', "curl '{{baseUrl}}/v1/upload' -F 'f=@a.png'", ''].join('\n'));
    try {
      const diagnostics = await waitFor(() => ourDiagnostics(file.document.uri), (d) => d.length === 2, 'two diagnostics');
      assert.deepEqual(
        diagnostics.map((d) => [d.range.start.line, d.severity, d.code]),
        [
          [1, vscode.DiagnosticSeverity.Warning, 'curl'],
          [4, vscode.DiagnosticSeverity.Error, 'curl'],
        ],
      );
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file.document.uri);
      assert.deepEqual(lenses.filter((l) => l.command?.title.includes('Send')).map((l) => l.range.start.line), [0]);
    } finally {
      await file.dispose();
    }
  });

  it('Open as Business Data Request File writes the converted file beside the original and opens it', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri as vscode.Uri;
    const name = `peer-${randomUUID()}`;
    const source = vscode.Uri.joinPath(folder, `${name}.http`);
    const url = sandbox().url;
    const original = ['@token = abc', '', '### ip', `GET ${url}/v1/duns-search/ip/203.0.113.7?view=standard`, 'Authorization: Bearer {{token}}', '', '### org', `curl '${url}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example' -H 'x-svc-user: me'`, ''].join('\n');
    await vscode.workspace.fs.writeFile(source, Buffer.from(original, 'utf8'));
    const target = vscode.Uri.joinPath(folder, `${name}.bizdata.http`);
    try {
      assert.equal(await vscode.commands.executeCommand('bizdata.openAsRequestFile', source), target.toString());
      const written = Buffer.from(await vscode.workspace.fs.readFile(target)).toString('utf8');
      assert.equal(written, ['', '### ip', 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard', '', '### org', 'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example', ''].join('\n'));
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), target.toString());
      assert.equal(vscode.window.activeTextEditor?.document.languageId, 'bizdata-http');
      assert.equal(Buffer.from(await vscode.workspace.fs.readFile(source)).toString('utf8'), original, 'the original is left as it was');
      // A second conversion never overwrites the first.
      assert.equal(await vscode.commands.executeCommand('bizdata.openAsRequestFile', source), vscode.Uri.joinPath(folder, `${name}-2.bizdata.http`).toString());
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const uri of [source, target, vscode.Uri.joinPath(folder, `${name}-2.bizdata.http`)]) await Promise.resolve(vscode.workspace.fs.delete(uri)).catch(() => undefined);
    }
  });
});
