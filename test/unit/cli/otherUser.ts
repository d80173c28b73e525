// Running the built command line as another user (`nobody`), for tests run as root, for which no file
// mode is a barrier. That user may not reach the checkout (a clone in a 0700 folder, or in root's
// home), so the bundle is copied into a fresh temporary folder it can read; when the user cannot run
// node at all (no such user, no privilege to switch to it), the reason is given and the test skips.
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI } from './cliHarness';

/** Who runs the CLI, and the copy of the bundle that user can read. */
export interface OtherUser {
  readonly uid: number;
  readonly gid: number;
  readonly cli: string;
}

const NOBODY = { uid: 65534, gid: 65534 };

/**
 * For the tests of one describe block: `get()` gives the other user with a readable copy of the bundle
 * (made once, removed after the block), or the reason it cannot be used.
 */
export function otherUser(): { get(): Promise<OtherUser | { readonly skip: string }> } {
  let made: Promise<OtherUser | { readonly skip: string }> | undefined;
  let folder: string | undefined;
  after(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });
  return {
    get: () =>
      (made ??= (async () => {
        if (process.platform === 'win32') return { skip: 'file modes and other users are POSIX only' };
        folder = await mkdtemp(join(tmpdir(), 'bizdata-cli-copy-'));
        const dist = dirname(CLI);
        for (const f of await readdir(dist)) if (f.endsWith('.js')) await copyFile(join(dist, f), join(folder, f));
        await chmod(folder, 0o755);
        for (const f of await readdir(folder)) await chmod(join(folder, f), 0o644);
        const cli = join(folder, 'cli.js');
        const problem = await runsAs(cli);
        return problem === undefined ? { ...NOBODY, cli } : { skip: `cannot run the CLI as uid ${NOBODY.uid}: ${problem}` };
      })()),
  };
}

/** Undefined when the other user can start node on the copy; else what stopped it. */
function runsAs(cli: string): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(process.execPath, [cli, '--version'], { ...NOBODY, cwd: dirname(cli), timeout: 20_000 }, (err, _out, stderr) => {
      done(err ? (stderr.trim().split('\n')[0] || err.message) : undefined);
    });
  });
}
