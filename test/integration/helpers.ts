// Shared by this suite's tests: the extension's API, an in-process sandbox, and pointing the
// extension at it through ordinary settings.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';

export const EXTENSION_ID = 'bizdata.bizdata-explorer';

export async function extensionApi(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext.activate();
}

/** Unique values that must never show up outside SecretStorage. */
export function canaries(): { key: string; secret: string; user: string; password: string } {
  const n = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return { key: `canary-key-${n}`, secret: `canary-secret-${n}`, user: `canary-user-${n}`, password: `canary-password-${n}` };
}

export async function startTestSandbox(
  c: { key: string; secret: string; user: string; password: string },
  extra: { tokenLifetimeSeconds?: number } = {},
): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    config: {
      ...extra,
      customers: [
        {
          id: 'test',
          qps: 50,
          concurrency: 8,
          clients: [{ consumerKey: c.key, consumerSecret: c.secret }],
          users: [{ user: c.user, password: c.password }],
        },
      ],
    },
  });
}

const ENDPOINT_KEYS = ['authUrl', 'baseUrl', 'legacyUrl'] as const;

/** Points the extension's endpoints at `url` (undefined: back to defaults). */
export async function pointAt(url: string | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration('bizdata.endpoints');
  for (const k of ENDPOINT_KEYS) await config.update(k, url, vscode.ConfigurationTarget.Global);
  // The client is rebuilt on the configuration event; give it a moment to arrive.
  await sleep(200);
}

export async function admin(sb: RunningSandbox, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sb.url}/_sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-sandbox-admin': sb.adminKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `read` until `accept` holds, or fails with the last value seen. */
export async function waitFor<T>(read: () => Promise<T> | T, accept: (v: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await sleep(100);
    last = await read();
  }
  return last;
}

/** Files below `dir` (skipping very large ones and dependency folders) whose text contains any needle. */
export function filesContaining(dir: string, needles: readonly string[]): string[] {
  const hits: string[] = [];
  const walk = (d: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(d);
    } catch {
      return;
    }
    for (const name of entries) {
      if (name === 'node_modules' || name === 'extensions' || name === 'CachedExtensionVSIXs') continue;
      const p = join(d, name);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && st.size < 20 * 1024 * 1024) {
        const text = readFileSync(p).toString('latin1');
        if (needles.some((n) => text.includes(n))) hits.push(p);
      }
    }
  };
  walk(dir);
  return hits;
}

/** The VS Code data folder of this test run (the harness's bizdata-vscode-* temp folder), from a path inside it. */
export function dataRootOf(path: string): string {
  const parts = path.split('/');
  const i = parts.findIndex((p) => p.startsWith('bizdata-vscode-'));
  return i >= 0 ? parts.slice(0, i + 1).join('/') : path;
}

/** Leaves the window as a test found it: both interfaces signed out, editors closed, endpoints reset, sandbox stopped. */
export async function tearDown(sb: RunningSandbox | undefined): Promise<void> {
  await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'a' });
  await vscode.commands.executeCommand('bizdata.signOut', { interfaceId: 'b' });
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await pointAt(undefined);
  await sb?.close();
}
