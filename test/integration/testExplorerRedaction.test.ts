// Issue 25, finding 1 in the editor: a request file whose host reflects the request cannot make the
// Test Explorer show a credential or a token. The host is an echo host of the test's own in front of
// the real sandbox (test/echoHost.ts); the run's messages (text, expected, actual), its output and the
// answer Open Answer shows hold none of them in any encoding, and an actual that held one says so.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { WITHHELD } from '../../src/core/requests/assertions';
import type { RunningSandbox } from '../../src/sandbox/server';
import { echoHost, type EchoHost } from '../echoHost';
import { assertNoSecretIn } from '../secretEncodings';
import { canaries, extensionApi, openRequestFile, pointAt, signInToBoth, startTestSandbox, tearDown, waitFor } from './helpers';

const FILE = [
  '@v = {{hb.response.headers.x-echo-auth}}',
  '@w = {{%v}}',
  '',
  '### A: the host reflects the bearer token and the Basic sign-in',
  '# @name ha',
  '# @interface a',
  'GET {{baseUrl}}/echo/a',
  '?? body $.echo.authorization == x',
  '?? header x-echo-auth == x',
  '?? body $.echo.signIn.basic == x',
  '',
  '### B: the raw token and the password',
  '# @name hb',
  '# @interface b',
  'GET {{legacyUrl}}/echo/b',
  '?? header x-echo-auth == x',
  '?? header x-echo-pwd == x',
  '?? body $.echo.signIn.password == x',
  '',
  '### The echoed token, percent-encoded twice',
  '# @interface b',
  'GET {{legacyUrl}}/echo/c?SubjectName={{%w}}',
  '?? body $.echo.url == x',
].join('\n');

describe('the Test Explorer with a host that echoes secrets (issue 25)', function () {
  this.timeout(90_000);
  const c = canaries();
  let sb: RunningSandbox | undefined;
  let host: EchoHost | undefined;

  before(async () => {
    sb = await startTestSandbox(c);
    host = await echoHost(sb.url);
    await pointAt(host.url);
    await signInToBoth(c);
  });

  after(async () => {
    await tearDown(sb);
    await host?.close();
  });

  it('withholds each echoed secret from the messages, the output and the answer it opens', async () => {
    const tests = (await extensionApi()).testing.tests;
    const file = await openRequestFile(FILE);
    try {
      const fileId = file.document.uri.toString();
      const requests = await waitFor(() => tests.items().filter((i) => i.parent === fileId), (r) => r.length === 3, 'the requests of the open file');
      const run = await tests.run([fileId]);
      await run.done;
      const events = run.events;
      const failed = events.filter((e) => e.state === 'failed');
      // The first two requests and their assertions failed on an echoed value: the file ran as the attacker meant.
      assert.equal(failed.length, 2 + 6, JSON.stringify(events));
      // The third would send what they echoed (a chained value that holds a token): refused at its line, never sent.
      const chained = events.filter((e) => e.id === requests[2].id && e.state === 'errored').at(-1);
      assert.match((chained?.messages?.[0]?.text ?? '').replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1'), /holds a secret of this run/, JSON.stringify(events));
      const headerActuals = failed.flatMap((e) => e.messages ?? []).filter((m) => m.expected === 'x').map((m) => m.actual);
      assert.ok(headerActuals.filter((a) => a === WITHHELD).length >= 3, JSON.stringify(headerActuals));
      const answers: string[] = [];
      for (const r of requests.slice(0, 2)) {
        const uri = await vscode.commands.executeCommand<string>('bizdata.openTestAnswer', { testId: r.id });
        answers.push((await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText());
      }
      assert.ok(answers.every((a) => a.includes('"echo"')), 'each answer holds the reflection');
      const secrets = [
        { name: 'consumer key', value: c.key },
        { name: 'consumer secret', value: c.secret },
        { name: 'user', value: c.user },
        { name: 'password', value: c.password },
        { name: 'Basic', value: Buffer.from(`${c.key}:${c.secret}`).toString('base64') },
        ...(host as EchoHost).tokens().map((value, i) => ({ name: `token ${i + 1}`, value })),
      ];
      assert.ok(secrets.length >= 6, 'the echo host saw both tokens');
      assertNoSecretIn(
        [
          { name: "the run's events (messages, expected, actual, output)", text: JSON.stringify(events) },
          ...answers.map((text, i) => ({ name: `the answer of request ${i + 1}`, text })),
        ],
        secrets,
      );
    } finally {
      await file.dispose();
    }
  });
});
