// `?? schema` and `?? snapshot` in the Test Explorer, against the real sandbox (issue 36): a schema
// that holds passes and one that does not fails at its line naming the JSON pointer and the rule; the
// first run writes the snapshot beside the request file, a changed snapshot fails with the paths and
// opens as a diff, "Run and Update Snapshots" rewrites it, `# @snapshot-ignore` leaves values out;
// the editor completes the new words and marks a schema file that is missing.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { TestRunView } from '../../src/features/testingApi';
import { extensionApi, filesContaining, useSignedInTestSandbox, waitFor } from './helpers';

const SCHEMA = {
  type: 'object',
  required: ['candidatesMatchedQuantity', 'matchCandidates'],
  properties: { candidatesMatchedQuantity: { type: 'integer', minimum: 1 }, matchCandidates: { type: 'array', items: { required: ['organization'] } } },
};
const FILE = [
  '### found',
  '# @name found',
  '# @snapshot-ignore $.inquiryDetail.view',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard',
  '?? schema ./lookup.schema.json',
  '?? snapshot',
  '',
  '### none',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/10.1.2.3?view=standard',
  '?? schema ./lookup.schema.json',
].join('\n');
const LINES = { found: 3, schema: 4, snapshot: 5, none: 8, noneSchema: 9 };

type Tests = Awaited<ReturnType<typeof extensionApi>>['testing']['tests'];

function outcome(run: TestRunView, id: string): TestRunView['events'][number] | undefined {
  return run.events.filter((e) => e.id === id && e.state !== 'output' && e.state !== 'enqueued').at(-1);
}

function plain(markdown: string): string {
  return markdown.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
}

describe('schema and snapshot assertions in the Test Explorer', function () {
  this.timeout(90_000);
  const { c } = useSignedInTestSandbox();
  let tests: Tests;
  let folder: vscode.Uri;

  before(async () => {
    tests = (await extensionApi()).testing.tests;
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root);
    folder = vscode.Uri.joinPath(root, `checks-${randomUUID()}`);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'lookup.schema.json'), Buffer.from(JSON.stringify(SCHEMA)));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(folder, { recursive: true });
  });

  async function openFile(name: string, text: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.joinPath(folder, name);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }

  it('passes a schema, fails one naming the pointer and the rule, writes a snapshot, fails a changed one as a diff, and rewrites it with Run and Update Snapshots', async () => {
    const document = await openFile('lookups.bizdata.http', FILE);
    const fileId = document.uri.toString();
    const [found, none] = await waitFor(() => tests.items().filter((i) => i.parent === fileId), (r) => r.length === 2, 'the requests of the file');
    const [schemaCheck, snapshotCheck] = tests.items().filter((i) => i.parent === found.id);
    assert.deepEqual([schemaCheck.label, schemaCheck.line, snapshotCheck.label, snapshotCheck.line], ['?? schema ./lookup.schema.json', LINES.schema, '?? snapshot', LINES.snapshot]);

    const first = await tests.run([fileId]);
    await first.done;
    const events = JSON.stringify(first.events);
    assert.equal(outcome(first, found.id)?.state, 'passed', events);
    assert.equal(outcome(first, snapshotCheck.id)?.state, 'passed', events);
    assert.ok(first.events.some((e) => e.state === 'output' && /snapshot written: __snapshots__\/lookups\.found\.json/.test(e.output ?? '')), events);
    const failed = outcome(first, none.id);
    assert.equal(failed?.state, 'failed', events);
    const [noneCheck] = tests.items().filter((i) => i.parent === none.id);
    const [message] = outcome(first, noneCheck.id)?.messages ?? [];
    assert.equal(message.line, LINES.noneSchema);
    assert.match(plain(message.text), /schema: expected to match \.\/lookup\.schema\.json, actual 1 error: \/candidatesMatchedQuantity: must be >= 1 \(minimum at #\/properties\/candidatesMatchedQuantity\/minimum\)/);

    const snapshotUri = vscode.Uri.joinPath(folder, '__snapshots__', 'lookups.found.json');
    const kept = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(snapshotUri)).toString('utf8')) as { inquiryDetail: Record<string, unknown>; transactionDetail: object; matchCandidates: Array<{ organization: { duns: string } }> };
    assert.deepEqual(Object.keys(kept.inquiryDetail), ['ipAddress'], 'the ignored view is left out');
    assert.deepEqual(kept.transactionDetail, {}, 'the transaction id and timestamp are left out');
    const duns = kept.matchCandidates[0].organization.duns;
    kept.matchCandidates[0].organization.duns = '000000000';
    await vscode.workspace.fs.writeFile(snapshotUri, Buffer.from(JSON.stringify(kept, null, 2)));

    const second = await tests.run([found.id]);
    await second.done;
    assert.equal(outcome(second, found.id)?.state, 'failed', JSON.stringify(second.events));
    const [diff] = outcome(second, snapshotCheck.id)?.messages ?? [];
    assert.equal(diff.line, LINES.snapshot);
    assert.match(plain(diff.text), /1 difference: \$\.matchCandidates\[0\]\.organization\.duns: expected "000000000", actual "\d{9}"/);
    assert.ok(diff.expected?.includes('"duns": "000000000"') && diff.actual?.includes(`"duns": "${duns}"`), JSON.stringify(diff));

    const update = await tests.run([found.id], undefined, 'updateSnapshots');
    await update.done;
    assert.equal(outcome(update, found.id)?.state, 'passed', JSON.stringify(update.events));
    assert.ok(update.events.some((e) => e.state === 'output' && /snapshot updated: __snapshots__\/lookups\.found\.json/.test(e.output ?? '')));
    const rewritten = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(snapshotUri)).toString('utf8')) as typeof kept;
    assert.equal(rewritten.matchCandidates[0].organization.duns, duns);
    const third = await tests.run([found.id]);
    await third.done;
    assert.equal(outcome(third, found.id)?.state, 'passed');
    assert.deepEqual(filesContaining(folder.fsPath, [c.key, c.secret, c.user, c.password]), []);
  });

  it('completes ?? schema and ?? snapshot, and marks a schema file that does not exist at its line', async () => {
    const document = await openFile('edit.bizdata.http', ['GET {{baseUrl}}/{{aVersion}}/duns-search/ip/8.8.8.8', '?? schema ./nowhere.schema.json', '?? '].join('\n'));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, new vscode.Position(2, 3));
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const word of ['schema', 'snapshot', 'status', 'body']) assert.ok(labels.includes(word), labels.join(', '));
    const found = await waitFor(
      () => vscode.languages.getDiagnostics(document.uri).filter((d) => d.range.start.line === 1),
      (d) => d.length > 0,
      'a diagnostic on the schema line',
    );
    assert.match(found[0].message, /The schema file \.\/nowhere\.schema\.json does not exist/);
    assert.equal(found[0].severity, vscode.DiagnosticSeverity.Error);
    // Created, the file is read again and the mark goes.
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'nowhere.schema.json'), Buffer.from('{ "type": "object" }'));
    await waitFor(() => vscode.languages.getDiagnostics(document.uri).filter((d) => d.range.start.line === 1), (d) => d.length === 0, 'the diagnostic to go');
  });
});
