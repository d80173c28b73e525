// Run with Data in the editor (issue 26), against the real sandbox over loopback: the CodeLens at the
// top of a request file, one run of its requests per row of a CSV with each column a variable, the
// results beside the data file (one JSON line per row) and opened, a second run that resumes (sends
// nothing for rows already done), a data file whose row lacks a variable refused at its line with
// nothing sent, and a declined `# @note`: its rows written as not done (Run with Data) or skipped (the
// Test Explorer), by the one row rule of core/run/dataRows.ts.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TestRunView } from '../../src/features/testingApi';
import { answerErrorMessages, answerModalWarnings, extensionApi, openRequestFile, stats, useSignedInTestSandbox, waitFor } from './helpers';

const NOTED = ['### lookup', '# @note costs a lookup per row', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{ip}}?view=standard', '?? status == 200', ''].join('\n');
const REQUEST = ['### lookup', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{ip}}?view=standard', '?? status == 200', ''].join('\n');

interface ResultLine {
  readonly line: number;
  readonly values: Readonly<Record<string, string>>;
  readonly ok: boolean;
  readonly status?: number;
  readonly answer?: { readonly inquiryDetail?: { readonly ipAddress?: string } };
  readonly final: boolean;
}

describe('Run with Data in the editor', function () {
  this.timeout(90_000);
  const { sandbox } = useSignedInTestSandbox();
  const modal = answerModalWarnings();
  const dataCalls = async (): Promise<number> => (await stats(sandbox())).customers.test?.dataCalls ?? 0;
  const folder = (): vscode.Uri => {
    const f = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(f, 'the integration tests run with a workspace folder');
    return f;
  };

  it('runs the file once per row with its columns as variables, writes the results beside the data file, and resumes', async () => {
    const file = await openRequestFile(REQUEST);
    const name = `rows-${randomUUID()}`;
    const data = vscode.Uri.joinPath(folder(), `${name}.csv`);
    // A quoted value and a column the file does not use: both fine.
    await vscode.workspace.fs.writeFile(data, Buffer.from('ip,label\r\n203.0.113.7,first\r\n"203.0.113.8","second, quoted"\r\n203.0.113.9,third\r\n'));
    const results = vscode.Uri.joinPath(folder(), `${name}.results.jsonl`);
    try {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file.document.uri);
      const lens = lenses.find((l) => l.range.start.line === 0 && l.command?.title.includes('Run with Data'));
      assert.ok(lens?.command, `a Run with Data lens at the top: ${JSON.stringify(lenses.map((l) => [l.range.start.line, l.command?.title]))}`);
      assert.deepEqual(lens.command.arguments, [{ uri: file.document.uri.toString() }]);

      const before = await dataCalls();
      // The lens's own arguments, and the data file the open dialog would have given.
      const written = await vscode.commands.executeCommand<string>(lens.command.command, { ...(lens.command.arguments?.[0] as object), data: `${name}.csv` });
      assert.equal(written, results.toString());
      assert.equal(await dataCalls(), before + 3, 'one call per row');
      // Rows run two at a time (bizdata.batch.concurrency), so they are written in the order they end: compared in the data file's order.
      const lines = (await readFile(results.fsPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as ResultLine).sort((a, b) => a.line - b.line);
      assert.deepEqual(
        lines.map((l) => [l.line, l.values.ip, l.values.label, l.ok, l.status, l.final, l.answer?.inquiryDetail?.ipAddress]),
        [
          [2, '203.0.113.7', 'first', true, 200, true, '203.0.113.7'],
          [3, '203.0.113.8', 'second, quoted', true, 200, true, '203.0.113.8'],
          [4, '203.0.113.9', 'third', true, 200, true, '203.0.113.9'],
        ],
      );
      assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === results.toString()), 'the results are open');
      // The run is kept for Open Report: each row's request, named after its row.
      await vscode.commands.executeCommand('bizdata.openReport');
      const { testing } = await extensionApi();
      const html = await waitFor(() => testing.reportHtml(), (h) => h?.includes('Run with Data') === true, 'the report of the run');
      assert.ok(html?.includes(`lookup (row ${name}.csv:3)`), 'a row\'s request by its row');

      // Again on the same data: every row is done, nothing is sent, nothing is written twice.
      await vscode.commands.executeCommand('bizdata.runWithData', { uri: file.document.uri.toString(), data: `${name}.csv` });
      assert.equal(await dataCalls(), before + 3);
      assert.equal((await readFile(results.fsPath, 'utf8')).trim().split('\n').length, 3);
    } finally {
      await file.dispose();
      await vscode.workspace.fs.delete(data);
      await vscode.workspace.fs.delete(results).then(undefined, () => undefined);
    }
  });

  it('a declined # @note sends nothing and writes its rows as not done; confirmed, a second run sends them', async () => {
    const file = await openRequestFile(NOTED);
    const name = `rows-${randomUUID()}`;
    const data = vscode.Uri.joinPath(folder(), `${name}.csv`);
    await vscode.workspace.fs.writeFile(data, Buffer.from('ip\n203.0.113.7\n203.0.113.8\n'));
    const results = vscode.Uri.joinPath(folder(), `${name}.results.jsonl`);
    // Rows run two at a time: their lines in the data file's order.
    const read = async (): Promise<ResultLine[]> => (await readFile(results.fsPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as ResultLine).sort((a, b) => a.line - b.line);
    try {
      const before = await dataCalls();
      modal.answer = undefined;
      await vscode.commands.executeCommand('bizdata.runWithData', { uri: file.document.uri.toString(), data: `${name}.csv` });
      assert.ok(modal.asked.some((q) => q.message.includes('lookup')), 'the note was asked');
      assert.equal(await dataCalls(), before, 'nothing sent');
      assert.deepEqual((await read()).map((l) => [l.line, l.ok, l.final]), [[2, false, false], [3, false, false]]);
      modal.answer = 'Send';
      await vscode.commands.executeCommand('bizdata.runWithData', { uri: file.document.uri.toString(), data: `${name}.csv` });
      assert.equal(await dataCalls(), before + 2, 'the rows not done run again');
      assert.deepEqual((await read()).filter((l) => l.final).map((l) => [l.line, l.ok]), [[2, true], [3, true]]);
    } finally {
      modal.answer = undefined;
      await file.dispose();
      await vscode.workspace.fs.delete(data);
      await vscode.workspace.fs.delete(results).then(undefined, () => undefined);
    }
  });

  it('refuses a row that lacks a variable the file uses, at its line, before anything is sent', async () => {
    const file = await openRequestFile(REQUEST);
    const name = `rows-${randomUUID()}`;
    const data = vscode.Uri.joinPath(folder(), `${name}.jsonl`);
    await vscode.workspace.fs.writeFile(data, Buffer.from('{"ip": "203.0.113.7"}\n{"label": "no ip"}\n'));
    const errors = answerErrorMessages();
    try {
      const before = (await stats(sandbox())).requests;
      const written = await vscode.commands.executeCommand<string | undefined>('bizdata.runWithData', { uri: file.document.uri.toString(), data: data.fsPath });
      assert.equal(written, undefined);
      assert.match(errors.shown[0]?.message ?? '', new RegExp(`Nothing was sent: ${name}\\.jsonl:2: this row has no value for "ip"`));
      assert.equal((await stats(sandbox())).requests, before, 'nothing reached the sandbox');
    } finally {
      errors.restore();
      await file.dispose();
      await vscode.workspace.fs.delete(data);
    }
  });

  it('never writes the results through a link: a results file beside the data file that is a link is refused, nothing sent, the file it leads to unchanged', async () => {
    const file = await openRequestFile(REQUEST);
    const name = `linked-${randomUUID()}`;
    const data = vscode.Uri.joinPath(folder(), `${name}.csv`);
    const victim = vscode.Uri.joinPath(folder(), `${name}-victim.sh`);
    await vscode.workspace.fs.writeFile(data, Buffer.from('ip\n203.0.113.7\n'));
    await vscode.workspace.fs.writeFile(victim, Buffer.from('#!/bin/sh\n'));
    await symlink(victim.fsPath, join(folder().fsPath, `${name}.results.jsonl`));
    const errors = answerErrorMessages();
    try {
      const before = (await stats(sandbox())).requests;
      const written = await vscode.commands.executeCommand<string | undefined>('bizdata.runWithData', { uri: file.document.uri.toString(), data: data.fsPath });
      assert.equal(written, undefined);
      assert.match(errors.shown[0]?.message ?? '', /results\.jsonl is a link, and a results file is never written through a link/);
      assert.equal(await readFile(victim.fsPath, 'utf8'), '#!/bin/sh\n');
      assert.equal((await stats(sandbox())).requests, before, 'nothing reached the sandbox');
    } finally {
      errors.restore();
      await file.dispose();
      for (const f of [data, victim, vscode.Uri.joinPath(folder(), `${name}.results.jsonl`)]) await vscode.workspace.fs.delete(f).then(undefined, () => undefined);
    }
  });

  it('asks nothing of a run it refuses: a # @note file using a column the data file lacks is refused before the question', async () => {
    const file = await openRequestFile(NOTED.replace('?view=standard', '?view={{nowhere}}'));
    const name = `refused-${randomUUID()}`;
    const data = vscode.Uri.joinPath(folder(), `${name}.csv`);
    await vscode.workspace.fs.writeFile(data, Buffer.from('ip\n203.0.113.7\n'));
    const errors = answerErrorMessages();
    try {
      const asked = modal.asked.length;
      const before = (await stats(sandbox())).requests;
      const written = await vscode.commands.executeCommand<string | undefined>('bizdata.runWithData', { uri: file.document.uri.toString(), data: data.fsPath });
      assert.equal(written, undefined);
      assert.match(errors.shown[0]?.message ?? '', /Nothing was sent: refused-.*\.csv:1: the header has no column "nowhere", which .*\.bizdata\.http uses as \{\{nowhere\}\}/);
      assert.equal(modal.asked.length, asked, 'no question was asked');
      assert.equal((await stats(sandbox())).requests, before, 'nothing reached the sandbox');
    } finally {
      errors.restore();
      await file.dispose();
      await vscode.workspace.fs.delete(data);
    }
  });
});

describe('a data-driven request file in the Test Explorer', function () {
  this.timeout(90_000);
  const { sandbox } = useSignedInTestSandbox();
  const modal = answerModalWarnings();

  /** NAME.bizdata.http and NAME.data.csv in the workspace folder, found by the Test Explorer with a test per row. */
  async function dataDriven(prefix: string, csv: string, text: string, count: number) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const name = `${prefix}-${randomUUID()}`;
    const requestFile = vscode.Uri.joinPath(folder, `${name}.bizdata.http`);
    const data = vscode.Uri.joinPath(folder, `${name}.data.csv`);
    await vscode.workspace.fs.writeFile(data, Buffer.from(csv));
    await vscode.workspace.fs.writeFile(requestFile, Buffer.from(text));
    const remove = async (): Promise<void> => {
      await vscode.workspace.fs.delete(requestFile);
      await vscode.workspace.fs.delete(data);
    };
    const tests = (await extensionApi()).testing.tests;
    try {
      await tests.discover();
      await tests.resolve(requestFile.toString());
      const rows = await waitFor(() => tests.items().filter((i) => i.parent === requestFile.toString()), (r) => r.length === count, 'a test per row');
      return { requestFile, data, tests, rows, remove };
    } catch (err) {
      await remove();
      throw err;
    }
  }

  it('runs NAME.bizdata.http once per row of NAME.data.csv beside it, one test per row, and follows the data file', async () => {
    // An assertion's value is compared as written: the second row's answer fails it. The third row lacks "ip".
    const { requestFile, data, tests, rows, remove } = await dataDriven('driven', 'label,ip\nfirst,203.0.113.7\nsecond,203.0.113.8\nthird\n', [REQUEST.trim(), '?? body $.inquiryDetail.ipAddress == 203.0.113.7', ''].join('\n'), 3);
    try {
      assert.deepEqual(
        rows.map((r) => r.label),
        ['line 2: label=first, ip=203.0.113.7', 'line 3: label=second, ip=203.0.113.8', 'line 4: label=third'],
      );
      const before = (await stats(sandbox())).customers.test?.dataCalls ?? 0;
      const first = await tests.run([requestFile.toString()]);
      await first.done;
      const stateIn = (run: TestRunView, id: string) => run.events.filter((e) => e.id === id && ['passed', 'failed', 'errored', 'skipped'].includes(e.state)).at(-1);
      // A row without a value the file uses refuses the run before anything is sent, as `bizdata test` refuses it
      // (the run's preflight): the first row's test says why at ROWS:LINE, the others are skipped.
      assert.deepEqual(rows.map((r) => stateIn(first, r.id)?.state), ['errored', 'skipped', 'skipped'], JSON.stringify(first.events));
      assert.match(stateIn(first, rows[0].id)?.messages?.[0]?.text.replace(/\\(.)/g, '$1').replace(/&nbsp;/g, ' ') ?? '', /\.data\.csv:4: this row has no value for "ip"/);
      assert.equal((await stats(sandbox())).customers.test?.dataCalls ?? 0, before, 'nothing was sent');
      // The row corrected and a row added to the data file: a new test, and the run goes.
      await vscode.workspace.fs.writeFile(data, Buffer.from('label,ip\nfirst,203.0.113.7\nsecond,203.0.113.8\nthird,203.0.113.9\nfourth,203.0.113.10\n'));
      const four = await waitFor(() => tests.items().filter((i) => i.parent === requestFile.toString()), (r) => r.length === 4 && r[2].label.includes('ip='), 'the added row');
      assert.equal(four[3].label, 'line 5: label=fourth, ip=203.0.113.10');
      const run = await tests.run([requestFile.toString()]);
      await run.done;
      assert.deepEqual(four.map((r) => stateIn(run, r.id)?.state), ['passed', 'failed', 'failed', 'failed'], JSON.stringify(run.events));
      assert.match(stateIn(run, four[1].id)?.messages?.[0]?.text.replace(/\\(.)/g, '$1').replace(/&nbsp;/g, ' ') ?? '', /1 of 1 requests did not pass:[^]*expected == 203\.0\.113\.7/);
      assert.equal((await stats(sandbox())).customers.test?.dataCalls ?? 0, before + 4, 'one call per row');
    } finally {
      await remove();
    }
  });

  it('skips a row whose # @note is declined, as Run with Data leaves it not done', async () => {
    const { requestFile, tests, rows, remove } = await dataDriven('noted', 'ip\n203.0.113.7\n', NOTED, 1);
    try {
      const before = (await stats(sandbox())).customers.test?.dataCalls ?? 0;
      modal.answer = undefined;
      const run = await tests.run([requestFile.toString()]);
      await run.done;
      const states = run.events.filter((e) => e.id === rows[0].id && ['passed', 'failed', 'errored', 'skipped'].includes(e.state)).map((e) => e.state);
      assert.deepEqual(states, ['skipped'], JSON.stringify(run.events));
      assert.equal((await stats(sandbox())).customers.test?.dataCalls ?? 0, before, 'nothing sent');
    } finally {
      modal.answer = undefined;
      await remove();
    }
  });
});
