// `npm start`: build, start the local sandbox, start VS Code in the browser (the same offline VS Code
// server as the tests) with this extension loaded and pointed at that sandbox, and print the URL.
// The extension reads BIZDATA_SANDBOX_URL at activation, so the user's own settings stay untouched.
// Options (after `--`: npm start -- --port 8001): --port N (the workbench's port, else BIZDATA_PORT,
// else 8000, or the next free one when 8000 is taken), --no-sandbox (use your settings). The forms npm
// takes for its own (`npm start --port 8001`, `--port=8001`, `--no-sandbox`) are read back from npm.
// Checked before anything is built: the platform (the VS Code server build is Linux x64's), the options
// and the port.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { portIsFree } from './ports.mjs';

const root = resolve(import.meta.dirname, '..');
const DEFAULT_PORT = 8000;
/** How many ports after the default one are tried when it is taken. */
const NEXT_PORTS = 20;

function fail(message) {
  console.error(`[start] ${message}`);
  process.exit(1);
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail(
    `npm start runs VS Code in the browser from the Linux x64 build of the VS Code server, and this machine is ${process.platform} ${process.arch}. ` +
      'Here, open this folder in VS Code and press F5 (the "Run Extension" launch configuration), or install the extension from npm run package ' +
      '(Extensions: Install from VSIX…). The command line runs anywhere: see Install in README.md.',
  );
}

/** The options, from the arguments and what npm kept of them; a wrong one ends the script with what to write. */
function options(args, env) {
  let port;
  let sandbox = env.npm_config_sandbox !== '' && env.npm_config_sandbox !== 'false';
  const rest = [...args];
  // `npm start --port 8001` leaves "8001" here and npm_config_port=true; `--port=8001` leaves npm_config_port=8001.
  if (env.npm_config_port === 'true' && /^\d+$/.test(rest[0] ?? '')) port = rest.shift();
  else if (env.npm_config_port !== undefined && env.npm_config_port !== 'true') port = env.npm_config_port;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--no-sandbox') sandbox = false;
    else if (arg === '--port') port = rest[++i];
    else if (arg.startsWith('--port=')) port = arg.slice('--port='.length);
    else fail(`unknown option ${arg}. npm start takes --port N and --no-sandbox, after --: npm start -- --port 8001`);
  }
  const given = port ?? (env.BIZDATA_PORT || undefined);
  const bad = given !== undefined && (!/^\d+$/.test(given) || Number(given) < 1 || Number(given) > 65535);
  if (bad) fail(`--port (BIZDATA_PORT) must be a port number from 1 to 65535, not "${given}".`);
  return { port: given === undefined ? undefined : Number(given), sandbox };
}

const { port: asked, sandbox: withSandbox } = options(process.argv.slice(2), process.env);
const log = (m) => console.log(m);
const port = await workbenchPort();

const built = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) fail('the build failed (above).');

// What the build made: the process helpers (built.mjs) and the VS Code host, which loads them.
const { errorMessage, spawnProcessGroup } = await import('./built.mjs');
const { onSignals, startVsCodeServer, workbenchUrl } = await import('./vscode-host.mjs');

/** The port asked for (it must be free), else the default or the next free one after it. */
async function workbenchPort() {
  if (asked !== undefined) {
    if (await portIsFree(asked)) return asked;
    fail(`port ${asked} is in use (another npm start, or another program): stop it, or choose another port: npm start -- --port ${asked + 1}`);
  }
  for (let port = DEFAULT_PORT; port <= DEFAULT_PORT + NEXT_PORTS; port++) {
    if (!(await portIsFree(port))) continue;
    if (port !== DEFAULT_PORT) log(`[start] port ${DEFAULT_PORT} is in use (another npm start?): using ${port}`);
    return port;
  }
  fail(`ports ${DEFAULT_PORT} to ${DEFAULT_PORT + NEXT_PORTS} are all in use: choose one with npm start -- --port N`);
}

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
