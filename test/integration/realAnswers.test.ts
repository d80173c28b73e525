// Diagnostics and hovers in the real VS Code on the answer shapes the real service documents, the
// codes it documents beyond the spec, codes it does not document, and the user's codes file.
import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, closeAllEditors, openJson, ourDiagnostics, waitFor } from './helpers';

const RESPONSES = JSON.stringify(
  {
    ip: { result: { errorCode: '00040', errorMessage: 'Access token expired', actionStatus: '401' } },
    form: { error: 'invalid_request', error_description: 'Form refused. ErrorCode: 05007' },
    cm001: { MatchResponse: { '@ServiceVersionNumber': '4.0', TransactionResult: { SeverityText: 'Error', ResultID: 'CM001', ResultText: 'Invalid request' } } },
    cm004: { MatchResponse: { TransactionResult: { SeverityText: 'Error', ResultID: 'CM004', ResultText: 'Internal error' } } },
    cm018: { MatchResponse: { TransactionResult: { SeverityText: 'Error', ResultID: 'CM018', ResultMessage: [{ ResultDescription: 'No candidates' }] } } },
    other: { MatchResponse: { TransactionResult: { SeverityText: 'Warning', ResultID: 'CM026', ResultText: 'Partial answer' } } },
  },
  null,
  2,
);

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

async function hoverOn(doc: vscode.TextDocument, code: string): Promise<string> {
  const position = doc.positionAt(doc.getText().indexOf(code) + 1);
  return hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position));
}

describe('diagnostics and hovers on the real service\'s answers', () => {
  before(activateExtension);
  afterEach(closeAllEditors);

  it('marks every documented shape, the codes the service documents, and unknown codes with their own text', async () => {
    const doc = await openJson(RESPONSES);
    const ds = await waitFor(() => ourDiagnostics(doc.uri), (d) => d.length === 6, 'six diagnostics');
    const S = vscode.DiagnosticSeverity;
    assert.deepEqual(
      ds.map((d) => [d.code, doc.getText(d.range), d.severity]),
      [['00040', '00040', S.Warning], ['05007', '05007', S.Error], ['CM001', 'CM001', S.Error], ['CM004', 'CM004', S.Error], ['CM018', 'CM018', S.Error], ['CM026', 'CM026', S.Warning]],
    );
    assert.match(ds[5].message, /^CM026: Partial answer \(CM026 is not in the catalog; the text is the service's own\)/);
    assert.match(ds[1].message, /^05007: Form refused\. ErrorCode: 05007 \(05007 is not in the catalog/);
  });

  it('hovers say where a text comes from: the spec, the service\'s documentation, or the service\'s own answer', async () => {
    const doc = await openJson(RESPONSES);
    assert.match(await hoverOn(doc, '00040'), /The access token in use has expired\./);
    const cm018 = await hoverOn(doc, 'CM018');
    // The service's own words (here its ResultDescription), then the catalog's meaning.
    assert.match(cm018, /\*No candidates\*/);
    assert.match(cm018, /The service found nothing for the request/);
    assert.match(cm018, /Documented by the service; not in the specification/);
    const other = await hoverOn(doc, 'CM026');
    assert.match(other, /Partial answer/);
    assert.match(other, /Not in the catalog:/);
  });

  it("shows the descriptions of the codes file named by bizdata.codes.file", async () => {
    const file = join(process.env.BIZDATA_TEST_WORKSPACE ?? tmpdir(), `codes-${Date.now()}.json`);
    await writeFile(file, JSON.stringify({ codes: [{ code: 'CM026', text: 'Partial record from your contract', action: 'Use the fields present.', severity: 'info' }] }));
    const config = vscode.workspace.getConfiguration('bizdata.codes');
    try {
      await config.update('file', file, vscode.ConfigurationTarget.Global);
      const doc = await openJson(RESPONSES);
      const ds = await waitFor(() => ourDiagnostics(doc.uri), (d) => d.some((x) => x.code === 'CM026' && x.message.includes('Partial record')), 'the codes file in the diagnostic');
      const cm026 = ds.find((d) => d.code === 'CM026');
      assert.equal(cm026?.severity, vscode.DiagnosticSeverity.Information);
      // The answer's own text first; the codes file gives the meaning and the action.
      assert.match(cm026?.message ?? '', /^CM026: Partial answer — Partial record from your contract\. Use the fields present\.$/);
      assert.match(await hoverOn(doc, 'CM026'), /From your codes file/);
    } finally {
      await config.update('file', undefined, vscode.ConfigurationTarget.Global);
      await rm(file, { force: true });
    }
  });
});
