import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { allCodes } from '../../src/core/codes/codes';
import { activateExtension, closeAllEditors, openJson, ourDiagnostics, responseWith, waitFor } from './helpers';

async function setDiagnosticsSetting(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('bizdata.diagnostics').update(name, value, vscode.ConfigurationTarget.Global);
}

describe('diagnostics on result codes', () => {
  before(activateExtension);
  afterEach(closeAllEditors);

  for (const info of allCodes().filter((c) => c.code !== 'CM000')) {
    it(`marks ${info.code} on its value with the spec text and action`, async () => {
      const doc = await openJson(responseWith(info.code));
      const [d] = await waitFor(() => ourDiagnostics(doc.uri), (ds) => ds.length === 1 && ds[0].code === info.code, `a diagnostic for ${info.code}`);
      assert.equal(doc.getText(d.range), info.code);
      assert.equal(d.code, info.code);
      const expected = info.code === '00040' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
      assert.equal(d.severity, expected);
      assert.ok(d.message.includes(info.text), d.message);
      assert.ok(d.message.includes(info.action), d.message);
    });
  }

  it('leaves CM000 (success) and unrelated JSON unmarked', async () => {
    const ok = await openJson(responseWith('CM000'));
    const plain = await openJson('{ "name": "SC001", "ResultID": "SC001" }');
    const marked = await openJson(responseWith('SC005'));
    // Once the SC005 document is marked, the earlier two have been checked as well.
    await waitFor(() => ourDiagnostics(marked.uri), (ds) => ds.length === 1 && ds[0].code === 'SC005', 'the SC005 diagnostic');
    assert.deepEqual(ourDiagnostics(ok.uri), []);
    assert.deepEqual(ourDiagnostics(plain.uri), []);
  });

  it("flags an unknown SC code with the service's own text, saying it is not in the catalog", async () => {
    const doc = await openJson(responseWith('SC777'));
    const [d] = await waitFor(() => ourDiagnostics(doc.uri), (ds) => ds.length === 1 && ds[0].code === 'SC777', 'a diagnostic for SC777');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /^SC777: text \(SC777 is not in the catalog; the text is the service's own\) — /);
  });

  it('follows edits (debounced) and clears when the document closes', async () => {
    const file = join(process.env.BIZDATA_TEST_WORKSPACE ?? tmpdir(), 'edited.response.json');
    await writeFile(file, responseWith('SC001'));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(doc);
    await waitFor(() => ourDiagnostics(doc.uri).map((d) => d.code), (c) => c.join() === 'SC001', 'SC001 marked');
    const at = doc.getText().indexOf('SC001');
    await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(at), doc.positionAt(at + 5)), 'SC006'));
    await waitFor(() => ourDiagnostics(doc.uri).map((d) => d.code), (c) => c.join() === 'SC006', 'SC006 after the edit');
    await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(at), doc.positionAt(at + 5)), 'CM000'));
    await waitFor(() => ourDiagnostics(doc.uri).length, (n) => n === 0, 'no diagnostic after fixing the code');
    await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(at), doc.positionAt(at + 5)), 'SC004'));
    await waitFor(() => ourDiagnostics(doc.uri).length, (n) => n === 1, 'SC004 marked');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(() => ourDiagnostics(doc.uri).length, (n) => n === 0, 'diagnostics cleared on close', 30_000);
  });

  it('respects bizdata.diagnostics.enabled', async () => {
    const doc = await openJson(responseWith('SC003'));
    await waitFor(() => ourDiagnostics(doc.uri).map((d) => d.code), (c) => c.join() === 'SC003', 'SC003 marked');
    try {
      await setDiagnosticsSetting('enabled', false);
      await waitFor(() => ourDiagnostics(doc.uri).length, (n) => n === 0, 'diagnostics gone when disabled');
    } finally {
      await setDiagnosticsSetting('enabled', undefined);
    }
    await waitFor(() => ourDiagnostics(doc.uri).map((d) => d.code), (c) => c.join() === 'SC003', 'diagnostics back when enabled');
  });

  it('processes a 10 MB JSON document, and skips one over bizdata.diagnostics.maxFileSizeMB', async () => {
    const item = JSON.stringify({ record: { name: 'Example Trading Ltd', city: 'Springfield' }, TransactionResult: { ResultID: 'CM000' } });
    const count = Math.ceil((10 * 1024 * 1024) / (item.length + 1));
    const items = Array.from({ length: count }, (_, i) => (i === count - 1 ? item.replace('CM000', 'SC006') : item));
    const text = `{"items":[${items.join(',')}]}`;
    assert.ok(text.length >= 10 * 1024 * 1024);
    const big = await vscode.workspace.openTextDocument({ language: 'json', content: text });
    const [d] = await waitFor(() => ourDiagnostics(big.uri), (ds) => ds.length === 1, 'the SC006 at the end of 10 MB', 60_000);
    assert.equal(big.getText(d.range), 'SC006');
    try {
      await setDiagnosticsSetting('maxFileSizeMB', 5);
      await waitFor(() => ourDiagnostics(big.uri).length, (n) => n === 0, 'no diagnostics over the size cap', 60_000);
    } finally {
      await setDiagnosticsSetting('maxFileSizeMB', undefined);
    }
  });
});
