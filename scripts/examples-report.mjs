// `npm run report:examples` (after `npm run build`): the run report of `bizdata test examples/` against
// a local sandbox, written to docs/examples-report.html, which the tests-and-CI guide links to. Also
// what the e2e suite uses to make reports: `startCliSandbox` and `runCli`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage, spawnProcessGroup } from './built.mjs';

const root = resolve(import.meta.dirname, '..');
const cli = join(root, 'dist', 'cli.js');

/** `bizdata sandbox --port 0` (with `args`, such as --config FILE) in its own process group; stop it with `sandbox.stop()`. */
export async function startCliSandbox(args = []) {
  let output = '';
  const sandbox = spawnProcessGroup(process.execPath, [cli, 'sandbox', '--port', '0', '--stop-with-stdin', ...args], {
    cwd: root,
    lifeline: true,
    onLine: (line) => void (output += `${line}\n`),
  });
  try {
    const [, url] = await sandbox.readAddress(/^Sandbox listening on (https?:\/\/\S+)$/, 30_000);
    return { sandbox, url };
  } catch (err) {
    await sandbox.stop();
    throw new Error(`The sandbox did not start: ${errorMessage(err)}.\n${output}`, { cause: err });
  }
}

/** Runs the built command line in `cwd` with a state folder of its own; resolves with its exit status and output. */
export function runCli(args, env = {}, cwd = root) {
  const state = mkdtempSync(join(tmpdir(), 'bizdata-report-state-'));
  return new Promise((done) => {
    execFile(process.execPath, [cli, ...args], { cwd, env: { ...process.env, BIZDATA_STATE_DIR: state, ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      rmSync(state, { recursive: true, force: true });
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { sandbox, url } = await startCliSandbox();
  try {
    const out = join('docs', 'examples-report.html');
    const r = await runCli(['test', 'examples/', '--sandbox', url, '--report', out]);
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    if (r.code !== 0) throw new Error(`bizdata test examples/ ended with status ${r.code}`);
    console.log(`wrote ${out}`);
  } finally {
    await sandbox.stop();
  }
}
