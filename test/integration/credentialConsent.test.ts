// Credentials stay with the connection and the address they were entered for (issue 25, finding 9),
// in the real extension host against a real sandbox and a recording listener of the test's own: after
// a connection's address changes, the first call asks (naming the old and the new host) before the
// credentials go there, and declining sends nothing; deleting a connection deletes its credentials
// and tokens, so a later one of the same name starts signed out; a Send or a Test Explorer run that
// reaches a production connection (by "# @connection" or the active one) asks once per run.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningSandbox } from '../../src/sandbox/server';
import { startListener, type Listener } from '../unit/core/listeners';
import { answerModalWarnings, canaries, closeAllEditors, extensionApi, openRequestFile, runCodeLens, sleep, startSandboxWith, stats, waitFor, withWorkspaceSettings, type Canaries } from './helpers';

const CONNECTIONS = 'bizdata.connections';
const SEND_TO_NEW_ADDRESS = 'Send Them to the New Address';
const RUN_ON_PRODUCTION = 'Run on Production';
const IP = 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.7?view=standard';

async function setConnections(value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(CONNECTIONS, value, vscode.ConfigurationTarget.Global);
  await sleep(300);
}

const at = (url: string, production = false) => ({ authUrl: url, baseUrl: url, legacyUrl: url, origin: 'https://app.example.com', ...(production ? { production: true } : {}) });

async function signInA(connection: string, c: Canaries): Promise<void> {
  assert.equal(await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', connection, consumerKey: c.key, consumerSecret: c.secret }), 'valid');
}

describe('credentials stay with their connection and address', function () {
  this.timeout(90_000);
  const c = canaries();
  const modal = answerModalWarnings();
  let sb: RunningSandbox;
  let relay: Listener;

  before(async () => {
    sb = await startSandboxWith({ customers: [{ id: 'test', qps: 50, concurrency: 8, clients: [{ consumerKey: c.key, consumerSecret: c.secret }], users: [{ user: c.user, password: c.password }] }] });
    relay = await startListener('127.0.0.1', 0, sb.url);
  });

  after(async () => {
    for (const connection of ['moving', 'gone', 'prod']) await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'a', connection }).then(undefined, () => undefined);
    await setConnections(undefined);
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'default' }).then(undefined, () => undefined);
    await closeAllEditors();
    await relay?.close();
    await sb?.close();
  });

  beforeEach(() => {
    modal.asked.length = 0;
    modal.answer = undefined;
    relay.received.length = 0;
  });

  it('asks before sending credentials to a changed sign-in address, and sends nothing when declined', async () => {
    await setConnections({ connections: { moving: at(sb.url) } });
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'moving' });
    await signInA('moving', c);
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.7' }), 'a lookup at the address the credentials were entered for');
    assert.equal(modal.asked.length, 0, 'no question for the same address');

    await setConnections({ connections: { moving: at(relay.url) } });
    assert.equal(await vscode.commands.executeCommand('bizdata.lookUpIp', { ip: '203.0.113.8' }), undefined, 'declined: nothing opened');
    assert.equal(modal.asked.length, 1);
    assert.match(modal.asked[0].message, new RegExp(`connection "moving" were entered for ${sb.url.replace(/\./g, '\\.')}, but its sign-in address is now ${relay.url.replace(/\./g, '\\.')}\\. Send them to`));
    await sleep(200);
    assert.equal(relay.received.length, 0, 'declined: not even a sign-in reached the new address');

    modal.answer = SEND_TO_NEW_ADDRESS;
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.9' }), 'confirmed: the lookup ran at the new address');
    assert.equal(modal.asked.length, 2);
    assert.deepEqual(relay.received.map((r) => r.path.split('?')[0].replace(/\/[^/]*$/, '')), ['/v1', '/v1/duns-search/ip'], 'a sign-in, then the lookup');
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.10' }));
    assert.equal(modal.asked.length, 2, 'asked once: the credentials now belong to the new address');
  });

  it('deleting a connection deletes its credentials and tokens: a new one of the same name starts signed out', async () => {
    const api = await extensionApi();
    await setConnections({ connections: { gone: at(sb.url), moving: at(sb.url) } });
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'gone' });
    await signInA('gone', c);
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.11' }));
    const tokenKey = `bizdata.token.v2|a|${new URL(sb.url).origin}|${c.key}`;
    assert.ok(await api.testing.secrets.get('bizdata.credentials/gone/a'), 'the credentials are stored');
    assert.ok(await api.testing.secrets.get(tokenKey), 'the token is stored under its exact origin');

    await setConnections({ connections: { moving: at(sb.url) } });
    await waitFor(async () => await api.testing.secrets.get('bizdata.credentials/gone/a'), (v) => v === undefined, 'the credentials deleted');
    await waitFor(async () => await api.testing.secrets.get(tokenKey), (v) => v === undefined, 'the token deleted');

    const tokensBefore = (await stats(sb)).customers.test.tokenRequests;
    await setConnections({ connections: { gone: at(sb.url), moving: at(sb.url) } });
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'gone' });
    const bar = await waitFor(() => api.testing.statusBar(), (b) => b.text.includes('gone'), 'the new "gone" in the status bar');
    assert.doesNotMatch(bar.text, /valid/, 'the new connection inherited a token');
    assert.equal(await api.testing.secrets.get('bizdata.credentials/gone/a'), undefined, 'the new connection inherited credentials');
    assert.equal((await stats(sb)).customers.test.tokenRequests, tokensBefore);
  });

  it('a production connection reached by "# @connection" asks once per Send and once per Test Explorer run; declined, nothing is sent', async () => {
    const api = await extensionApi();
    await setConnections({ connections: { moving: at(sb.url), prod: at(sb.url, true) } });
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'moving' });
    await signInA('prod', c);
    const file = await openRequestFile(['# @connection prod', '### one', IP, '?? status == 200', '', '### two', IP, '?? status == 200', ''].join('\n'));
    try {
      const calls = async (): Promise<number> => (await stats(sb)).customers.test.dataCalls ?? 0;
      const before = await calls();
      assert.equal(await runCodeLens(file.document, 2, 'Send'), undefined, 'declined: nothing opened');
      assert.equal(modal.asked.length, 1);
      assert.match(modal.asked[0].message, /Send the request at .*\.bizdata\.http:3 on "prod" \(http:\/\/127\.0\.0\.1:\d+\), a production account\?/);
      assert.equal(await calls(), before, 'declined Send: nothing sent');
      modal.answer = RUN_ON_PRODUCTION;
      assert.ok(await runCodeLens<string>(file.document, 2, 'Send'));
      assert.equal(modal.asked.length, 2);
      assert.equal(await calls(), before + 1);

      const tests = api.testing.tests;
      const fileId = file.document.uri.toString();
      await tests.discover();
      await waitFor(() => tests.items().filter((i) => i.parent === fileId), (c) => c.length === 2, 'the two requests of the file');
      modal.answer = undefined;
      const declined = await tests.run([fileId]);
      assert.equal(modal.asked.length, 3, 'one question for the run');
      assert.ok(declined.events.filter((e) => e.state === 'skipped').length >= 2, JSON.stringify(declined.events));
      assert.equal(await calls(), before + 1, 'declined run: nothing sent');
      modal.answer = RUN_ON_PRODUCTION;
      const confirmed = await tests.run([fileId]);
      assert.equal(modal.asked.length, 4, 'one question for the run, not one per request');
      assert.match(modal.asked[3].message, /^Run these tests on "prod"/);
      assert.ok(confirmed.events.filter((e) => e.state === 'passed').length >= 2, JSON.stringify(confirmed.events));
      assert.equal(await calls(), before + 3);
    } finally {
      await closeAllEditors();
      await file.dispose();
    }
  });

  it("a trusted workspace's bizdata.preferredConnection naming a production connection asks before Send too", async () => {
    const api = await extensionApi();
    // Without "moving" (the choice of earlier tests), the workspace's preference decides the active connection.
    await setConnections({ connections: { other: at(sb.url), prod: at(sb.url, true) } });
    await signInA('prod', c);
    const file = await openRequestFile(['### plain', IP, ''].join('\n'));
    try {
      await withWorkspaceSettings({ 'bizdata.preferredConnection': 'prod' }, async () => {
        await waitFor(() => api.testing.connections().active, (a) => a === 'prod', 'prod active by the workspace preference');
        const before = (await stats(sb)).customers.test.dataCalls ?? 0;
        assert.equal(await runCodeLens(file.document, 1, 'Send'), undefined, 'declined: nothing opened');
        assert.equal(modal.asked.length, 1);
        assert.match(modal.asked[0].message, /on "prod" .*a production account\?/);
        assert.equal((await stats(sb)).customers.test.dataCalls ?? 0, before, 'declined: nothing sent');
      });
    } finally {
      await closeAllEditors();
      await file.dispose();
    }
  });
});
