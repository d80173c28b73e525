// Writing request files in the real editor: the language from the file name, New Request File,
// completion, diagnostics, the quick fix that removes a credential header, and the readiness offer
// when nobody is signed in.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answerErrorMessages, canaries, openRequestFile, runCodeLens, signOutEverywhere, stats, useTestSandbox, waitFor } from './helpers';

async function completionLabels(document: vscode.TextDocument, position: vscode.Position): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position);
  return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
}

describe('request files in the editor', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);

  it('"New Request File" opens an untitled request file with a Send lens per request', async () => {
    const uri = await vscode.commands.executeCommand<string>('bizdata.newRequestFile');
    const document = vscode.window.activeTextEditor?.document;
    assert.equal(document?.uri.toString(), uri);
    assert.equal(document?.languageId, 'bizdata-http');
    assert.equal(document?.isUntitled, true);
    const text = document?.getText() ?? '';
    assert.ok(text.includes('{{baseUrl}}/{{aVersion}}/duns-search/ip/') && text.includes('{{legacyUrl}}/{{orgVersion}}/organizations'), 'examples of both interfaces');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document?.uri);
    assert.equal(lenses.filter((l) => l.command?.title.includes('Send')).length, 3);
    assert.ok(lenses.some((l) => l.command?.title === '$(play) Send (Interface A) · default'));
    assert.ok(lenses.some((l) => l.command?.title === '$(play) Send (Interface B) · default'));
    assert.deepEqual(vscode.languages.getDiagnostics(document?.uri as vscode.Uri), [], 'the examples are free of problems');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('completes the known paths, their query parameters, countries, variables and headers', async () => {
    const file = await openRequestFile(['GET {{baseUrl}}/', '###', 'GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code=', '###', 'GET {{', '###', 'GET {{baseUrl}}/v1/x', 'Content-'].join('\n'));
    try {
      const doc = file.document;
      assert.ok((await completionLabels(doc, doc.lineAt(0).range.end)).includes('/{{aVersion}}/duns-search/ip/'), 'the IP lookup path');
      const countries = await completionLabels(doc, doc.lineAt(2).range.end);
      assert.ok(countries.includes('GB') && countries.includes('US') && countries.length >= 249, `${countries.length} countries`);
      const variables = await completionLabels(doc, doc.lineAt(4).range.end);
      for (const v of ['baseUrl', 'legacyUrl', 'authUrl', 'origin', 'aVersion', 'orgVersion', '$guid']) assert.ok(variables.includes(v), v);
      const headers = await completionLabels(doc, doc.lineAt(7).range.end);
      assert.ok(headers.includes('Content-Type'));
      assert.ok(!headers.includes('Authorization'));
    } finally {
      await file.dispose();
    }
  });

  it('underlines an unknown variable and a credential header; the quick fix removes the header line', async () => {
    const file = await openRequestFile(['GET {{baseUrl}}/v1/x/{{nope}}', 'Authorization: Bearer pasted', 'Accept: application/json'].join('\n'));
    try {
      const doc = file.document;
      const diagnostics = await waitFor(() => vscode.languages.getDiagnostics(doc.uri), (d) => d.length === 2, 'two diagnostics');
      const unknown = diagnostics.find((d) => d.code === 'unknown-variable');
      assert.equal(unknown?.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(doc.getText(unknown?.range), '{{nope}}');
      const credential = diagnostics.find((d) => d.code === 'credential-header');
      assert.equal(credential?.severity, vscode.DiagnosticSeverity.Warning);
      assert.equal(credential?.range.start.line, 1);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, credential?.range, vscode.CodeActionKind.QuickFix.value);
      const fix = actions.find((a) => a.title === 'Remove the Authorization header');
      assert.ok(fix?.edit, JSON.stringify(actions.map((a) => a.title)));
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      assert.equal(doc.getText(), ['GET {{baseUrl}}/v1/x/{{nope}}', 'Accept: application/json'].join('\n'));
      await waitFor(() => vscode.languages.getDiagnostics(doc.uri), (d) => d.length === 1 && d[0].code === 'unknown-variable', 'only the unknown variable left');
      await doc.save();
    } finally {
      await file.dispose();
    }
  });

  it('signed out, Send offers to sign in or start the sandbox and sends nothing', async () => {
    await signOutEverywhere();
    const messages = answerErrorMessages();
    const file = await openRequestFile(['GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7'].join('\n'));
    try {
      const before = (await stats(sandbox())).requests;
      assert.equal(await runCodeLens(file.document, 0, 'Send'), undefined);
      const [shown] = await waitFor(() => messages.shown, (s) => s.length > 0, 'the offer');
      assert.match(shown.message, /not signed in to Interface A/);
      assert.deepEqual(shown.items, ['Sign In', 'Start Local Sandbox']);
      assert.equal((await stats(sandbox())).requests, before);
    } finally {
      messages.restore();
      await file.dispose();
    }
  });
});
