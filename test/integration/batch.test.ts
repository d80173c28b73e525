// "Run Batch Lookup" against the window's own local sandbox: results beside the input as JSON lines,
// cancel part-way, then resume without repeating what was done.
import * as assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, waitFor } from './helpers';

type WithProgress = typeof vscode.window.withProgress;

/**
 * Runs `run` with every progress notification's Cancel button wired to `cancel`: a test cannot click
 * the button, so it cancels the token VS Code hands the command, as the click would.
 */
async function withCancelButton<T>(cancel: vscode.CancellationToken, run: () => Promise<T>): Promise<T> {
  const win = vscode.window as unknown as { withProgress: WithProgress };
  const original = win.withProgress;
  win.withProgress = ((options, task) =>
    original.call(vscode.window, options, async (progress, token) => {
      const pressed = new vscode.CancellationTokenSource();
      const subscriptions = [token, cancel].map((t) => t.onCancellationRequested(() => pressed.cancel()));
      try {
        return await task(progress, pressed.token);
      } finally {
        subscriptions.forEach((d) => d.dispose());
        pressed.dispose();
      }
    })) as WithProgress;
  try {
    return await run();
  } finally {
    win.withProgress = original;
  }
}

interface Line {
  input: { kind: string; ip?: string; name?: string };
  ok: boolean;
  code?: string;
}

async function readLines(file: string): Promise<Line[]> {
  try {
    const text = await readFile(file, 'utf8');
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Line);
  } catch {
    return [];
  }
}

describe('batch lookups', function () {
  this.timeout(120_000);
  const folder = process.env.BIZDATA_TEST_WORKSPACE ?? tmpdir();
  const ipsFile = join(folder, 'batch-ips.txt');
  const csvFile = join(folder, 'batch-orgs.csv');

  before(async () => {
    await activateExtension();
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.startSandbox'), 'the sandbox started');
  });

  after(async () => {
    await vscode.commands.executeCommand('bizdata.stopSandbox');
    for (const f of [ipsFile, csvFile]) {
      await rm(f, { force: true });
      await rm(`${f}.results.jsonl`, { force: true });
    }
  });

  it('can be cancelled part-way and resumes where it stopped', async () => {
    const ips = Array.from({ length: 40 }, (_, i) => `198.51.100.${i + 1}`);
    await writeFile(ipsFile, `# addresses to check\n${ips.join('\n')}\n`);
    const outFile = `${ipsFile}.results.jsonl`;
    await rm(outFile, { force: true });

    const cancel = new vscode.CancellationTokenSource();
    const out = await withCancelButton(cancel.token, async () => {
      const first = vscode.commands.executeCommand<string>('bizdata.runBatchLookup', { file: ipsFile });
      await waitFor(() => readLines(outFile), (lines) => lines.length >= 5, 'five results before cancelling', 60_000);
      cancel.cancel();
      return first;
    });
    assert.equal(out, vscode.Uri.file(outFile).toString());
    const afterCancel = await readLines(outFile);
    assert.ok(afterCancel.length >= 5 && afterCancel.length < ips.length, `cancelled part-way (${afterCancel.length} of ${ips.length})`);
    assert.ok(afterCancel.every((l) => l.ok), 'every written line succeeded');

    assert.equal(await vscode.commands.executeCommand<string>('bizdata.runBatchLookup', { file: ipsFile }), out);
    const lines = await readLines(outFile);
    // One line per address: the resumed run did not repeat what the cancelled run had written.
    assert.equal(lines.length, ips.length);
    assert.deepEqual(lines.map((l) => l.input.ip).sort(), [...ips].sort());
    assert.ok(lines.every((l) => l.ok && l.input.kind === 'ip'));

    // A third run finds everything done and calls nothing.
    assert.equal(await vscode.commands.executeCommand<string>('bizdata.runBatchLookup', { file: ipsFile }), out);
    assert.equal((await readLines(outFile)).length, ips.length);
  });

  it('runs a CSV of organization queries (Interface B)', async () => {
    await writeFile(csvFile, 'country,name,territory\nGB,Example Trading Ltd,\nUS,"Acme, Inc.",CA\n');
    const out = await vscode.commands.executeCommand<string>('bizdata.runBatchLookup', { file: csvFile });
    assert.equal(out, vscode.Uri.file(`${csvFile}.results.jsonl`).toString());
    const lines = await readLines(`${csvFile}.results.jsonl`);
    assert.deepEqual(lines.map((l) => [l.input.kind, l.input.name, l.ok]).sort(), [
      ['org', 'Acme, Inc.', true],
      ['org', 'Example Trading Ltd', true],
    ]);
  });
});
