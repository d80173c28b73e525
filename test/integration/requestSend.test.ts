// Sending the requests of a request file from its CodeLenses, against the real sandbox over loopback:
// the answer opens in the JSON result editor and joins the history, chained values flow from one
// request to the next, a foreign host never sees a request, and no token is ever written anywhere.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import {
  answerErrorMessages,
  dataRootOf,
  extensionApi,
  filesContaining,
  openRequestFile,
  runCodeLens,
  SANDBOX_TOKEN,
  sleep,
  stats,
  useSignedInTestSandbox,
  waitFor,
} from './helpers';

const FILE = [
  '@ip = 203.0.113.7',
  '',
  '### Interface A',
  '# @name first',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/{{ip}}?view=standard',
  'Accept: application/json',
  '',
  '### Interface B, chained on the answer above',
  '# @name second',
  'GET {{legacyUrl}}/{{orgVersion}}/organizations',
  '    ?CountryISOAlpha2Code={{first.response.body.$.matchCandidates[0].organization.countryISOAlpha2Code}}',
  '    &SubjectName=Chained%20Co',
  '    &match=true',
  '    &MatchTypeText=Advanced',
].join('\n');
const FIRST_LINE = 4;
const SECOND_LINE = 9;

describe('sending request files', function () {
  this.timeout(90_000);
  const { c, sandbox } = useSignedInTestSandbox();

  it('sends a request from its CodeLens and shows the sandbox\'s answer in the JSON result editor', async () => {
    const file = await openRequestFile(FILE);
    try {
      assert.equal(file.document.languageId, 'bizdata-http', 'the *.bizdata.http name selects the language');
      const before = await stats(sandbox());
      const uri = await runCodeLens<string>(file.document, FIRST_LINE, 'Send (Interface A)');
      assert.ok(uri, 'the Send lens opened a result');
      const editor = vscode.window.activeTextEditor;
      assert.equal(editor?.document.uri.toString(), uri);
      assert.equal(editor?.document.uri.scheme, 'bizdata-result');
      assert.equal(editor?.document.languageId, 'json');
      const body = JSON.parse(editor?.document.getText() ?? '') as { inquiryDetail: { ipAddress: string } };
      assert.equal(body.inquiryDetail.ipAddress, '203.0.113.7');
      const after = await stats(sandbox());
      assert.equal(after.customers.test.dataCalls, (before.customers.test.dataCalls ?? 0) + 1, 'one data call, with the token signed in already');
      const api = await extensionApi();
      const history = (await api.testing.treeItems('lookups')).filter((i) => i.contextValue === 'bizdata.lookup.history');
      assert.equal(history[0].label, 'first');
      assert.match(history[0].description, /^OK · 200 · \d+ ms · default$/);
    } finally {
      await file.dispose();
    }
  });

  it('chains: the second request uses a value of the first one\'s answer, and says to send the first before', async () => {
    const messages = answerErrorMessages();
    const file = await openRequestFile(FILE);
    try {
      assert.equal(await runCodeLens(file.document, SECOND_LINE, 'Send'), undefined);
      const [shown] = await waitFor(() => messages.shown, (s) => s.length > 0, 'the message about the unsent request');
      assert.match(shown.message, /send the request named "first" first/);
      const first = await runCodeLens<string>(file.document, FIRST_LINE, 'Send');
      const country = (JSON.parse((await vscode.workspace.openTextDocument(vscode.Uri.parse(first))).getText()) as { matchCandidates: Array<{ organization: { countryISOAlpha2Code: string } }> }).matchCandidates[0].organization.countryISOAlpha2Code;
      const second = await runCodeLens<string>(file.document, SECOND_LINE, 'Send (Interface B)');
      const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(second))).getText();
      assert.ok(text.includes('"Chained Co (Sandbox)"'), text);
      assert.ok(text.includes(`"countryISOAlpha2Code": "${country}"`), `the organization search used ${country} from the first answer`);
      assert.ok(text.includes('"CM000"'));
    } finally {
      messages.restore();
      await file.dispose();
    }
  });

  it('refuses a request to a host that is not one of the service\'s: nothing reaches it', async () => {
    let reached = 0;
    const collector: Server = createServer((_req, res) => {
      reached++;
      res.end('{}');
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const port = (collector.address() as AddressInfo).port;
    const messages = answerErrorMessages();
    const file = await openRequestFile(['### someone else\'s file', '# @interface a', `GET http://127.0.0.1:${port}/v1/duns-search/ip/203.0.113.7`, '', '###', `GET http://127.0.0.1:${port}/v2/other`].join('\n'));
    try {
      const diagnostics = await waitFor(() => vscode.languages.getDiagnostics(file.document.uri).filter((d) => d.code === 'operation'), (d) => d.length === 2, 'the foreign-host diagnostics');
      assert.match(diagnostics[0].message, /not a service host of Interface A/);
      const before = (await stats(sandbox())).requests;
      assert.equal(await runCodeLens(file.document, 2, 'Send'), undefined);
      assert.equal(await runCodeLens(file.document, 5, 'Send'), undefined);
      const shown = await waitFor(() => messages.shown, (s) => s.length === 2, 'two refusals');
      assert.match(shown[0].message, new RegExp(`\\.bizdata\\.http:3: The request goes to http://127\\.0\\.0\\.1:${port}, which is not a service host of Interface A: its token goes only to ${sandbox().url.replace(/\./g, '\\.')} `));
      assert.match(shown[1].message, /no configured service host, so no token can be chosen/);
      assert.equal(await vscode.commands.executeCommand('bizdata.copyRequestAsCurl', { uri: file.document.uri.toString(), line: 2 }), undefined, 'no curl for it either');
      await sleep(300);
      assert.equal(reached, 0, 'the foreign host received a request');
      assert.equal((await stats(sandbox())).requests, before, 'a refused request reached the sandbox');
    } finally {
      messages.restore();
      await file.dispose();
      collector.close();
    }
  });

  it('refuses a ";" or an encoded "/" in a path (the sign-in read another way) at its line: a diagnostic, no Send, no curl, nothing sent', async () => {
    const messages = answerErrorMessages();
    const file = await openRequestFile(['GET {{baseUrl}}/{{aVersion}}/token;x', '', '###', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/..%2F..%2Ftoken'].join('\n'));
    try {
      const diagnostics = await waitFor(() => vscode.languages.getDiagnostics(file.document.uri).filter((d) => /The path segment/.test(d.message)), (d) => d.length === 2, 'the path diagnostics');
      assert.deepEqual(diagnostics.map((d) => d.range.start.line), [0, 3]);
      const before = (await stats(sandbox())).requests;
      assert.equal(await runCodeLens(file.document, 0, 'Send'), undefined);
      assert.equal(await runCodeLens(file.document, 3, 'Send'), undefined);
      const shown = await waitFor(() => messages.shown, (s) => s.length === 2, 'two refusals');
      assert.match(shown[0].message, /\.bizdata\.http:1: The path segment "token;x" holds a ";"/);
      assert.match(shown[1].message, /\.bizdata\.http:4: The path segment "\.\.%2F\.\.%2Ftoken" holds an encoded "\/"/);
      for (const line of [0, 3]) assert.equal(await vscode.commands.executeCommand('bizdata.copyRequestAsCurl', { uri: file.document.uri.toString(), line }), undefined, 'no curl for it either');
      assert.equal((await stats(sandbox())).requests, before, 'a refused request reached the sandbox');
    } finally {
      messages.restore();
      await file.dispose();
    }
  });

  it('copies a request as curl with <TOKEN>, and re-runs, saves and deletes it in the history', async () => {
    const file = await openRequestFile(FILE);
    try {
      const curl = await runCodeLens<string>(file.document, FIRST_LINE, 'Copy as curl');
      assert.match(curl, /^# Business Data connection: default\ncurl .*\/v1\/duns-search\/ip\/203\.0\.113\.7\?view=standard/);
      assert.ok(curl.includes("'authorization: Bearer <TOKEN>'"), curl);
      assert.ok(curl.includes("'origin: https://localhost'"), curl);
      assert.ok(!SANDBOX_TOKEN.test(curl), 'a token in the curl command');
      const sent = await runCodeLens<string>(file.document, FIRST_LINE, 'Send');
      const rerun = await vscode.commands.executeCommand<string>('bizdata.rerunLookup', { resultUri: sent });
      assert.ok(rerun && rerun !== sent, 'the re-run opened a new result');
      assert.ok((await vscode.workspace.openTextDocument(vscode.Uri.parse(rerun))).getText().includes('"203.0.113.7"'));
      const saved = await vscode.commands.executeCommand<string>('bizdata.saveResponse', { resultUri: rerun });
      assert.match(vscode.Uri.parse(saved).path, /request-first(-\d+)?\.response\.json$/);
      await vscode.workspace.fs.delete(vscode.Uri.parse(saved));
      // Delete, as the Lookups view's context menu does with the element.
      const api = await extensionApi();
      const id = vscode.Uri.parse(rerun).path.split('/')[1];
      assert.ok(api.testing.stateDump().includes(`"id":"${id}"`));
      await vscode.commands.executeCommand('bizdata.deleteLookup', { type: 'history', entry: { id } });
      assert.ok(!api.testing.stateDump().includes(`"id":"${id}"`), 'the request is still in the history');
    } finally {
      await file.dispose();
    }
  });

  it('never writes a token or a credential into the file, the history, the state or the log', async () => {
    const api = await extensionApi();
    const file = await openRequestFile(['# @name leak', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/198.51.100.9', 'Authorization: Bearer pasted-by-hand'].join('\n'));
    try {
      const uri = await runCodeLens<string>(file.document, 1, 'Send');
      assert.ok(uri);
      await file.document.save();
      const written = Buffer.from(await vscode.workspace.fs.readFile(file.document.uri)).toString('utf8');
      const needles = [c.secret, c.password, Buffer.from(`${c.key}:${c.secret}`).toString('base64')];
      for (const text of [written, api.testing.stateDump(), (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText()]) {
        assert.ok(!SANDBOX_TOKEN.test(text), 'a sandbox token was written');
        for (const n of needles) assert.ok(!text.includes(n), 'a credential was written');
      }
      assert.ok(api.testing.stateDump().includes('"kind":"request"'), 'the history holds the request');
      assert.ok(!api.testing.stateDump().includes('pasted-by-hand'), 'the Authorization header of the file was sent');
      await vscode.commands.executeCommand('bizdata.showLog');
      await sleep(1500);
      const root = dataRootOf(vscode.Uri.parse(api.testing.logUri).fsPath);
      assert.ok(filesContaining(root, ['/v1/duns-search/ip/198.51.100.9']).length > 0, 'the log has the request line');
      const leaks = [...filesContaining(root, needles), ...filesContaining(root, ['sbx.']).filter((f) => SANDBOX_TOKEN.test(readFileSync(f, 'latin1')))];
      assert.deepEqual(leaks, [], `a secret or token was written to ${leaks.join(', ')}`);
    } finally {
      await file.dispose();
    }
  });
});
