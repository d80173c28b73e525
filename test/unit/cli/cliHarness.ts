// The built command line (dist/cli.js) as a child process, with a clean BIZDATA_ environment, for
// every CLI test file. execFile, not spawnSync: a sandbox in the test process must keep answering.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { assertNoCanary, CANARY, sandbox, type CustomerOverrides, type Sandbox } from '../core/harness';

export const CLI = resolve(__dirname, '../../../../dist/cli.js');

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A configuration folder no test makes, in a folder every user may pass through (a test may run the CLI as another user). */
const NO_CONFIG = join(tmpdir(), `bizdata-tests-no-config-${process.pid}`);

/**
 * This process's environment without BIZDATA_ variables, then the state directory, a configuration
 * folder that does not exist (so a connections file of the machine's user never steers a test), and `env`.
 */
export function cliEnv(env: Record<string, string>, stateDir: string): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BIZDATA_') && k !== 'NODE_TLS_REJECT_UNAUTHORIZED') base[k] = v;
  return { ...base, BIZDATA_STATE_DIR: stateDir, XDG_CONFIG_HOME: NO_CONFIG, ...env };
}

/**
 * Runs the bundle; every stdout and stderr is pushed to `outputs` (for the canary search). `as`: the
 * uid and gid to run it as, and the copy of the bundle that user can read (see otherUser.ts: a test
 * running as root, for which no file mode is a barrier, runs it as another user to meet an unreadable
 * file or an unwritable folder).
 */
export function runCli(args: readonly string[], env: Record<string, string>, stateDir: string, outputs: string[], timeoutMs = 20_000, as?: { readonly uid: number; readonly gid: number; readonly cli: string }): Promise<Run> {
  const { cli = CLI, ...user } = as ?? {};
  return new Promise((done) => {
    execFile(process.execPath, [cli, ...args], { env: cliEnv(env, stateDir), timeout: timeoutMs, ...user, ...(as ? { cwd: dirname(cli) } : {}) }, (err, stdout, stderr) => {
      outputs.push(stdout, stderr);
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

export type CliRun = (args: string[], env?: Record<string, string>, timeoutMs?: number) => Promise<Run>;

/**
 * The hooks and the runner of a suite of command-line runs: before each test a fresh folder (the
 * state directory of its runs, and room for its files) handed to `use`, removed after the test;
 * after the suite, every output of every run searched for the canaries.
 */
export function cliRuns(prefix: string, use: (dir: string) => void): { run: CliRun; outputs: readonly string[]; file: (name: string, lines: readonly string[]) => Promise<string> } {
  const outputs: string[] = [];
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    use(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  after(() => assertNoCanary(outputs));
  /** Writes a file of these lines in the test's folder: its path. */
  const file = async (name: string, lines: readonly string[]): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, lines.join('\n'));
    return path;
  };
  return { run: (args, env = {}, timeoutMs) => runCli(args, env, dir, outputs, timeoutMs), outputs, file };
}

/** Every service address at `url`, and the canary credentials of both interfaces. */
export function canaryEnv(url: string): Record<string, string> {
  return {
    BIZDATA_AUTH_URL: url,
    BIZDATA_BASE_URL: url,
    BIZDATA_LEGACY_URL: url,
    BIZDATA_ORIGIN: 'https://app.example.com',
    BIZDATA_CONSUMER_KEY: CANARY.consumerKey,
    BIZDATA_CONSUMER_SECRET: CANARY.consumerSecret,
    BIZDATA_USER: CANARY.user,
    BIZDATA_PASSWORD: CANARY.password,
  };
}

/** A suite of command-line runs against the canaries' sandbox: cliRuns, the sandboxes a test starts (closed after it), request files in the test's folder. */
export interface SandboxRuns {
  readonly run: CliRun;
  /** Everything the runs printed. */
  readonly outputs: readonly string[];
  /** The test's folder. */
  dir(): string;
  /** Starts a sandbox of the test. */
  sandbox(o?: CustomerOverrides): Promise<Sandbox>;
  /** Writes the lines as a file of the test's folder; its path. */
  file(name: string, lines: readonly string[]): Promise<string>;
}

export function sandboxRuns(prefix: string, use?: (dir: string) => void): SandboxRuns {
  let dir = '';
  const started: Sandbox[] = [];
  const { run, outputs, file } = cliRuns(prefix, (d) => {
    dir = d;
    use?.(d);
  });
  afterEach(async () => {
    for (const sb of started.splice(0)) await sb.close();
  });
  return {
    run,
    outputs,
    file,
    dir: () => dir,
    async sandbox(o) {
      const sb = await sandbox(o);
      started.push(sb);
      return sb;
    },
  };
}
