// `npm start`: after the build (the npm script runs it first), start the local sandbox, start VS Code
// in the browser (the same offline VS Code server as the tests) with this extension loaded and
// pointed at that sandbox, and print the URL.
// The extension reads BIZDATA_SANDBOX_URL at activation, so the user's own settings stay untouched.
// Options: --port N (VS Code server port, default 8000 or BIZDATA_PORT), --no-sandbox (use your settings).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { errorMessage, spawnProcessGroup } from './built.mjs';
import { onSignals, startVsCodeServer, workbenchUrl } from './vscode-host.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.BIZDATA_PORT ?? 8000));
const withSandbox = !args.includes('--no-sandbox');
const log = (m) => console.log(m);

/**
 * Runs `node dist/cli.js sandbox --port 0` in its own process group, stopped with this script however
 * it ends (--stop-with-stdin); resolves with it and its URL once listening.
 */
async function startSandboxProcess() {
  let output = '';
  const sandbox = spawnProcessGroup(process.execPath, [join(root, 'dist', 'cli.js'), 'sandbox', '--port', '0', '--stop-with-stdin'], {
    cwd: root,
    lifeline: true,
    onLine: (line) => {
      output += `${line}\n`;
    },
  });
  try {
    const [, url] = await sandbox.readAddress(/^Sandbox listening on (https?:\/\/\S+)$/, 30_000);
    return { sandbox, url };
  } catch (err) {
    throw new Error(`The sandbox did not start: ${errorMessage(err)}.\n${output}`, { cause: err });
  }
}

let sandbox;
let server;
// A copy of the demo workspace, so batch results and saved responses do not land in the repository.
const workspace = mkdtempSync(join(tmpdir(), 'bizdata-demo-'));
cpSync(join(root, 'test', 'e2e', 'fixtures', 'workspace'), workspace, { recursive: true });

async function cleanup() {
  await server?.stop().catch(() => undefined);
  await sandbox?.stop();
  rmSync(workspace, { recursive: true, force: true });
}
onSignals(cleanup);

try {
  const env = {};
  if (withSandbox) {
    const started = await startSandboxProcess();
    sandbox = started.sandbox;
    env.BIZDATA_SANDBOX_URL = started.url;
    log(`[start] sandbox on ${env.BIZDATA_SANDBOX_URL} (demo credentials)`);
  }
  server = await startVsCodeServer({ log, env, port });
  const url = workbenchUrl(server, { folder: workspace, extensionPath: root });
  log('');
  log('VS Code is ready with Business Data API Explorer loaded. Open this address in a browser:');
  log('');
  log(`  ${url}`);
  log('');
  log(withSandbox
    ? 'The window is connected to the local sandbox. Try "Business Data: Look Up IP Address" from the command palette (F1).'
    : 'The window uses your settings. Run "Business Data: Sign In" or "Business Data: Start Local Sandbox" from the command palette (F1).');
  log('Press Ctrl+C to stop VS Code and the sandbox.');
} catch (err) {
  console.error(`[start] ${errorMessage(err)}`);
  await cleanup();
  process.exit(1);
}
