// `npm start`: build, start the local sandbox, start VS Code in the browser (the same offline VS Code
// server as the tests) with this extension loaded and pointed at that sandbox, and print the URL.
// The extension reads BIZDATA_SANDBOX_URL at activation, so the user's own settings stay untouched.
// Options: --port N (VS Code server port, default 8000 or BIZDATA_PORT), --no-sandbox (use your settings).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onSignals, startVsCodeServer, workbenchUrl } from './vscode-host.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.BIZDATA_PORT ?? 8000));
const withSandbox = !args.includes('--no-sandbox');
const log = (m) => console.log(m);

/** Runs `node dist/cli.js sandbox --port 0` and resolves with the URL it prints once listening. */
function startSandboxProcess() {
  const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'sandbox', '--port', '0'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`The sandbox did not print its address within 30 s.\n${output}`)), 30_000);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[0]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The sandbox exited with code ${code}.\n${output}`));
    });
  });
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  return { url, stop };
}

let sandbox;
let server;
// A copy of the demo workspace, so batch results and saved responses do not land in the repository.
const workspace = mkdtempSync(join(tmpdir(), 'bizdata-demo-'));
cpSync(join(root, 'test', 'e2e', 'fixtures', 'workspace'), workspace, { recursive: true });

async function cleanup() {
  await server?.stop().catch(() => undefined);
  sandbox?.stop();
  rmSync(workspace, { recursive: true, force: true });
}
onSignals(cleanup);

try {
  log('[start] building');
  const build = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('The build failed; see above.');

  const env = {};
  if (withSandbox) {
    sandbox = startSandboxProcess();
    env.BIZDATA_SANDBOX_URL = await sandbox.url;
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
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  await cleanup();
  process.exit(1);
}
