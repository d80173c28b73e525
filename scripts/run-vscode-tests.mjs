// Runs the mocha suite of test/integration inside the real VS Code extension host:
// VS Code server (Node 24) + web workbench in headless Chromium, driven by Playwright.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { errorMessage } from './built.mjs';
import { launchChromium, onSignals, startVsCodeServer, workbenchUrl } from './vscode-host.mjs';

const root = resolve(import.meta.dirname, '..');
const suite = process.argv[2] ?? 'integration';
const testsPath = join(root, 'out', 'test', suite, 'index.js');
const suiteTimeoutMs = Number(process.env.BIZDATA_SUITE_TIMEOUT_MS ?? 15 * 60_000);

const log = (m) => console.log(m);
// The offline workbench complains about hosts it cannot reach; none of it concerns the suite.
const NOISE = /AgentHost|Service Worker|connection token|Creating a socket|queryGalleryExtensions|getExtensions|marketplace|telemetry|ENOTFOUND|ERR_NAME_NOT_RESOLVED|Failed to fetch|service-worker|AccountPolicyGate/i;
const verbose = process.env.BIZDATA_VERBOSE === '1';
let server;
let browser;
const workspace = mkdtempSync(join(tmpdir(), 'bizdata-ws-'));
mkdirSync(join(workspace, '.vscode'));
// Keep the test window quiet and predictable.
writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none' }, null, 2));

async function cleanup() {
  await browser?.close().catch(() => undefined);
  await server?.stop().catch(() => undefined);
  rmSync(workspace, { recursive: true, force: true });
}
onSignals(cleanup);

async function main() {
  const started = Date.now();
  server = await startVsCodeServer({ log, env: { BIZDATA_TEST_WORKSPACE: workspace } });
  log(`[harness] VS Code server on ${server.url} (${Date.now() - started} ms)`);
  browser = await launchChromium({ log });
  const page = await browser.newPage();

  let settle;
  const exitCode = new Promise((r) => (settle = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = format(...(Array.isArray(args) ? args : [args]));
    if (!verbose && NOISE.test(text)) return;
    (type === 'error' ? console.error : console.log)(text);
  });
  await page.exposeFunction('codeAutomationExit', (code) => settle(Number(code)));
  page.on('pageerror', (err) => console.error(`[workbench] ${err.message}`));

  await page.goto(workbenchUrl(server, { folder: workspace, extensionPath: root, testsPath }), { timeout: 60_000 });
  log('[harness] workbench opened; waiting for the extension host to run the suite');
  let timer;
  const timeout = new Promise((r) => {
    timer = setTimeout(() => r('timeout'), suiteTimeoutMs);
  });
  const result = await Promise.race([exitCode, timeout]);
  clearTimeout(timer);
  if (result === 'timeout') {
    console.error(`[harness] the suite did not finish within ${suiteTimeoutMs / 1000} s; stopping.`);
    return 1;
  }
  log(`[harness] suite finished with exit code ${result} after ${Date.now() - started} ms`);
  return result;
}

let code;
try {
  code = await main();
} catch (err) {
  console.error(`[harness] ${errorMessage(err)}`);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
