// Runs a mocha suite inside the real VS Code extension host: VS Code server (Node 24) + web
// workbench in headless Chromium, driven by Playwright.
//   node scripts/run-vscode-tests.mjs integration
//       test/integration against this folder as the extension under development (ExtensionMode.Test).
//   node scripts/run-vscode-tests.mjs restricted
//       test/restricted with Workspace Trust on: the test folder opens in Restricted Mode.
//   node scripts/run-vscode-tests.mjs production --vsix bizdata-explorer.vsix
//       installs the .vsix as a user would (ExtensionMode.Production) and runs test/production as a
//       probe extension of its own, which sees the installed one only through VS Code's API.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { errorMessage } from './built.mjs';
import { launchChromium, onSignals, startVsCodeServer, workbenchUrl } from './vscode-host.mjs';

const root = resolve(import.meta.dirname, '..');
const suite = process.argv[2] ?? 'integration';
const vsixArg = process.argv.indexOf('--vsix');
const vsix = vsixArg > 0 ? resolve(process.argv[vsixArg + 1] ?? '') : undefined;
const testsDir = join(root, 'out', 'test', suite);
const suiteTimeoutMs = Number(process.env.BIZDATA_SUITE_TIMEOUT_MS ?? 15 * 60_000);
/** test/production/installedExtension.test.ts logs this when a masked input box should be open. */
const ASK_MARKER = '[probe] expecting a masked input box';

const log = (m) => console.log(m);
// The offline workbench complains about hosts it cannot reach; none of it concerns the suite.
const NOISE = /AgentHost|Service Worker|connection token|Creating a socket|queryGalleryExtensions|getExtensions|marketplace|telemetry|ENOTFOUND|ERR_NAME_NOT_RESOLVED|Failed to fetch|service-worker|AccountPolicyGate|ChatModelSelection/i;
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

/** The folder that runs the tests as an extension: this one, or for an installed .vsix a probe of its own. */
function extensionUnderTest() {
  if (!vsix) return root;
  // A manifest for the compiled probe; `main` makes it a Node extension, so its tests run in the Node host.
  const manifest = { name: 'bizdata-production-probe', publisher: 'bizdata-tests', version: '0.0.0', engines: { vscode: '^1.90.0' }, main: './index.js' };
  writeFileSync(join(testsDir, 'package.json'), JSON.stringify(manifest, null, 2));
  return testsDir;
}

/** Answers the probe's one prompt as a user would: finds the masked box, then presses Escape. */
function maskedInputAnswerer(page) {
  let seen = false;
  let pending = Promise.resolve();
  const answer = async () => {
    await page.locator('.quick-input-widget input[type="password"]').waitFor({ state: 'visible', timeout: 30_000 });
    seen = true;
    log('[harness] a masked input box is open; pressing Escape');
    await page.keyboard.press('Escape');
  };
  return {
    onLine(text) {
      if (text.includes(ASK_MARKER)) pending = answer().catch((err) => console.error(`[harness] no masked input box: ${errorMessage(err)}`));
    },
    /** Whether the box was found and answered (false when the probe never asked). */
    async seen() {
      await pending;
      return seen;
    },
  };
}

async function main() {
  const started = Date.now();
  server = await startVsCodeServer({ log, env: { BIZDATA_TEST_WORKSPACE: workspace }, install: vsix ? [vsix] : [], workspaceTrust: suite === 'restricted' });
  log(`[harness] VS Code server on ${server.url} (${Date.now() - started} ms)`);
  browser = await launchChromium({ log });
  const page = await browser.newPage();
  const answerer = maskedInputAnswerer(page);

  let settle;
  const exitCode = new Promise((r) => (settle = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = format(...(Array.isArray(args) ? args : [args]));
    answerer.onLine(text);
    if (!verbose && NOISE.test(text)) return;
    (type === 'error' ? console.error : console.log)(text);
  });
  await page.exposeFunction('codeAutomationExit', (code) => settle(Number(code)));
  page.on('pageerror', (err) => console.error(`[workbench] ${err.message}`));

  await page.goto(workbenchUrl(server, { folder: workspace, extensionPath: extensionUnderTest(), testsPath: join(testsDir, 'index.js') }), { timeout: 60_000 });
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
  if (vsix && !(await answerer.seen())) {
    console.error('[harness] the probe expected a masked input box, and none appeared');
    return 1;
  }
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
