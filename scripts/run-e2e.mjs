// `npm run suite:e2e` (after `npm run build`; `npm run test:e2e` does both): runs test/e2e/*.e2e.mjs
// with mocha. Each suite starts the offline VS Code server and Chromium itself (scripts/vscode-host.mjs)
// and stops them on every path.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const specs = readdirSync(join(root, 'test', 'e2e'))
  .filter((f) => f.endsWith('.e2e.mjs'))
  .map((f) => join('test', 'e2e', f));
const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const reporter = ['--reporter', join(root, 'test', 'summary-reporter.cjs'), '--reporter-option', 'suite=e2e'];
const res = spawnSync(process.execPath, [mocha, '--timeout', '180000', '--exit', ...reporter, ...process.argv.slice(2), ...specs], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
