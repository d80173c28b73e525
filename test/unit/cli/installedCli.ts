// The command line as a user gets it: packed by npm from this repository (what `npm pack` makes, from
// the bundles already built: --ignore-scripts, so the test never rebuilds dist/ under the other test
// files) and installed by npm into folders outside the clone, as the README says. For the CI test and
// the docs test.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../docs/guides';

/** npm's own settings for a run of it here: no update check, audit or funding call, nothing from the network. */
export function quietNpm(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(BIZDATA_|npm_|GITHUB_)/.test(k) && k !== 'CI') env[k] = v;
  const npm = { npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_offline: 'true', npm_config_loglevel: 'error' };
  return { ...env, HOME: home, ...npm };
}

export interface Done {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program to its end (never throws): its exit status and output. */
export function runTo(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<Done> {
  return new Promise((done) => {
    execFile(file, args, { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** `npm pack` of this repository into `folder`: the package file's path. */
export async function packCli(folder: string, home: string): Promise<string> {
  const r = await runTo('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], ROOT, quietNpm(home));
  if (r.code !== 0) throw new Error(`npm pack failed:\n${r.stderr}`);
  const [packed] = JSON.parse(r.stdout) as [{ filename: string }];
  return join(folder, packed.filename);
}
