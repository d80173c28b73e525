// Request files as other programs leave them, in the real editor against the real sandbox: a file
// with classic CR line ends has its diagnostics on the lines the editor shows and sends; a U+2028
// and a `{{` that opens no variable are underlined where they stand, and Send refuses with the
// diagnostic's own words, sending nothing.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { answerErrorMessages, ourDiagnostics, runCodeLens, stats, useSignedInTestSandbox, waitFor } from './helpers';

const IP_LOOKUP = 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard';

/**
 * A request file in the workspace, opened as a document but not in an editor: an editor would ask
 * about the unusual line terminator (U+2028) before the test could look at it.
 */
async function requestFile(content: string): Promise<{ readonly document: vscode.TextDocument; dispose(): Promise<void> }> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('the integration tests run with a workspace folder');
  const uri = vscode.Uri.joinPath(folder, `odd-${randomUUID()}.bizdata.http`);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(content, 'utf8'));
  return { document: await vscode.workspace.openTextDocument(uri), dispose: () => Promise.resolve(vscode.workspace.fs.delete(uri)) };
}

describe('odd request files in the editor', function () {
  this.timeout(60_000);
  const { sandbox } = useSignedInTestSandbox();

  it('reads classic CR line ends: diagnostics on the lines the editor shows, and Send sends', async () => {
    const file = await requestFile(['### one', IP_LOOKUP, 'Authorization: Bearer pasted', '', '### two', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{nope}}', ''].join('\r'));
    try {
      const doc = file.document;
      assert.equal(doc.lineCount, 7);
      const diagnostics = await waitFor(() => ourDiagnostics(doc.uri), (d) => d.length === 2, 'two diagnostics');
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.range.start.line, doc.getText(d.range)]),
        [
          ['credential-header', 2, 'Authorization: Bearer pasted'],
          ['unknown-variable', 5, '{{nope}}'],
        ],
      );
      const before = await stats(sandbox());
      const uri = await runCodeLens<string>(doc, 1, 'Send (Interface A)');
      const body = JSON.parse((await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText()) as { inquiryDetail: { ipAddress: string } };
      assert.equal(body.inquiryDetail.ipAddress, '203.0.113.7');
      assert.equal((await stats(sandbox())).customers.test.dataCalls, (before.customers.test.dataCalls ?? 0) + 1);
    } finally {
      await file.dispose();
    }
  });

  it('underlines a U+2028 and a {{ that opens nothing where they stand; Send refuses in the same words and sends nothing', async () => {
    const messages = answerErrorMessages();
    const file = await requestFile(
      [`${IP_LOOKUP}\u2028x`, '', '###', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{ip', '', '###', IP_LOOKUP, 'X-Trace: {{$guid}} {{'].join('\n'),
    );
    try {
      const doc = file.document;
      const diagnostics = await waitFor(() => ourDiagnostics(doc.uri), (d) => d.length === 3, 'three diagnostics');
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character, doc.getText(d.range)]),
        [
          ['character', vscode.DiagnosticSeverity.Error, 0, IP_LOOKUP.length, '\u2028'],
          ['syntax', vscode.DiagnosticSeverity.Error, 3, 44, '{{'],
          ['syntax', vscode.DiagnosticSeverity.Error, 7, 19, '{{'],
        ],
      );
      assert.match(diagnostics[0].message, /U\+2028 \(LINE SEPARATOR\) at column 70 looks like a line break/);
      assert.match(diagnostics[1].message, /"\{\{" at column 45 opens a variable that is not closed on this line/);
      const before = (await stats(sandbox())).requests;
      for (const line of [0, 3, 6]) assert.equal(await runCodeLens(doc, line, 'Send'), undefined, `line ${line + 1}`);
      const shown = await waitFor(() => messages.shown, (s) => s.length === 3, 'three refusals');
      const place = vscode.workspace.asRelativePath(doc.uri);
      assert.deepEqual(
        shown.map((s) => s.message),
        diagnostics.map((d) => `Business Data: ${place}:${d.range.start.line + 1}: ${d.message}`),
      );
      assert.equal((await stats(sandbox())).requests, before, 'a refused request reached the sandbox');
    } finally {
      messages.restore();
      await file.dispose();
    }
  });
});
