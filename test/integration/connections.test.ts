// Named connections in the real extension host: two sandboxes on two ports, configured as the
// connections "alpha" (a test account) and "beta" (production), with different customers and canary
// credentials. Switching moves the status bar, the views and the next lookup; each connection's
// credentials and token reach only its own sandbox; a re-run goes to the entry's connection; the old
// single-connection settings and credentials become `default`; a workspace cannot add a host.
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunningSandbox } from '../../src/sandbox/server';
import { answerErrorMessages, answerModalWarnings, canaries, closeAllEditors, dataRootOf, extensionApi, filesContaining, openRequestFile, ourDiagnostics, pointAt, runCodeLens, sleep, startSandboxWith, stats, waitFor, withWorkspaceSettings, type Canaries, type CustomerStats } from './helpers';

const CONNECTIONS = 'bizdata.connections';

async function customerSandbox(id: string, c: Canaries): Promise<RunningSandbox> {
  return startSandboxWith({ customers: [{ id, qps: 50, concurrency: 8, clients: [{ consumerKey: c.key, consumerSecret: c.secret }], users: [{ user: c.user, password: c.password }] }] });
}

function addresses(sb: RunningSandbox): Record<string, string> {
  return { authUrl: sb.url, baseUrl: sb.url, legacyUrl: sb.url };
}

async function setConnections(value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(CONNECTIONS, value, vscode.ConfigurationTarget.Global);
  await sleep(200);
}

/** What a sandbox's one customer has seen, and every request it received. */
async function seen(sb: RunningSandbox, customer: string): Promise<CustomerStats & { readonly requests: number }> {
  const s = await stats(sb);
  const own: CustomerStats = s.customers[customer] ?? { tokenRequests: 0, resultCodes: {} };
  return { ...own, requests: s.requests };
}

async function signInA(connection: string, c: Canaries): Promise<void> {
  const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', connection, consumerKey: c.key, consumerSecret: c.secret });
  assert.equal(state, 'valid', `sign-in to ${connection}`);
}

describe('named connections', function () {
  this.timeout(90_000);
  const ca = canaries();
  const cb = canaries();
  const modal = answerModalWarnings();
  let alpha: RunningSandbox;
  let beta: RunningSandbox;

  before(async () => {
    alpha = await customerSandbox('alpha', ca);
    beta = await customerSandbox('beta', cb);
    await setConnections({ connections: { alpha: addresses(alpha), beta: { ...addresses(beta), production: true } } });
  });

  after(async () => {
    for (const [connection, interfaceId] of [['alpha', 'a'], ['beta', 'a']]) {
      await vscode.commands.executeCommand('bizdata.signOut', { interfaceId, connection }).then(undefined, () => undefined);
    }
    await setConnections(undefined);
    await pointAt(undefined);
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'default' });
    await closeAllEditors();
    await alpha?.close();
    await beta?.close();
  });

  it('switching changes the status bar, the views and where the next lookup goes', async () => {
    const api = await extensionApi();
    assert.deepEqual(api.testing.connections().list.map((c) => c.name), ['alpha', 'beta']);
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'alpha' });
    await signInA('alpha', ca);
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'beta' });
    await signInA('beta', cb);

    assert.equal(await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'alpha' }), 'alpha');
    const onAlpha = await waitFor(() => api.testing.statusBar(), (b) => b.text.includes('alpha · Business Data A: valid'), 'alpha in the status bar');
    assert.equal(onAlpha.warning, false, 'a test account is not in the warning colour');
    assert.match(onAlpha.tooltip, /Connection \| alpha/);
    const items = await api.testing.treeItems('connections');
    assert.match(items.find((i) => i.label === 'alpha')?.description ?? '', /^active · http:\/\/127\.0\.0\.1/);
    assert.doesNotMatch(items.find((i) => i.label === 'beta')?.description ?? '', /active/);
    assert.match(items.find((i) => i.label === 'beta')?.description ?? '', /production/);
    assert.deepEqual(items.filter((i) => i.label.startsWith('Interface A')).map((i) => i.contextValue), ['bizdata.connection.signedIn', 'bizdata.connection.signedIn']);

    const [a0, b0] = [await seen(alpha, 'alpha'), await seen(beta, 'beta')];
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.7' }));
    const [a1, b1] = [await seen(alpha, 'alpha'), await seen(beta, 'beta')];
    assert.equal(a1.dataCalls, (a0.dataCalls ?? 0) + 1, 'the lookup went to alpha');
    assert.equal(b1.requests, b0.requests, 'nothing reached beta');

    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'beta' });
    const onBeta = await waitFor(() => api.testing.statusBar(), (b) => b.text.includes('beta · Business Data A: valid'), 'beta in the status bar');
    assert.equal(onBeta.warning, true, 'a production connection is in the warning colour');
    assert.match(onBeta.accessibilityLabel, /production account/);
    assert.match((await api.testing.treeItems('connections')).find((i) => i.label === 'beta')?.description ?? '', /^active · production/);
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.8' }));
    const [a2, b2] = [await seen(alpha, 'alpha'), await seen(beta, 'beta')];
    assert.equal(b2.dataCalls, (b1.dataCalls ?? 0) + 1, 'the lookup went to beta');
    assert.equal(a2.requests, a1.requests, 'nothing reached alpha');
  });

  it("each connection's credentials and token reach only its own sandbox", async () => {
    for (const [sb, customer] of [[alpha, 'alpha'], [beta, 'beta']] as const) {
      const s = await seen(sb, customer);
      assert.equal(s.tokenRequests, 1, `${customer}: one token, from its sign-in`);
      assert.equal(s.authFailures ?? 0, 0, `${customer}: no credentials of the other account arrived`);
      // Every request it received is its own customer's token call or a data call with its token:
      // a token or key of the other account would be refused and counted apart from these.
      assert.equal(s.requests, s.tokenRequests + (s.dataCalls ?? 0), `${customer}: a request that was not its own: ${JSON.stringify(s)}`);
      assert.deepEqual(Object.keys((await stats(sb)).customers), [customer]);
      assert.ok(!Object.keys(s.resultCodes).some((code) => /invalid/.test(code)), JSON.stringify(s.resultCodes));
    }
  });

  it("a re-run from the history goes to the entry's connection after a switch, and the entry names it", async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'alpha' });
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.9' });
    assert.match(vscode.Uri.parse(uri).path, /@alpha\.json$/, 'the result title names the connection');
    const entry = (await api.testing.treeItems('lookups')).find((i) => i.label === '203.0.113.9');
    assert.match(entry?.tooltip ?? '', /Connection \| alpha/);
    assert.match(entry?.description ?? '', /· alpha$/);
    const curl = await vscode.commands.executeCommand<string>('bizdata.copyAsCurl', { resultUri: uri });
    assert.match(curl, /^# Business Data connection: alpha\n/);

    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'beta' });
    const [a0, b0] = [await seen(alpha, 'alpha'), await seen(beta, 'beta')];
    const again = await vscode.commands.executeCommand<string>('bizdata.rerunLookup', { resultUri: uri });
    assert.match(vscode.Uri.parse(again).path, /@alpha\.json$/);
    const [a1, b1] = [await seen(alpha, 'alpha'), await seen(beta, 'beta')];
    assert.equal(a1.dataCalls, (a0.dataCalls ?? 0) + 1, 'the re-run went to alpha');
    assert.equal(b1.requests, b0.requests, 'the re-run did not go to the active connection');
    assert.equal(api.testing.connections().active, 'beta', 'a re-run does not switch');
  });

  it('a batch on a production connection asks once before anything is sent, and runs nothing when declined', async () => {
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'beta' });
    const dir = await mkdtemp(join(tmpdir(), 'bizdata-conn-batch-'));
    const input = join(dir, 'ips.txt');
    await writeFile(input, '203.0.113.21\n203.0.113.22\n203.0.113.23\n');
    try {
      modal.answer = undefined;
      const before = await seen(beta, 'beta');
      assert.equal(await vscode.commands.executeCommand('bizdata.runBatchLookup', { file: input }), undefined);
      assert.equal(modal.asked.length, 1);
      assert.match(modal.asked[0].message, /Run 3 lookups of ips\.txt on "beta", a production account\?/);
      assert.equal((await seen(beta, 'beta')).requests, before.requests, 'declined: nothing sent');

      modal.answer = 'Run on Production';
      assert.ok(await vscode.commands.executeCommand<string>('bizdata.runBatchLookup', { file: input }));
      assert.equal(modal.asked.length, 2, 'asked once for the run');
      assert.equal((await seen(beta, 'beta')).dataCalls, (before.dataCalls ?? 0) + 3);
      const lines = (await readFile(`${input}.results.jsonl`, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { connection?: string; ok: boolean });
      assert.deepEqual(lines.map((l) => [l.connection, l.ok]), [['beta', true], ['beta', true], ['beta', true]], 'each output line names its connection');
      // A test account runs without asking.
      await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'alpha' });
      await writeFile(input, '203.0.113.24\n');
      await rm(`${input}.results.jsonl`, { force: true });
      assert.ok(await vscode.commands.executeCommand<string>('bizdata.runBatchLookup', { file: input }));
      assert.equal(modal.asked.length, 2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the status bar click lists every connection with its hosts and token states, and switches to the one picked', async () => {
    const api = await extensionApi();
    const win = vscode.window as unknown as { showQuickPick: (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>, o?: vscode.QuickPickOptions) => Thenable<vscode.QuickPickItem | undefined> };
    const original = win.showQuickPick;
    let shown: readonly vscode.QuickPickItem[] = [];
    win.showQuickPick = async (items) => {
      shown = await items;
      return shown.find((i) => i.label.endsWith(' beta'));
    };
    try {
      await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'alpha' });
      assert.equal(await vscode.commands.executeCommand('bizdata.switchConnection'), 'beta');
    } finally {
      win.showQuickPick = original;
    }
    const alphaItem = shown.find((i) => i.label.endsWith(' alpha'));
    const betaItem = shown.find((i) => i.label.endsWith(' beta'));
    assert.match(alphaItem?.label ?? '', /check/, 'the active one is marked');
    assert.match(alphaItem?.description ?? '', new RegExp(`active · ${alpha.url.replace(/[.:/]/g, '\\$&')}`));
    assert.match(betaItem?.description ?? '', /production/);
    assert.match(alphaItem?.detail ?? '', /^A: valid \d+h \d+m · B: signed out$/);
    assert.ok(shown.some((i) => /Add Connection/.test(i.label)) && shown.some((i) => /Edit Connections/.test(i.label)));
    assert.equal(api.testing.connections().active, 'beta');
  });

  it('Add Connection checks the name and the addresses before it adds the connection to the user setting', async () => {
    const errors = answerErrorMessages();
    try {
      assert.equal(await vscode.commands.executeCommand('bizdata.addConnection', { name: 'gamma', baseUrl: 'http://attacker.example', legacyUrl: '', origin: 'https://me.example', production: false }), undefined);
      assert.equal(await vscode.commands.executeCommand('bizdata.addConnection', { name: 'alpha', baseUrl: alpha.url, legacyUrl: '', origin: 'https://me.example', production: false }), undefined);
      assert.equal(await vscode.commands.executeCommand('bizdata.addConnection', { name: 'Coordinator', baseUrl: alpha.url, legacyUrl: '', origin: 'https://me.example', production: false }), undefined);
    } finally {
      errors.restore();
    }
    assert.match(errors.shown[0]?.message ?? '', /plain http:\/\/ to attacker\.example/);
    assert.match(errors.shown[1]?.message ?? '', /"alpha" exists already/);
    // The command line would take the Redis coordinator's BIZDATA_COORDINATOR_USER and _PASSWORD as its credentials.
    assert.match(errors.shown[2]?.message ?? '', /connection "Coordinator" would take its credentials from BIZDATA_COORDINATOR_USER .* give the connection another name, such as "Coordinator-api"/);
    assert.equal(await vscode.commands.executeCommand('bizdata.addConnection', { name: 'gamma', baseUrl: alpha.url, legacyUrl: beta.url, origin: 'https://me.example', production: true }), 'gamma');
    const value = vscode.workspace.getConfiguration().inspect<{ connections: Record<string, unknown> }>(CONNECTIONS)?.globalValue;
    assert.deepEqual(value?.connections.gamma, { authUrl: alpha.url, baseUrl: alpha.url, origin: 'https://me.example', legacyUrl: beta.url, production: true });
    assert.ok(value?.connections.alpha && value.connections.beta, 'the others are kept');
    await waitFor(async () => (await extensionApi()).testing.connections().list.map((c) => c.name).join(), (n) => n === 'alpha,beta,gamma', 'gamma listed');
    await setConnections({ connections: { alpha: addresses(alpha), beta: { ...addresses(beta), production: true } } });
  });

  it('a request file goes to the connection its "# @connection" names; a name that is none is refused at its line', async () => {
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'alpha' });
    // beta is a production connection: each Send to it asks first (issue 25).
    modal.answer = 'Run on Production';
    const asked = modal.asked.length;
    const text = ['# @connection beta', '### onBeta', 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.30?view=standard', '', '### onAlpha', '# @connection alpha', 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.31?view=standard', ''].join('\n');
    const file = await openRequestFile(text);
    try {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file.document.uri);
      const sends = lenses.filter((l) => l.command?.title.includes('Send')).map((l) => l.command?.title);
      assert.deepEqual(sends, ['$(play) Send (Interface A) · beta', '$(play) Send (Interface A) · alpha']);
      const [a0, b0] = [await seen(alpha, 'alpha'), await seen(beta, 'beta')];
      const onBeta = await runCodeLens<string>(file.document, 2, 'Send');
      assert.match(vscode.Uri.parse(onBeta).path, /@beta\.json$/);
      const [a1, b1] = [await seen(alpha, 'alpha'), await seen(beta, 'beta')];
      assert.equal(b1.dataCalls, (b0.dataCalls ?? 0) + 1, '{{baseUrl}} and the token are beta\'s');
      assert.equal(a1.requests, a0.requests, 'nothing went to the active connection');
      assert.equal(modal.asked.length, asked + 1, 'the Send to beta asked once');
      await runCodeLens<string>(file.document, 6, 'Send');
      assert.equal((await seen(alpha, 'alpha')).dataCalls, (a1.dataCalls ?? 0) + 1);
    } finally {
      await closeAllEditors();
      await file.dispose();
    }

    const bad = await openRequestFile(['# @connection nowhere', 'GET {{baseUrl}}/v1/duns-search/ip/203.0.113.32?view=standard', ''].join('\n'));
    try {
      const diagnostics = await waitFor(() => ourDiagnostics(bad.document.uri), (d) => d.some((x) => x.code === 'connection'), 'the connection diagnostic');
      const d = diagnostics.find((x) => x.code === 'connection');
      assert.equal(d?.range.start.line, 0);
      assert.match(d?.message ?? '', /"# @connection nowhere" names no connection; use one of alpha, beta, sandbox/);
      const before = [await seen(alpha, 'alpha'), await seen(beta, 'beta')];
      const errors = answerErrorMessages();
      try {
        assert.equal(await vscode.commands.executeCommand('bizdata.sendRequest', { uri: bad.document.uri.toString(), line: 1 }), undefined);
      } finally {
        errors.restore();
      }
      assert.match(errors.shown[0]?.message ?? '', /\.bizdata\.http:1: "# @connection nowhere" names no connection/);
      assert.deepEqual([(await seen(alpha, 'alpha')).requests, (await seen(beta, 'beta')).requests], before.map((x) => x.requests), 'nothing was sent');
    } finally {
      await closeAllEditors();
      await bad.dispose();
    }
  });

  it('signing out of one connection leaves the other signed in', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'beta' });
    assert.equal(await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'a', connection: 'beta' }), true);
    const items = await waitFor(
      () => api.testing.treeItems('connections'),
      (list) => list.some((i) => i.tooltip.startsWith('Connection beta: not signed in')),
      'beta signed out in the view',
    );
    assert.ok(items.some((i) => i.tooltip.startsWith('Connection alpha: signed in')), JSON.stringify(items));
    assert.match((await api.testing.statusBar()).text, /beta · Business Data: signed out/);
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'alpha' });
    const before = await seen(alpha, 'alpha');
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.10' }), 'alpha still looks up');
    assert.equal((await seen(alpha, 'alpha')).tokenRequests, before.tokenRequests, "alpha's token was kept");
  });

  it('refuses to switch to or sign in to a connection that does not exist, naming the ones there are', async () => {
    const errors = answerErrorMessages();
    try {
      assert.equal(await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'gamma' }), undefined);
      assert.equal(await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', connection: 'gamma', consumerKey: ca.key, consumerSecret: ca.secret }), undefined);
    } finally {
      errors.restore();
    }
    assert.equal(errors.shown.length, 2);
    for (const e of errors.shown) assert.match(e.message, /no connection is named "gamma" now\. The connections are: alpha, beta\./);
  });

  it('a workspace setting can neither add a connection nor change a host, and the log says so once', async () => {
    const api = await extensionApi();
    const evil = { connections: { evil: addresses(beta), alpha: addresses(beta) } };
    await withWorkspaceSettings({ [CONNECTIONS]: evil }, async () => {
      const list = api.testing.connections().list;
      assert.deepEqual(list.map((c) => c.name), ['alpha', 'beta']);
      assert.equal(list.find((c) => c.name === 'alpha')?.endpoints.baseUrl, alpha.url, "alpha's host is the user's");
      const errors = answerErrorMessages();
      try {
        assert.equal(await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'evil' }), undefined);
        assert.equal(await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', connection: 'evil', consumerKey: ca.key, consumerSecret: ca.secret }), undefined);
      } finally {
        errors.restore();
      }
      assert.deepEqual(errors.shown.map((e) => /no connection is named "evil"/.test(e.message)), [true, true]);
      const before = await seen(beta, 'beta');
      await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'alpha' });
      assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.11' }));
      assert.equal((await seen(beta, 'beta')).requests, before.requests, 'nothing went to the host the workspace named');
      await vscode.commands.executeCommand('bizdata.showLog');
      const warned = await waitFor(
        async () => filesContaining(dataRootOf(vscode.Uri.parse(api.testing.logUri).fsPath), ['bizdata.connections is set in .vscode/settings.json; it is ignored']).length,
        (n) => n > 0,
        'the warning in the log',
      );
      assert.equal(warned, 1, 'one log file holds the warning');
    });
  });

  it('a setting the core refuses defines no connection, and says why once with Edit Connections', async () => {
    const api = await extensionApi();
    type Warn = (message: string, ...items: string[]) => Thenable<string | undefined>;
    const win = vscode.window as unknown as { showWarningMessage: Warn };
    const original = win.showWarningMessage;
    const warnings: Array<{ message: string; items: string[] }> = [];
    win.showWarningMessage = (message, ...items) => {
      warnings.push({ message, items });
      return Promise.resolve(undefined);
    };
    try {
      await setConnections({ connections: { bad: { baseUrl: 'http://attacker.example', authUrl: 'http://attacker.example' }, alpha: addresses(alpha) } });
      await waitFor(() => warnings.length, (n) => n > 0, 'the warning');
      assert.match(warnings[0].message, /bizdata\.connections connections\.bad\.(authUrl|baseUrl): connection "bad", field "(authUrl|baseUrl)" uses plain http:\/\/ to attacker\.example/);
      assert.deepEqual(warnings[0].items, ['Edit Connections']);
      assert.deepEqual(api.testing.connections().list.map((c) => c.name), ['default'], 'none of the refused setting is used');
    } finally {
      win.showWarningMessage = original;
    }
  });

  it('the old single-connection settings and credentials become the connection "default"', async () => {
    const api = await extensionApi();
    await setConnections(undefined);
    await pointAt(alpha.url);
    // Where versions before named connections kept the credentials of Interface A.
    await api.testing.secrets.store('bizdata.credentials.a', JSON.stringify({ interfaceId: 'a', consumerKey: ca.key, consumerSecret: ca.secret }));
    await api.testing.migrateCredentials();
    assert.equal(await api.testing.secrets.get('bizdata.credentials.a'), undefined, 'the old key is gone');
    const { list } = api.testing.connections();
    assert.deepEqual(list.map((c) => [c.name, c.endpoints.baseUrl]), [['default', alpha.url]]);
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'default' });
    const bar = await waitFor(() => api.testing.statusBar(), (b) => /default · Business Data A: (valid|signed in, no token yet)/.test(b.text), 'default signed in');
    assert.equal(bar.warning, false);
    const before = await seen(alpha, 'alpha');
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.12' }), 'default looks up with the moved credentials');
    assert.equal((await seen(alpha, 'alpha')).dataCalls, (before.dataCalls ?? 0) + 1);
    assert.equal(await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'a', connection: 'default' }), true);
  });
});
