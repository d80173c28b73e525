// The lookup history in the real extension host: each lookup's answer is a file of its own under the
// extension's globalStorageUri, globalState keeps only a summary, and the history survives a new load,
// including one that brings over a history of the old format (everything in one globalState value).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answerErrorMessages, extensionApi, useSignedInTestSandbox } from './helpers';
import { uriExists } from '../../src/features/shared/uriExists';

interface Dump {
  readonly global: Readonly<Record<string, unknown>>;
}

async function answersFolder(): Promise<vscode.Uri> {
  return vscode.Uri.joinPath(vscode.Uri.parse((await extensionApi()).testing.globalStorageUri), 'lookups');
}

async function fileText(uri: vscode.Uri): Promise<string> {
  return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
}

/** The history entry id behind a result document's address (bizdata-result:/<id>/<name>.json). */
function idOf(uri: string): string {
  return vscode.Uri.parse(uri).path.split('/')[1];
}

async function dump(): Promise<{ readonly text: string; readonly global: Dump['global'] }> {
  const text = (await extensionApi()).testing.stateDump();
  return { text, global: (JSON.parse(text) as Dump).global };
}

describe('lookup history storage', function () {
  this.timeout(60_000);
  const { c, sandbox } = useSignedInTestSandbox();

  it('keeps a lookup\'s answer as a file in globalStorageUri and only its summary in globalState', async () => {
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.61' });
    assert.ok(uri);
    const shown = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.ok(shown.includes('matchCandidates'), shown);
    const id = idOf(uri);
    const file = vscode.Uri.joinPath(await answersFolder(), `${id}.json`);
    assert.equal(await fileText(file), shown, 'the answer file holds what the result document shows');

    const state = await dump();
    const record = state.global[`bizdata.history.${id}`] as { answer?: { chars: number }; body?: unknown } | undefined;
    assert.ok(record, `no record for ${id} in ${Object.keys(state.global).join(', ')}`);
    assert.equal(record.body, undefined);
    assert.equal(record.answer?.chars, shown.length);
    assert.ok(!state.text.includes('matchCandidates'), 'globalState holds no answer body');
    for (const secret of [c.key, c.secret, c.user, c.password]) assert.ok(!(await fileText(file)).includes(secret));
  });

  it('survives a new load, brings an old-format history over, and deletes an entry\'s file with it', async () => {
    const api = await extensionApi();
    const kept = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.62' });
    const keptId = idOf(kept);
    // The old format: every entry with its answer inline, in one value. Its address is the service's:
    // Copy as curl gives a command only for an address the token may go to.
    const legacyRequest = { method: 'GET', url: `${sandbox().url}/v1/duns-search/ip/192.0.2.201?view=standard`, headers: { authorization: 'Bearer <TOKEN>' } };
    const legacy = {
      history: [{ id: 'legacy0001', query: { kind: 'ip', ip: '192.0.2.201' }, at: Date.now() - 60_000, ok: true, status: 200, durationMs: 42, request: legacyRequest, body: { legacyMarker: 'kept-from-the-old-format' } }],
      saved: [{ id: 'legacysaved1', query: { kind: 'org', country: 'GB', name: 'Legacy Saved Ltd' } }],
    };
    await api.testing.globalState.update('bizdata.lookups', legacy);

    await api.testing.reloadLookups();

    const state = await dump();
    assert.equal(state.global['bizdata.lookups'], undefined, 'the old value is gone once brought over');
    assert.ok(state.global['bizdata.history.legacy0001']);
    assert.ok(state.global[`bizdata.history.${keptId}`], 'the entries of this version are still there');
    assert.ok(!state.text.includes('kept-from-the-old-format'), 'the old answer moved out of globalState');
    const folder = await answersFolder();
    assert.match(await fileText(vscode.Uri.joinPath(folder, 'legacy0001.json')), /"legacyMarker": "kept-from-the-old-format"/);

    const items = await api.testing.treeItems('lookups');
    const labels = items.map((i) => `${i.contextValue ?? ''} ${i.label}`);
    assert.ok(labels.includes('bizdata.lookup.history 192.0.2.201'), labels.join('\n'));
    assert.ok(labels.includes('bizdata.lookup.history 203.0.113.62'), labels.join('\n'));
    assert.ok(labels.includes('bizdata.lookup.saved Legacy Saved Ltd (GB)'), labels.join('\n'));

    // Its result document, Copy as curl and Re-run work as for any entry.
    const legacyUri = 'bizdata-result:/legacy0001/ip-192.0.2.201.json';
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(legacyUri));
    assert.equal(JSON.parse(doc.getText()).legacyMarker, 'kept-from-the-old-format');
    const curl = await vscode.commands.executeCommand<string>('bizdata.copyAsCurl', { resultUri: legacyUri });
    assert.match(curl, /192\.0\.2\.201/);
    const rerun = await vscode.commands.executeCommand<string>('bizdata.rerunLookup', { resultUri: legacyUri });
    assert.ok(rerun && idOf(rerun) !== 'legacy0001');

    await vscode.commands.executeCommand('bizdata.deleteLookup', { type: 'history', entry: { id: 'legacy0001' } });
    assert.equal(await uriExists(vscode.Uri.joinPath(folder, 'legacy0001.json')), false, 'deleting the entry deletes its file');
    assert.equal((await dump()).global['bizdata.history.legacy0001'], undefined);
    await vscode.commands.executeCommand('bizdata.deleteLookup', { type: 'saved', saved: { id: 'legacysaved1' } });
  });

  it('shows an entry whose answer file is gone as no longer stored', async () => {
    const api = await extensionApi();
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.63' });
    const id = idOf(uri);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(await answersFolder(), `${id}.json`));

    await api.testing.reloadLookups();

    const item = (await api.testing.treeItems('lookups')).find((i) => i.label === '203.0.113.63');
    assert.ok(item, 'the entry is still listed');
    assert.match(item.description, /answer no longer stored$/);
    // Another name for the same entry: VS Code asks the provider afresh.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(`bizdata-result:/${id}/again.json`));
    assert.match(doc.getText(), /no longer stored.*Re-run the lookup/);
    const messages = answerErrorMessages();
    try {
      const saved = await vscode.commands.executeCommand('bizdata.saveResponse', { resultUri: uri });
      assert.equal(saved, undefined);
      assert.ok(messages.shown.some((m) => /no longer stored/.test(m.message)), JSON.stringify(messages.shown));
    } finally {
      messages.restore();
    }
    const again = await vscode.commands.executeCommand<string>('bizdata.rerunLookup', { resultUri: uri });
    assert.ok(again && (await uriExists(vscode.Uri.joinPath(await answersFolder(), `${idOf(again)}.json`))), 'a re-run stores the answer again');
    await vscode.commands.executeCommand('bizdata.deleteLookup', { type: 'history', entry: { id } });
    assert.equal((await api.testing.treeItems('lookups')).some((i) => i.label === '203.0.113.63' && i.description.endsWith('answer no longer stored')), false);
  });
});
