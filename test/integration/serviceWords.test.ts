// The extension shows what the service said (beside a spec code's own text) before the catalog's
// meaning and action: in the failure message, the diagnostic and the hover on the opened answer, and
// the Lookups history; a batch that meets a Retry-After longer than the client waits stops and says
// when to come back. The answers are the real service's texts, played by the sandbox's `respond` fault over HTTP.
import * as assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeCode } from '../../src/core/codes/codes';
import { admin, answerErrorMessages, extensionApi, ourDiagnostics, useSignedInTestSandbox, waitFor } from './helpers';

const UNAUTHORISED = 'You are not currently authorised to access this product';
const INVALID = 'The given request is invalid.';
const INTERNAL = 'Internal D&B system error.';

/** A history entry's tooltip as the reader sees it (its Markdown source escapes spaces and punctuation). */
async function historyTooltip(label: (l: string) => boolean): Promise<{ readonly description: string; readonly tooltip: string } | undefined> {
  const api = await extensionApi();
  const item = (await api.testing.treeItems('lookups')).find((i) => i.contextValue === 'bizdata.lookup.history' && label(i.label));
  return item && { description: item.description, tooltip: item.tooltip.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1') };
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

describe("the service's own words first, in the editor", function () {
  this.timeout(60_000);
  const { sandbox } = useSignedInTestSandbox();
  let messages: ReturnType<typeof answerErrorMessages>;

  beforeEach(() => {
    messages = answerErrorMessages();
  });

  afterEach(() => messages.restore());

  const respond = (fault: Record<string, unknown>): Promise<unknown> => admin(sandbox(), 'faults', { type: 'respond', count: 1, ...fault });

  /** The failing answer as the extension opened it, once its diagnostic for `code` is there. */
  async function openedAnswer(uri: string | undefined, code: string): Promise<{ doc: vscode.TextDocument; diagnostic: vscode.Diagnostic }> {
    assert.ok(uri, 'the failing answer was opened');
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.toString(), uri);
    const [diagnostic] = await waitFor(() => ourDiagnostics(doc.uri), (ds) => ds.some((d) => d.code === code), `the ${code} diagnostic`);
    return { doc, diagnostic };
  }

  it('00041: the failure message, the diagnostic, the hover and the history entry carry the answer\'s text, then the meaning and action', async () => {
    const info = describeCode('00041')!;
    // Twice: the client gets one new token and repeats the call once.
    await respond({ status: 401, path: '/v1/duns-search', count: 2, body: { error: { errorCode: '00041', errorMessage: UNAUTHORISED } } });
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.41' });
    const { doc, diagnostic } = await openedAnswer(uri, '00041');
    assert.equal(diagnostic.message, `00041: ${UNAUTHORISED} — ${info.meaning} ${info.action}`);

    const at = doc.positionAt(doc.getText().indexOf('"00041"') + 2);
    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at));
    const order = [UNAUTHORISED, `documented text:** ${info.text}`, info.meaning, info.action].map((part) => hover.indexOf(part));
    assert.ok(order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1])), hover);

    const shown = await waitFor(() => messages.shown, (m) => m.some((x) => x.message.includes('00041')), 'the failure message');
    assert.ok(shown.some((m) => m.message.includes(`00041: ${UNAUTHORISED}. ${info.meaning}`)), JSON.stringify(shown));
    assert.ok(!shown.some((m) => m.message.includes('Unauthorized')), JSON.stringify(shown));

    const entry = await historyTooltip((l) => l === '203.0.113.41');
    assert.ok(entry, 'the history entry');
    assert.match(entry.description, /^00041 · 401 · /);
    assert.ok(entry.tooltip.includes(`${UNAUTHORISED}. ${info.meaning}`), entry.tooltip);
  });

  it("00040 answered \"Unauthorized\": the spec's text stays, the service's words beside it, in the message, diagnostic, hover and history", async () => {
    const info = describeCode('00040')!;
    const shownText = `${info.text} The service said: "Unauthorized"`;
    await respond({ status: 401, path: '/v1/duns-search', count: 2, body: { error: { errorCode: '00040', errorMessage: 'Unauthorized' } } });
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.40' });
    const { doc, diagnostic } = await openedAnswer(uri, '00040');
    assert.equal(diagnostic.message, `00040: ${shownText} — ${info.meaning} ${info.action}`);
    const at = doc.positionAt(doc.getText().indexOf('"00040"') + 2);
    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at));
    const order = [`*${info.text}*`, '**The service said:** Unauthorized', info.meaning, info.action].map((part) => hover.indexOf(part));
    assert.ok(order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1])), hover);
    const shown = await waitFor(() => messages.shown, (m) => m.some((x) => x.message.includes('00040')), 'the failure message');
    assert.ok(shown.some((m) => m.message.includes(`00040: ${shownText}. ${info.meaning}`)), JSON.stringify(shown));
    const entry = await historyTooltip((l) => l === '203.0.113.40');
    assert.ok(entry?.tooltip.includes(`${shownText}. ${info.meaning}`), entry?.tooltip);
  });

  for (const [code, status, said] of [['CM001', 400, INVALID], ['CM004', 500, INTERNAL]] as const) {
    it(`${code}: the answer's own "${said}" in the message, the diagnostic and the history, not the catalog's "${describeCode(code)?.text}"`, async () => {
      const info = describeCode(code)!;
      await respond({ status, path: '/V4.0/organizations', body: { MatchResponse: { TransactionDetail: {}, TransactionResult: { SeverityText: 'Error', ResultID: code, ResultText: said } } } });
      const name = `Words ${code} Ltd`;
      const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpOrganization', { country: 'GB', name });
      const { diagnostic } = await openedAnswer(uri, code);
      assert.equal(diagnostic.message, `${code}: ${said} — ${info.meaning} ${info.action}`);
      const shown = await waitFor(() => messages.shown, (m) => m.some((x) => x.message.includes(code)), 'the failure message');
      assert.ok(shown.some((m) => m.message.includes(`${code}: ${said} ${info.meaning}`)), JSON.stringify(shown));
      const entry = await historyTooltip((l) => l.startsWith(name));
      assert.ok(entry?.tooltip.includes(said) && !entry.tooltip.includes(info.text), entry?.tooltip);
    });
  }

  it('a batch meeting a Retry-After of 120 s stops resumably and says when to come back', async () => {
    const file = join(process.env.BIZDATA_TEST_WORKSPACE ?? tmpdir(), `come-back-${Date.now()}.txt`);
    const out = `${file}.results.jsonl`;
    await writeFile(file, '203.0.113.51\n203.0.113.52\n203.0.113.53\n');
    try {
      await respond({ status: 429, path: '/v1/duns-search', headers: { 'Retry-After': 120 }, body: { error: { errorCode: '00045', errorMessage: 'Too Many Requests' } } });
      const started = Date.now();
      await vscode.commands.executeCommand('bizdata.runBatchLookup', { file });
      assert.ok(Date.now() - started < 30_000, 'stopped, not waited');
      const shown = await waitFor(() => messages.shown, (m) => m.some((x) => x.message.includes('Batch stopped')), 'the batch summary');
      const message = shown.find((m) => m.message.includes('Batch stopped'))?.message ?? '';
      assert.match(message, /00045: Too Many Requests\. .* Try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 2 minutes\).* Run the batch again at that time to resume/);
      const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; final: boolean; code?: string });
      // Calls already in flight when it stopped may have finished and been written.
      assert.deepEqual(lines.filter((l) => !l.ok).map((l) => [l.code, l.final]), [['00045', false]]);
      assert.ok(lines.length < 3 || lines.filter((l) => l.ok).length === 2);
      // Resumed: the stopped input runs again with the others.
      await vscode.commands.executeCommand('bizdata.runBatchLookup', { file });
      const again = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean });
      assert.equal(again.filter((l) => l.ok).length, 3);
    } finally {
      await rm(file, { force: true });
      await rm(out, { force: true });
    }
  });
});
