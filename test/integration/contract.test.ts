// A connection's contract in the editor (issue 35), against a sandbox of the test's own: the status
// bar's tooltip and the connection's item in the Connections view show what the period has used, a
// warning comes at 80 % and once used up, Run Batch stops at bizdata.batch.maxCalls, and a batch over
// what the contract has left asks first, then stops at what is left when told so.
import * as assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunningSandbox } from '../../src/sandbox/server';
import { canaries, dropConnections, extensionApi, setting, startTestSandbox, stats, waitFor } from './helpers';

describe("a connection's contract in the editor", function () {
  this.timeout(90_000);
  const c = canaries();
  const folder = process.env.BIZDATA_TEST_WORKSPACE ?? tmpdir();
  const files: string[] = [];
  let sb: RunningSandbox;
  type Warn = (message: string, ...rest: unknown[]) => Thenable<unknown>;
  const window = vscode.window as unknown as { showWarningMessage: Warn };
  const original = window.showWarningMessage;
  const warned: string[] = [];
  const asked: Array<{ message: string; items: unknown[] }> = [];
  let answer: string | undefined;

  before(async () => {
    // Every warning is seen here: a modal question gets `answer`, the others are recorded.
    window.showWarningMessage = (message: string, ...rest: unknown[]) => {
      if ((rest[0] as { modal?: boolean } | undefined)?.modal) {
        asked.push({ message, items: rest.slice(1) });
        return Promise.resolve(answer);
      }
      warned.push(message);
      return Promise.resolve(undefined);
    };
    sb = await startTestSandbox(c);
    const contract = { maxCalls: 10, period: 'month', startsOn: '2025-01-31' };
    const metered = { authUrl: sb.url, baseUrl: sb.url, legacyUrl: sb.url, origin: 'https://app.example.com', contract };
    await setting('bizdata.connections', { connections: { metered } });
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'metered' });
    const credentials = { consumerKey: c.key, consumerSecret: c.secret };
    const signedIn = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', connection: 'metered', ...credentials });
    assert.equal(signedIn, 'valid');
  });

  after(async () => {
    window.showWarningMessage = original;
    await dropConnections({ interfaceId: 'a', connection: 'metered' }, ['bizdata.batch.maxCalls']);
    await sb?.close();
    for (const f of files) await rm(f, { force: true });
  });

  /** A batch of `count` IP lookups (from `first`), run by the command; returns its results' lines. */
  async function batch(name: string, count: number, first: number, arg: Record<string, unknown> = {}): Promise<Array<{ ok: boolean }>> {
    const input = join(folder, `${name}.txt`);
    files.push(input, `${input}.results.jsonl`);
    await writeFile(input, Array.from({ length: count }, (_, i) => `203.0.113.${first + i}`).join('\n'));
    const out = await vscode.commands.executeCommand<string | undefined>('bizdata.runBatchLookup', { file: input, ...arg });
    if (out === undefined) return [];
    files.push(vscode.Uri.parse(out).fsPath);
    return (await readFile(vscode.Uri.parse(out).fsPath, 'utf8')).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { ok: boolean });
  }

  it('shows the usage in the status bar and the Connections view, warns at 80 % and used up, and asks before going over', async () => {
    const api = await extensionApi();
    assert.equal((await batch('contract-a', 3, 1)).length, 3);
    const bar = await waitFor(() => api.testing.statusBar(), (b) => b.tooltip.includes('3 of 10 data calls'), 'the tooltip to count 3 calls');
    assert.match(bar.tooltip, /Contract \| 3 of 10 data calls used this month \(30 %\), 7 left; resets on \d{4}-\d{2}-\d{2}/);
    const item = await waitFor(
      async () => (await api.testing.treeItems('connections')).find((i) => i.label === 'metered'),
      (i) => i?.description.includes('30 % of contract') === true,
      'the connection item to show 30 %',
    );
    assert.match(item?.tooltip ?? '', /Contract: 3 of 10 data calls used this month/);
    assert.deepEqual(warned.filter((w) => w.includes('contract')), [], 'no warning under 80 %');

    // The run's ceiling from the setting: 5 of 6 lookups, the sixth left for the next run.
    await setting('bizdata.batch.maxCalls', 5);
    const capped = await batch('contract-b', 6, 10);
    assert.equal(capped.length, 5);
    await setting('bizdata.batch.maxCalls', undefined);
    assert.equal((await stats(sb)).customers.test.dataCalls, 8);
    await waitFor(async () => warned.join('\n'), (w) => /has used 80 % of its contract this month \(8 of 10 data calls\); 2 left/.test(w), 'the 80 % warning');

    // Four more would go over the 2 left: asked; told to stop at what is left.
    answer = 'Stop After 2 Calls';
    const rest = await batch('contract-c', 4, 20);
    assert.equal(asked.length, 1);
    assert.match(asked[0].message, /this run would make 4 data calls on the connection "metered", whose contract has 2 left this month: 8 of 10 used since/);
    assert.deepEqual(asked[0].items.slice(0, 2), ['Run Anyway', 'Stop After 2 Calls']);
    assert.equal(rest.length, 2);
    assert.equal((await stats(sb)).customers.test.dataCalls, 10, 'the sandbox counted exactly what the contract allowed');
    await waitFor(async () => warned.join('\n'), (w) => /has used all 10 data calls of its contract this month/.test(w), 'the used-up warning');
    assert.match((await api.testing.statusBar()).tooltip, /10 of 10 data calls used this month \(100 %\), 0 left/);

    // Declined: nothing is sent.
    answer = undefined;
    assert.deepEqual(await batch('contract-d', 1, 30), []);
    assert.equal((await stats(sb)).customers.test.dataCalls, 10);
  });
});
