// Quick fixes on results this extension produced, against a sandbox in this test's own process whose
// tokens live one second and whose data calls can be delayed: so a token expires in flight (00040).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningSandbox } from '../../src/sandbox/server';
import { activateExtension, admin, closeAllEditors, ourDiagnostics, pointAt, signOutEverywhere, startSandboxWith, tokenRequests, waitFor } from './helpers';

const KEY = 'quickfix-key';
const SECRET = 'quickfix-secret-value';
const SLOW_KEY = 'quickfix-slow-key';
const USER = 'quickfix-user';
const PASSWORD = 'quickfix-password';

async function quickFixes(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    uri,
    diagnostic.range,
    vscode.CodeActionKind.QuickFix.value,
  );
  return actions.filter((a): a is vscode.CodeAction => 'kind' in a && a.command?.command === 'bizdata.rerunLookup');
}

async function openedDiagnostic(resultUri: string, code: string): Promise<{ uri: vscode.Uri; diagnostic: vscode.Diagnostic }> {
  const uri = vscode.Uri.parse(resultUri);
  assert.equal(uri.scheme, 'bizdata-result');
  const [diagnostic] = await waitFor(() => ourDiagnostics(uri).filter((d) => d.code === code), (ds) => ds.length === 1, `${code} on the result`);
  return { uri, diagnostic };
}

/** Another client of the slow customer: its own token, one data call that holds the slot 25 s. */
async function holdTheOnlySlot(url: string): Promise<string> {
  const headers = { origin: 'https://localhost', 'content-type': 'application/json' };
  const basic = Buffer.from(`${SLOW_KEY}:${SECRET}`).toString('base64');
  const token = await fetch(`${url}/v1/token`, { method: 'POST', headers: { ...headers, authorization: `Basic ${basic}` }, body: JSON.stringify({ grant_type: 'client_credentials' }) });
  const { access_token: bearer } = (await token.json()) as { access_token: string };
  const res = await fetch(`${url}/v1/duns-search/ip/203.0.113.1?view=standard`, { headers: { ...headers, authorization: `Bearer ${bearer}` } });
  return res.text();
}

describe('quick fixes on lookup results', function () {
  this.timeout(90_000);
  let sb: RunningSandbox;

  before(async () => {
    await activateExtension();
    sb = await startSandboxWith({
      tokenLifetimeSeconds: 1,
      customers: [
        { id: 'qf-a', clients: [{ consumerKey: KEY, consumerSecret: SECRET }] },
        { id: 'qf-b', contractLimit: 1, users: [{ user: USER, password: PASSWORD }] },
      ],
    });
    await pointAt(sb.url);
  });

  after(async () => {
    await closeAllEditors();
    await signOutEverywhere();
    await pointAt(undefined);
    await sb?.close();
  });

  it('on 00040, "Get a new token and re-run" gets a new token and the re-run succeeds', async () => {
    await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: KEY, consumerSecret: SECRET });
    // Each of the next two data calls waits 1.5 s before the service checks the token, which by then has
    // expired: the call fails, the client gets a new token once, and that one expires in flight too.
    await admin(sb, 'faults', { type: 'latency', path: '/v1/duns-search', latencyMs: 1500, count: 2 });
    const failed = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '198.51.100.7' });
    assert.ok(failed, 'the lookup opened a result');
    const { uri, diagnostic } = await openedDiagnostic(failed, '00040');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Warning);

    const [fix, ...more] = await quickFixes(uri, diagnostic);
    assert.equal(more.length, 0);
    assert.equal(fix.title, 'Get a new token and re-run');
    assert.deepEqual(fix.command?.arguments, [{ resultUri: uri.toString(), forceNewToken: true }]);

    const before = await tokenRequests(sb);
    const rerun = await vscode.commands.executeCommand<string>(fix.command!.command, ...(fix.command!.arguments ?? []));
    assert.ok(rerun, 'the re-run opened a result');
    assert.notEqual(rerun, failed);
    assert.ok((await tokenRequests(sb)) > before, 'a new token was requested');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(rerun));
    assert.doesNotMatch(doc.getText(), /"errorCode"/);
    await waitFor(() => ourDiagnostics(doc.uri).length, (n) => n === 0, 'no code on the new result');
  });

  it('on SC006, offers "Re-run after a pause", which re-runs with the same token', async function () {
    this.timeout(120_000);
    // One call at a time, each taking 25 s, and another client of the customer holds that one slot:
    // the extension's call is refused with SC006 until its bounded retries give up, and the result
    // shows SC006. (Were the slow call the extension's own, its adaptive limiter would now wait for
    // the slot instead of sending a call the service refuses.)
    const busy = await startSandboxWith({
      customers: [{ id: 'qf-c', concurrency: 1, responseDelayMs: 25_000, clients: [{ consumerKey: SLOW_KEY, consumerSecret: SECRET }] }],
    });
    let slow: Promise<unknown> | undefined;
    try {
      await pointAt(busy.url);
      await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: SLOW_KEY, consumerSecret: SECRET });
      slow = holdTheOnlySlot(busy.url);
      await new Promise((r) => setTimeout(r, 1000));
      const refused = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.2' });
      assert.ok(refused, 'the refused lookup opened a result');
      const { uri, diagnostic } = await openedDiagnostic(refused, 'SC006');
      const [fix, ...more] = await quickFixes(uri, diagnostic);
      assert.equal(more.length, 0);
      assert.equal(fix.title, 'Re-run after a pause');
      assert.deepEqual(fix.command?.arguments, [{ resultUri: uri.toString(), pauseMs: 2000 }]);

      // Once the slow call has freed the slot, the fix's own command pauses, then re-runs with the same token.
      await slow;
      const tokensBefore = await tokenRequests(busy);
      const command = fix.command;
      assert.ok(command);
      const rerun = await vscode.commands.executeCommand<string>(command.command, ...(command.arguments ?? []));
      assert.ok(rerun, 'the re-run opened a result');
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(rerun));
      assert.doesNotMatch(doc.getText(), /SC006/);
      assert.match(doc.getText(), /"ipAddress": "203\.0\.113\.2"/);
      assert.equal(await tokenRequests(busy), tokensBefore, 'the same token was used');
    } finally {
      await busy.close();
      await Promise.resolve(slow).catch(() => undefined);
      await pointAt(sb.url);
    }
  });

  it('offers no re-run where only support can help (SC005)', async () => {
    await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'b', user: USER, password: PASSWORD });
    const query = { country: 'GB', name: 'Example Trading' };
    assert.ok(await vscode.commands.executeCommand<string>('bizdata.lookUpOrganization', query), 'first lookup within the contract');
    const over = await vscode.commands.executeCommand<string>('bizdata.lookUpOrganization', query);
    assert.ok(over, 'the refused lookup opened a result');
    const { uri, diagnostic } = await openedDiagnostic(over, 'SC005');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual(await quickFixes(uri, diagnostic), []);
  });
});
