// The status bar follows the token through its life: valid with hours and minutes left, renewed
// after the service's clock passes 24 hours, expired, and signed out.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningSandbox } from '../../src/sandbox/server';
import { admin, canaries, extensionApi, pointAt, sleep, startTestSandbox, stats, waitFor } from './helpers';

describe('status bar through the token life', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandboxes: RunningSandbox[] = [];

  afterEach(async () => {
    await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'a' });
    await pointAt(undefined);
    for (const sb of sandboxes.splice(0)) await sb.close();
  });

  /** A sandbox of this test's own, the endpoints pointed at it, signed in to Interface A. */
  async function signedInSandbox(extra: { tokenLifetimeSeconds?: number } = {}): Promise<RunningSandbox> {
    const sb = await startTestSandbox(c, extra);
    sandboxes.push(sb);
    await pointAt(sb.url);
    await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret });
    return sb;
  }

  it('counts calls made in the tooltip by itself, without any user action', async () => {
    const api = await extensionApi();
    await signedInSandbox();
    await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.7' });
    await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.8' });
    // No forced render here: the client's coalesced status event must bring the item up to date.
    const shown = await waitFor(async () => api.testing.statusBarAsShown(), (b) => /Calls made \| 2 /.test(b.tooltip), 'tooltip counting 2 calls');
    assert.match(shown.text, /valid/);
  });

  it('shows "valid 23h 59m", and a new token once the service clock passes 24 hours', async () => {
    const api = await extensionApi();
    const sb = await signedInSandbox();
    const first = await waitFor(() => api.testing.statusBar(), (b) => b.text.includes('valid'), 'valid token');
    assert.match(first.text, /valid (23h 59m|24h 0m)/);
    assert.match(first.tooltip, /Issued/);
    assert.match(first.tooltip, /Expires/);

    // 24 hours pass on the service: the token is expired there (00040); the next lookup renews it once.
    await admin(sb, 'clock', { advanceSeconds: 86_400 });
    const uri = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.7' });
    assert.ok(uri, 'the lookup succeeded after the automatic renewal');
    const test = (await stats(sb)).customers.test;
    assert.equal(test.tokenRequests, 2, 'exactly one renewal');
    assert.equal(test.resultCodes['00040'], 1, 'the service reported the expiry once');
    const bar = await api.testing.statusBar();
    assert.match(bar.text, /valid (23h 59m|24h 0m)/);
    // Both attempts count: the one refused with 00040 and the repeat with the new token.
    assert.match(bar.tooltip, /Calls made \| 2 /);
  });

  it('shows "expired" when the token outlives its lifetime, and "signed out" after Sign Out', async () => {
    const api = await extensionApi();
    await signedInSandbox({ tokenLifetimeSeconds: 2 });
    const valid = await api.testing.statusBar();
    assert.match(valid.text, /valid 0m|expired/);
    await sleep(2500);
    const expired = await waitFor(() => api.testing.statusBar(), (b) => b.text.includes('expired'), 'expired token');
    assert.match(expired.text, /Business Data A: expired/);
    await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'a' });
    const out = await waitFor(() => api.testing.statusBar(), (b) => b.text.includes('signed out'), 'signed out');
    assert.match(out.text, /Business Data: signed out/);
  });
});
