// Starts the offline VS Code server and drives its web workbench in headless Chromium.
// Shared by the integration runner, the end-to-end tests and `npm start`.
// Every wait is bounded and every process started here is stopped on every exit path.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeExit, spawnProcessGroup } from './built.mjs';
import { ensureChromium, ensureVsCodeServer } from './vscode-server.mjs';
import { portIsFree } from './ports.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts VS Code's own server script (not the code-server launcher) with the smoke-test driver on,
 * which the workbench needs to honour extensionTestsPath. Resolves once it answers HTTP.
 * `install`: .vsix files installed first, as a user installs them (they run in ExtensionMode.Production).
 * `workspaceTrust`: keep VS Code's Workspace Trust on (a folder then opens in Restricted Mode).
 */
export async function startVsCodeServer({ log = console.log, startTimeoutMs = 90_000, env = {}, port: wanted, install = [], workspaceTrust = false } = {}) {
  // A port asked for must be free: otherwise the address would answer from whatever holds it.
  if (wanted !== undefined && !(await portIsFree(wanted))) throw Object.assign(new Error(`port ${wanted} on 127.0.0.1 is in use`), { code: 'EADDRINUSE' });
  const paths = ensureVsCodeServer(log);
  const port = wanted ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'bizdata-vscode-'));
  mkdirSync(join(dataDir, 'ext'));
  const dirs = [
    '--server-data-dir', join(dataDir, 'server'), '--user-data-dir', join(dataDir, 'user'),
    '--extensions-dir', join(dataDir, 'ext'),
  ];
  for (const vsix of install) {
    const res = spawnSync(paths.node, [paths.serverMain, '--accept-server-license-terms', ...dirs, '--install-extension', vsix], { encoding: 'utf8' });
    if (res.status !== 0) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`Installing ${vsix} into the VS Code server failed:\n${res.stdout}${res.stderr}`);
    }
    log(`[vscode-server] installed ${vsix}`);
  }
  const args = [
    paths.serverMain,
    '--host', '127.0.0.1', '--port', String(port),
    '--without-connection-token', '--accept-server-license-terms',
    ...dirs,
    '--disable-telemetry', ...(workspaceTrust ? [] : ['--disable-workspace-trust']), '--enable-smoke-test-driver',
  ];
  let output = '';
  // Its own process group, so that stop() ends the extension hosts it starts too.
  const server = spawnProcessGroup(paths.node, args, {
    // The extension's state directory (guard counts, learned limits) is the run's own, not the user's.
    env: { ...process.env, BIZDATA_STATE_DIR: join(dataDir, 'state'), ...env },
    onLine: (line) => {
      output = `${output}${line}\n`.slice(-20_000);
    },
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (server.hasExited) {
      await stop();
      throw new Error(`The VS Code server exited (${describeExit(await server.exited)}) before it answered.\n${output}`);
    }
    try {
      const res = await fetch(`${url}/version`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      // The answer is ours only once our server says it listens there (another may hold a port asked for).
      if (res.status < 500 && (wanted === undefined || new RegExp(`listening on ${port}\\b`).test(output))) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The VS Code server did not answer on ${url} within ${startTimeoutMs / 1000} s.\nIts output:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, port, dataDir, stop, output: () => output };
}

/** The workbench URL that opens `folder` with the extension under development (and optionally its tests). */
export function workbenchUrl(server, { folder, extensionPath, testsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(extensionPath)], ['skipWelcome', 'true']];
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  return `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export async function launchChromium({ log = console.log } = {}) {
  const executablePath = ensureChromium(log);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** Stops `cleanup` on SIGINT/SIGTERM too, then exits with 130/143. */
export function onSignals(cleanup) {
  const handler = (signal) => {
    void Promise.resolve(cleanup()).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}
