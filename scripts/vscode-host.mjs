// Starts the offline VS Code server and drives its web workbench in headless Chromium.
// Shared by the integration runner, the end-to-end tests and `npm start`.
// Every wait is bounded and every process started here is stopped on every exit path.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium, ensureVsCodeServer } from './vscode-server.mjs';

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
 */
export async function startVsCodeServer({ log = console.log, startTimeoutMs = 90_000, env = {}, port: wanted } = {}) {
  const paths = ensureVsCodeServer(log);
  const port = wanted ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'bizdata-vscode-'));
  mkdirSync(join(dataDir, 'ext'));
  const args = [
    paths.serverMain,
    '--host', '127.0.0.1', '--port', String(port),
    '--without-connection-token', '--accept-server-license-terms',
    '--server-data-dir', join(dataDir, 'server'), '--user-data-dir', join(dataDir, 'user'),
    '--extensions-dir', join(dataDir, 'ext'),
    '--disable-telemetry', '--disable-workspace-trust', '--enable-smoke-test-driver',
  ];
  // detached: the server gets its own process group so that stop() ends its children too.
  const child = spawn(paths.node, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', resolve);
    });
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 3000);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The VS Code server exited with code ${child.exitCode} before it answered.\n${output}`);
    }
    try {
      const res = await fetch(`${url}/version`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status < 500) break;
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
