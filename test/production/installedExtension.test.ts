// The packaged extension as users run it: the .vsix installed into the VS Code server, so VS Code
// runs it in ExtensionMode.Production. These tests belong to a probe extension of their own
// (scripts/run-vscode-tests.mjs production), which reaches the installed one only through VS Code's
// API, as any other extension of the user's could. The harness answers the one prompt: when the
// probe logs ASK_MARKER, it waits for a masked input box in the workbench and presses Escape.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';

const EXTENSION_ID = 'bizdata.bizdata-explorer';
/** The harness watches the host's console for this line (scripts/run-vscode-tests.mjs). */
const ASK_MARKER = '[probe] expecting a masked input box';
const KEY = 'probe-consumer-key';
const SECRET = 'probe-consumer-secret';
const ENDPOINTS = ['authUrl', 'baseUrl', 'legacyUrl'] as const;

interface Stats {
  readonly requests: number;
  readonly customers: Readonly<Record<string, { readonly tokenRequests: number }>>;
}

async function stats(sb: RunningSandbox): Promise<Stats> {
  const res = await fetch(`${sb.url}/_sandbox/stats`, { headers: { 'x-sandbox-admin': sb.adminKey } });
  assert.equal(res.status, 200);
  return (await res.json()) as Stats;
}

async function pointAt(url: string | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration('bizdata.endpoints');
  for (const k of ENDPOINTS) await config.update(k, url, vscode.ConfigurationTarget.Global);
}

function within<T>(promise: Thenable<T>, ms: number, what: string): Promise<T> {
  return Promise.race([Promise.resolve(promise), new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms))]);
}

describe('the installed .vsix (ExtensionMode.Production)', function () {
  this.timeout(90_000);
  let sb: RunningSandbox;

  before(async () => {
    sb = await startSandbox({ port: 0, config: { customers: [{ id: 'probe', clients: [{ consumerKey: KEY, consumerSecret: SECRET }] }] } });
    await pointAt(sb.url);
  });

  after(async () => {
    await pointAt(undefined);
    await sb?.close();
  });

  it('is the packaged production bundle, installed like any extension', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    assert.match(ext.extensionPath, /bizdata\.bizdata-explorer-\d+\.\d+\.\d+$/, ext.extensionPath);
    assert.ok(existsSync(join(ext.extensionPath, 'dist', 'extension.js')));
    assert.ok(!existsSync(join(ext.extensionPath, 'dist', 'extension.js.map')), 'a source map shipped: not the production bundle');
  });

  it('exports nothing from activate(): no testing API, no state, no secrets', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    const api: unknown = await ext.activate();
    assert.equal(ext.isActive, true);
    assert.equal(api, undefined);
    assert.equal(ext.exports, undefined);
  });

  it('ignores credentials passed to bizdata.signIn: it asks with a masked box, and nothing is sent', async () => {
    const before = await stats(sb);
    const signIn = vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: KEY, consumerSecret: SECRET });
    console.log(ASK_MARKER);
    // The harness presses Escape in the masked box; the sign-in is then cancelled.
    assert.equal(await within(signIn, 60_000, 'bizdata.signIn'), undefined);
    const after = await stats(sb);
    assert.equal(after.customers.probe.tokenRequests, 0, 'a token request was made with the credentials from the arguments');
    assert.equal(after.requests, before.requests, 'the service was called');
  });

  it('still works for users: the local sandbox starts and serves a lookup', async () => {
    const url = await vscode.commands.executeCommand<string>('bizdata.startSandbox');
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    try {
      const result = await vscode.commands.executeCommand<string>('bizdata.lookUpIp', { ip: '203.0.113.7' });
      assert.match(result, /^bizdata-result:/);
      assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /203\.0\.113\.7/);
    } finally {
      assert.equal(await vscode.commands.executeCommand('bizdata.stopSandbox'), true);
    }
  });
});
