// In the real editor, with the service (the sandbox) on http://[::1]:PORT and plain listeners of the
// test's own on 127.0.0.1 at the same port (reached as 127.0.0.1, localhost and 127.1) and on [::1] at
// another port: request lines to them are underlined and refused by Send and Copy as curl, a history
// entry recorded while the service was at 127.0.0.1 is neither re-run nor copied as curl to it once the
// service is at [::1], and not one request carrying a credential reaches a listener.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningSandbox } from '../../src/sandbox/server';
import { startListener, withCredentials, type Listener } from '../unit/core/listeners';
import { answerErrorMessages, answerModalWarnings, canaries, openRequestFile, pointAt, runCodeLens, signInToBoth, SANDBOX_TOKEN, sleep, startTestSandbox, stats, tearDown, waitFor } from './helpers';

const IP = 'v1/duns-search/ip/203.0.113.7?view=standard';
const ORG = 'V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true';
const CLIPBOARD_MARK = 'nothing was copied';

describe('credentials only to the exact service origin', function () {
  this.timeout(90_000);
  const c = canaries();
  let sb: RunningSandbox | undefined;
  let port = 0;
  /** 127.0.0.1 on the service's port (handing requests on to the sandbox, as a relay would), and [::1] on another port. */
  let sameHostOtherSpelling: Listener;
  let otherPort: Listener;
  const listeners: Listener[] = [];
  /** Moving the service to another spelling asks before the credentials go there (issue 25): the user says yes here. */
  const modal = answerModalWarnings();

  before(async () => {
    sb = await startTestSandbox(c, {}, '::1');
    port = Number(new URL(sb.url).port);
    sameHostOtherSpelling = await startListener('127.0.0.1', port, sb.url);
    otherPort = await startListener('::1');
    listeners.push(sameHostOtherSpelling, otherPort);
    await pointAt(sb.url);
    await signInToBoth(c);
  });

  after(async () => {
    await Promise.all(listeners.map((l) => l.close()));
    await tearDown(sb);
  });

  const secrets = (): string[] => [c.key, c.secret, c.user, c.password];
  function assertNoCredentialReached(): void {
    for (const l of listeners) {
      assert.deepEqual(withCredentials(l.received, secrets()), [], `${l.url} received a credential`);
      assert.ok(!l.received.some((r) => SANDBOX_TOKEN.test(JSON.stringify(r))), `${l.url} received a token`);
      assert.equal(l.received.length, 0, `${l.url} received ${JSON.stringify(l.received.map((r) => r.path))}`);
    }
  }

  it('origin: request lines to 127.0.0.1, localhost, 127.1 and another port are underlined, and Send and Copy as curl refuse them', async () => {
    const lines = [
      '### A to 127.0.0.1 on the service port',
      '# @interface a',
      `GET http://127.0.0.1:${port}/${IP}`,
      '',
      '### B to localhost',
      '# @interface b',
      `GET http://localhost:${port}/${ORG}`,
      '',
      '### 127.1, no interface named',
      `GET http://127.1:${port}/${IP}`,
      '',
      '### another port',
      '# @interface a',
      `GET ${otherPort.url}/${IP}`,
      '',
      '### the service, spelled otherwise',
      `GET http://[0:0:0:0:0:0:0:1]:${port}/${IP}`,
    ];
    const refused = [2, 6, 9, 13];
    const messages = answerErrorMessages();
    const file = await openRequestFile(lines.join('\n'));
    try {
      const diagnostics = await waitFor(() => vscode.languages.getDiagnostics(file.document.uri).filter((d) => d.code === 'operation'), (d) => d.length === refused.length, 'a diagnostic on every refused line');
      assert.deepEqual(diagnostics.map((d) => d.range.start.line), refused);
      const only = `http://\\[::1\\]:${port} `;
      assert.match(diagnostics[0].message, new RegExp(`goes to http://127\\.0\\.0\\.1:${port}, which is not a service host of Interface A: its token goes only to ${only}`));
      assert.match(diagnostics[1].message, new RegExp(`goes to http://localhost:${port}, which is not a service host of Interface B: its token goes only to ${only}`));
      assert.match(diagnostics[2].message, new RegExp(`goes to http://127\\.0\\.0\\.1:${port}, which is no configured service host`));
      assert.match(diagnostics[3].message, new RegExp(`goes to http://\\[::1\\]:${otherPort.port}, which is not a service host of Interface A`));
      await vscode.env.clipboard.writeText(CLIPBOARD_MARK);
      for (const line of refused) {
        assert.equal(await runCodeLens(file.document, line, 'Send'), undefined, `Send on line ${line + 1}`);
        assert.equal(await runCodeLens(file.document, line, 'Copy as curl'), undefined, `Copy as curl on line ${line + 1}`);
      }
      const shown = await waitFor(() => messages.shown, (s) => s.length === refused.length * 2, 'a refusal for every Send and Copy as curl');
      for (const [i, line] of refused.entries()) {
        for (const m of [shown[2 * i], shown[2 * i + 1]]) assert.match(m.message, new RegExp(`\\.bizdata\\.http:${line + 1}: The request goes to `));
      }
      assert.equal(await vscode.env.clipboard.readText(), CLIPBOARD_MARK, 'a curl command was copied');
      const answer = await runCodeLens<string>(file.document, 16, 'Send');
      assert.ok(answer, 'the service itself, spelled [0:0:0:0:0:0:0:1], answers');
      assert.ok((await vscode.workspace.openTextDocument(vscode.Uri.parse(answer))).getText().includes('"203.0.113.7"'));
      await sleep(300);
      assertNoCredentialReached();
    } finally {
      messages.restore();
      await file.dispose();
    }
  });

  it('origin: a history entry sent while the service was at 127.0.0.1 is neither re-run nor copied as curl there once it is at [::1]', async () => {
    // The same account, but tokens are kept by exact origin: the token signed in at [::1] never goes to
    // 127.0.0.1, which signs in anew once the user agrees to send the credentials there.
    const tokensBefore = (await stats(sb as RunningSandbox)).customers.test.tokenRequests;
    modal.answer = 'Send Them to the New Address';
    await pointAt(sameHostOtherSpelling.url);
    const file = await openRequestFile(['# @name viaOther', `GET {{baseUrl}}/${IP}`].join('\n'));
    const messages = answerErrorMessages();
    try {
      const sent = await runCodeLens<string>(file.document, 1, 'Send');
      const looked = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '198.51.100.7' });
      assert.ok(sent && looked, 'sent while 127.0.0.1 was the service');
      assert.equal(modal.asked.length, 1, 'asked once before the credentials went to 127.0.0.1');
      assert.equal(withCredentials(sameHostOtherSpelling.received).length, 3, 'the listener, then the service, got a sign-in and both calls with the new token');
      assert.equal((await stats(sb as RunningSandbox)).customers.test.tokenRequests, tokensBefore + 1, 'a token of its own for the other spelling');
      const kept = sameHostOtherSpelling.received.filter((r) => !r.path.startsWith('/v1/token')).map((r) => String(r.headers.authorization));
      assert.equal(new Set(kept).size, 1);
      sameHostOtherSpelling.received.splice(0);
      await pointAt(sb?.url);
      await vscode.env.clipboard.writeText(CLIPBOARD_MARK);
      assert.equal(await vscode.commands.executeCommand('bizdata.rerunLookup', { resultUri: sent }), undefined, 'the re-run opened a result');
      assert.equal(await vscode.commands.executeCommand('bizdata.copyAsCurl', { resultUri: sent }), undefined, 'a curl of the request');
      assert.equal(await vscode.commands.executeCommand('bizdata.copyAsCurl', { resultUri: looked }), undefined, 'a curl of the lookup');
      const shown = await waitFor(() => messages.shown, (s) => s.length === 3, 'three refusals');
      for (const m of shown) assert.match(m.message, new RegExp(`goes to http://127\\.0\\.0\\.1:${port}, which is not a service host of Interface A: its token goes only to http://\\[::1\\]:${port} `));
      assert.equal(await vscode.env.clipboard.readText(), CLIPBOARD_MARK, 'a curl command was copied');
      // A lookup is built from the current addresses, so its re-run goes to the service.
      const rerun = await vscode.commands.executeCommand<string>('bizdata.rerunLookup', { resultUri: looked });
      assert.ok(rerun, 'the lookup re-ran at the service');
      await sleep(300);
      assertNoCredentialReached();
    } finally {
      messages.restore();
      await file.dispose();
      await pointAt(sb?.url);
    }
  });
});
