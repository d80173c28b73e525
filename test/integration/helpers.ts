// The one helper module of the integration tier: the extension and its testing API, a sandbox in this
// process with made-up credentials, pointing the extension at it through ordinary settings, the
// sandbox's admin API, polling, and JSON documents for the code diagnostics, hovers and quick fixes.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeCode } from '../../src/core/codes/codes';
import type { ExtensionApi } from '../../src/extension';
import type { SandboxConfig } from '../../src/sandbox/config';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';

export const EXTENSION_ID = 'bizdata.bizdata-explorer';
/** The extension's folder (the tests run from its out/test/integration). */
export const EXTENSION_PATH = join(__dirname, '..', '..', '..');

/** Activates the extension; the tests run in ExtensionMode.Test, so it returns the testing API. */
export async function extensionApi(): Promise<ExtensionApi> {
  const ext = vscode.extensions.getExtension<ExtensionApi | undefined>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  if (!api) throw new Error(`extension ${EXTENSION_ID} returned no testing API: is the host in ExtensionMode.Test?`);
  return api;
}

export async function activateExtension(): Promise<void> {
  await extensionApi();
}

export interface Canaries {
  readonly key: string;
  readonly secret: string;
  readonly user: string;
  readonly password: string;
}

/** Unique values that must never show up outside SecretStorage. */
export function canaries(): Canaries {
  const n = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return { key: `canary-key-${n}`, secret: `canary-secret-${n}`, user: `canary-user-${n}`, password: `canary-password-${n}` };
}

/** A sandbox in this process whose customer `test` has the canaries as its only credentials; on 127.0.0.1 unless `host` says otherwise. */
export async function startTestSandbox(c: Canaries, extra: { tokenLifetimeSeconds?: number } = {}, host?: string): Promise<RunningSandbox> {
  return startSandboxWith(
    {
      ...extra,
      customers: [{ id: 'test', qps: 50, concurrency: 8, clients: [{ consumerKey: c.key, consumerSecret: c.secret }], users: [{ user: c.user, password: c.password }] }],
    },
    host,
  );
}

/** A sandbox in this process with the given configuration. */
export async function startSandboxWith(config: SandboxConfig, host?: string): Promise<RunningSandbox> {
  return startSandbox({ port: 0, config, host });
}

const ENDPOINT_KEYS = ['authUrl', 'baseUrl', 'legacyUrl'] as const;

/** Points the extension's endpoints at `url` (undefined: back to defaults). */
export async function pointAt(url: string | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration('bizdata.endpoints');
  for (const k of ENDPOINT_KEYS) await config.update(k, url, vscode.ConfigurationTarget.Global);
  // The client is rebuilt on the configuration event; give it a moment to arrive.
  await sleep(200);
}

/** Sets a user setting (undefined removes it), and gives the configuration event a moment to arrive. */
export async function setting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
  await sleep(200);
}

/**
 * Undoes a suite's own connections: signs the interface out of its connection, removes `settings`
 * and bizdata.connections, goes back to `default` and closes the editors.
 */
export async function dropConnections(signedIn: { readonly interfaceId: string; readonly connection: string }, settings: readonly string[] = []): Promise<void> {
  await vscode.commands.executeCommand('bizdata.signOut', signedIn).then(undefined, () => undefined);
  for (const key of [...settings, 'bizdata.connections']) await setting(key, undefined);
  await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'default' });
  await closeAllEditors();
}

/** The sandbox's admin API: GET without a body, POST with one. */
export async function admin(sb: RunningSandbox, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sb.url}/_sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-sandbox-admin': sb.adminKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

export interface CustomerStats {
  readonly tokenRequests: number;
  readonly authSuccesses?: number;
  readonly authFailures?: number;
  readonly dataCalls?: number;
  readonly resultCodes: Readonly<Record<string, number>>;
}

export interface SandboxStats {
  /** Every non-admin request. */
  readonly requests: number;
  readonly customers: Readonly<Record<string, CustomerStats>>;
}

export async function stats(sb: RunningSandbox): Promise<SandboxStats> {
  return (await admin(sb, 'stats')) as SandboxStats;
}

/** Token requests of every customer together. */
export async function tokenRequests(sb: RunningSandbox): Promise<number> {
  return Object.values((await stats(sb)).customers).reduce((n, c) => n + c.tokenRequests, 0);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Polls `read` until `accept` holds, or fails with the last value seen. The deadline is only how long
 * a broken promise takes to be reported: events that cross the extension host (file watchers, the
 * workbench's first load) arrive late on a busy machine, so it is generous and asserts nothing itself.
 */
export async function waitFor<T>(read: () => Promise<T> | T, accept: (v: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await sleep(50);
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

/** Signs in to both interfaces with the canaries (in test mode Sign In takes them as arguments). */
export async function signInToBoth(c: Canaries): Promise<void> {
  const a = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret });
  const b = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'b', user: c.user, password: c.password });
  if (a !== 'valid' || b !== 'valid') throw new Error(`sign-in gave ${String(a)} for A and ${String(b)} for B`);
}

/** Both interfaces signed out. */
export async function signOutEverywhere(): Promise<void> {
  for (const interfaceId of ['a', 'b']) await vscode.commands.executeCommand('bizdata.signOut', { interfaceId });
}

/** Leaves the window as a test found it: both interfaces signed out, editors closed, endpoints reset, sandbox stopped. */
export async function tearDown(sb: RunningSandbox | undefined): Promise<void> {
  await signOutEverywhere();
  await closeAllEditors();
  await pointAt(undefined);
  await sb?.close();
}

/** A sandbox with the canaries' customer, the endpoints pointed at it; `tearDown` undoes both. */
export function useTestSandbox(c: Canaries): () => RunningSandbox {
  let sb: RunningSandbox | undefined;
  before(async () => {
    sb = await startTestSandbox(c);
    await pointAt(sb.url);
  });
  after(async () => {
    await tearDown(sb);
  });
  return () => {
    if (!sb) throw new Error('the test sandbox is not running');
    return sb;
  };
}

/** Modal warnings (the lockout guard's question) asked while a suite runs, and the answer each gets. */
export interface ModalAnswers {
  readonly asked: Array<{ readonly message: string; readonly items: readonly unknown[] }>;
  /** What the user picks; undefined: closes the question. */
  answer: string | undefined;
}

/**
 * Answers the suite's modal warnings through the same API object the extension calls (a modal cannot
 * be clicked from the extension host); other warnings are shown as usual.
 */
export function answerModalWarnings(): ModalAnswers {
  type Warn = (message: string, ...rest: unknown[]) => Thenable<unknown>;
  const window = vscode.window as unknown as { showWarningMessage: Warn };
  const original = window.showWarningMessage;
  const answers: ModalAnswers = { asked: [], answer: undefined };
  before(() => {
    window.showWarningMessage = (message: string, ...rest: unknown[]) => {
      if ((rest[0] as { modal?: boolean } | undefined)?.modal) {
        answers.asked.push({ message, items: rest.slice(1) });
        return Promise.resolve(answers.answer);
      }
      return original.call(vscode.window, message, ...rest);
    };
  });
  after(() => {
    window.showWarningMessage = original;
  });
  return answers;
}

/** `useTestSandbox` with both interfaces signed in with fresh canaries before the suite's tests. */
export function useSignedInTestSandbox(): { readonly c: Canaries; readonly sandbox: () => RunningSandbox } {
  const c = canaries();
  const sandbox = useTestSandbox(c);
  before(() => signInToBoth(c));
  return { c, sandbox };
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * An Interface B failure as the service sends it (the catalog's text as its ResultText; "text" for a
 * code outside the catalog), or an Interface A error object for 00040.
 */
export function responseWith(code: string): string {
  if (code === '00040') {
    return `${JSON.stringify({ error: { errorCode: code, errorMessage: 'The access token in use has expired.' } }, null, 2)}\n`;
  }
  const result = code === 'CM000' ? { ResultID: code, ResultText: 'Success' } : { SeverityText: 'Error', ResultID: code, ResultText: describeCode(code)?.text ?? 'text' };
  const body = { MatchResponse: { TransactionDetail: { ApplicationTransactionID: 'Rest', ServiceTransactionID: 'Id-1' }, TransactionResult: result } };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/**
 * A new, untitled JSON document holding `content`, shown in an editor. Each gets a name no earlier
 * test used: VS Code gives `Untitled-1` again once the last one closed, and may then restore the
 * closed document's backup as the new one's text, so a test would look at its predecessor's codes.
 */
export async function openJson(content: string): Promise<vscode.TextDocument> {
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `bizdata-test-${randomUUID()}.json` });
  let doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'json') doc = await vscode.languages.setTextDocumentLanguage(doc, 'json');
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, new vscode.Position(0, 0), content);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not write the content of ${uri.toString()}`);
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

export function ourDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Business Data');
}

/** The position in the middle of the first occurrence of `"code"` in the document. */
export function positionOf(doc: vscode.TextDocument, code: string): vscode.Position {
  const offset = doc.getText().indexOf(`"${code}"`);
  if (offset < 0) throw new Error(`${code} not in the document`);
  return doc.positionAt(offset + 3);
}

export interface ShownMessage {
  readonly message: string;
  readonly items: readonly string[];
}

/**
 * Records the error messages the extension shows and answers each with `answer(message)`: a test
 * cannot click a notification's buttons, so it answers through the API object the extension calls
 * (the extension and its tests share one). Call `restore()` when done.
 */
export function answerErrorMessages(answer: (message: ShownMessage) => string | undefined = () => undefined): { readonly shown: ShownMessage[]; restore(): void } {
  type ShowError = (message: string, ...rest: unknown[]) => Thenable<unknown>;
  const win = vscode.window as unknown as { showErrorMessage: ShowError };
  const original = win.showErrorMessage;
  const shown: ShownMessage[] = [];
  win.showErrorMessage = (message: string, ...rest: unknown[]) => {
    const items = rest.filter((r): r is string => typeof r === 'string');
    const record = { message, items };
    shown.push(record);
    return Promise.resolve(answer(record));
  };
  return { shown, restore: () => (win.showErrorMessage = original) };
}

/** Shape of every token the sandbox issues: found anywhere outside SecretStorage, a token leaked. */
export const SANDBOX_TOKEN = /sbx\.[A-Za-z0-9_-]{20,}/;

/**
 * A request file in the workspace folder (`<unique>.bizdata.http`, so its language comes from the file
 * name as for a user), opened in an editor. `dispose()` closes nothing and deletes the file.
 */
export async function openRequestFile(content: string): Promise<{ readonly document: vscode.TextDocument; dispose(): Promise<void> }> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('the integration tests run with a workspace folder');
  const uri = vscode.Uri.joinPath(folder, `requests-${randomUUID()}.bizdata.http`);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(content, 'utf8'));
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  return { document, dispose: () => Promise.resolve(vscode.workspace.fs.delete(uri)) };
}

/** Runs the CodeLens above the request on `line` whose title starts with `title`, as a click would. */
export async function runCodeLens<T>(document: vscode.TextDocument, line: number, title: string): Promise<T> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
  const lens = lenses.find((l) => l.range.start.line === line && l.command?.title.includes(title));
  if (!lens?.command) throw new Error(`no "${title}" CodeLens on line ${line + 1}: ${JSON.stringify(lenses.map((l) => [l.range.start.line, l.command?.title]))}`);
  return vscode.commands.executeCommand<T>(lens.command.command, ...(lens.command.arguments ?? []));
}

/**
 * Runs `run` while the workspace folder's `.vscode/settings.json` also holds `extra` (as a repository
 * someone cloned would), then puts the file back as it was.
 */
export async function withWorkspaceSettings<T>(extra: Readonly<Record<string, unknown>>, run: () => Promise<T>): Promise<T> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('the tests run with a workspace folder');
  const file = join(folder, '.vscode', 'settings.json');
  const original = readFileSync(file, 'utf8');
  try {
    writeFileSync(file, JSON.stringify({ ...(JSON.parse(original) as object), ...extra }, null, 2));
    await sleep(1000);
    return await run();
  } finally {
    writeFileSync(file, original);
    await sleep(300);
  }
}
