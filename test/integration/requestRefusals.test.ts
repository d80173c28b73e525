// What a request file from someone else can no longer do in the Test Explorer (issue 25): pass a test
// on a failed sign-in, name the host its token reaches, or break a run whose requests are all disabled.
// Against the real sandbox over loopback, with its faults API.
import * as assert from 'node:assert/strict';
import type { TestRunView } from '../../src/features/testingApi';
import { admin, extensionApi, openRequestFile, useSignedInTestSandbox, waitFor } from './helpers';

const IP = 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard';

type Tests = Awaited<ReturnType<typeof extensionApi>>['testing']['tests'];

/** Every message of a run, as the peek view shows it (spaces and escapes as text). */
function messages(run: TestRunView): string {
  return run.events.flatMap((e) => e.messages ?? []).map((m) => m.text.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1')).join('\n');
}

function outcome(run: TestRunView, id: string): TestRunView['events'][number] | undefined {
  return run.events.filter((e) => e.id === id && e.state !== 'output' && e.state !== 'enqueued').at(-1);
}

describe('request files that try to steer the token, in the Test Explorer', function () {
  this.timeout(90_000);
  const { sandbox } = useSignedInTestSandbox();
  let tests: Tests;

  before(async () => {
    tests = (await extensionApi()).testing.tests;
  });

  async function runFile(lines: readonly string[], count: number): Promise<{ run: TestRunView; items: ReturnType<Tests['items']> }> {
    const file = await openRequestFile(lines.join('\n'));
    try {
      const fileId = file.document.uri.toString();
      const items = await waitFor(() => tests.items().filter((i) => i.parent === fileId), (c) => c.length === count, 'the requests of the open file');
      const run = await tests.run([fileId]);
      await run.done;
      return { run, items };
    } finally {
      await file.dispose();
    }
  }

  it('errs, never passes, when the sign-in answers 307: "?? status == 307" is not judged against the sign-in', async () => {
    const sb = sandbox();
    await admin(sb, 'faults', { type: 'respond', path: '/v1/token', status: 307, headers: { location: 'https://elsewhere.example.net/v1/token' }, body: '' });
    // The kept token is refused once, so the client signs in again, and meets the 307.
    await admin(sb, 'tokens/invalidate', { customer: 'test' });
    try {
      const { run, items } = await runFile([IP, '?? status == 307'], 1);
      const events = JSON.stringify(run.events);
      assert.equal(outcome(run, items[0].id)?.state, 'errored', events);
      const check = tests.items().find((i) => i.parent === items[0].id);
      if (check) assert.notEqual(outcome(run, check.id)?.state, 'passed', events);
      assert.match(messages(run), /The sign-in failed, so the request was not sent/);
    } finally {
      await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE', headers: { 'x-sandbox-admin': sb.adminKey } });
    }
  });

  it('refuses a Host header at its line, sending nothing', async () => {
    const before = ((await admin(sandbox(), 'stats')) as { requests: number }).requests;
    const { run, items } = await runFile([IP, 'Host: attacker.example.net', '?? status == 200'], 1);
    const events = JSON.stringify(run.events);
    assert.equal(outcome(run, items[0].id)?.state, 'errored', events);
    assert.match(messages(run), /:2: The Host header tells a server which host, address or path the request is for/);
    assert.equal(((await admin(sandbox(), 'stats')) as { requests: number }).requests, before, 'nothing reached the sandbox');
  });

  it('refuses a ";" or an encoded "/" in a path at its line, sending nothing', async () => {
    const before = ((await admin(sandbox(), 'stats')) as { requests: number }).requests;
    const { run, items } = await runFile(['GET {{baseUrl}}/{{aVersion}}/token;x', '?? status == 200', '###', 'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/..%252F..%252Ftoken', '?? status == 200'], 2);
    const events = JSON.stringify(run.events);
    // A refused file's first test errs with every refusal of the file; its other tests are skipped.
    const [first, ...rest] = items;
    assert.equal(outcome(run, first.id)?.state, 'errored', events);
    for (const item of rest) assert.equal(outcome(run, item.id)?.state, 'skipped', events);
    assert.match(messages(run), /:1: The path segment "token;x" holds a ";"/);
    assert.match(messages(run), /:4: The path segment "\.\.%252F\.\.%252Ftoken" holds an encoded "\/"/);
    assert.equal(((await admin(sandbox(), 'stats')) as { requests: number }).requests, before, 'nothing reached the sandbox');
  });

  it('runs a file whose requests are all # @disabled to its end, each skipped, nothing sent', async () => {
    const before = ((await admin(sandbox(), 'stats')) as { requests: number }).requests;
    const { run, items } = await runFile(['# @disabled', IP, '?? status == 200', '###', '# @disabled', IP], 2);
    const events = JSON.stringify(run.events);
    for (const item of items) assert.equal(outcome(run, item.id)?.state, 'skipped', events);
    assert.equal(run.ended, true);
    assert.equal(((await admin(sandbox(), 'stats')) as { requests: number }).requests, before, 'nothing reached the sandbox');
  });
});
