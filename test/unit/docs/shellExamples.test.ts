// Every shell example of every guide (README.md, docs/*.md) runs against a sandbox this test starts,
// and exits as the guide says, so the docs cannot drift from the program. Conventions:
//
// - ```sh, ```bash and ```console blocks run; other fences (```text, ```yaml, ```http, plain ```) do not.
//   In a console block only the lines starting with `$ ` are commands; in sh and bash every line
//   that is not blank or a comment, with `\` continuations joined.
// - A block that cannot run here has `<!-- not run by the docs test: REASON -->` on the line right
//   above its fence. NOT_RUN below lists them all, so adding one is a visible decision.
// - A command must exit 0; one whose trailing comment says `# exits N` must exit N.
// - `bizdata …` and `npx bizdata …` run the built dist/cli.js. `127.0.0.1:8080` is this test's sandbox.
//   A `bizdata sandbox …` line starts another sandbox on a free port with its standard input closed
//   (`--stop-with-stdin`): it must start with those options and stop cleanly (exit 0). A trailing `&`
//   is dropped: the command runs to its end.
// - Each block is one bash script in a fresh folder (its own HOME, state folder and connections file,
//   with `test` and `production` connections to the sandbox, and the demo credentials in the
//   environment), where examples/ and test/fixtures/ of the repository are linked; files it writes
//   stay there.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_CREDENTIALS } from '../../../src/sandbox/defaults';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';
import { cliEnv, CLI } from '../cli/cliHarness';
import { fences, readGuides, ROOT, type Fence } from './guides';

/** The blocks that do not run, by guide and reason: keep this short and honest. */
const NOT_RUN: readonly string[] = [
  'README.md: installs the project and runs its whole suite',
  "docs/cli.md: needs the real service's addresses and a contract's credentials",
  'docs/processes-and-limits.md: needs a Redis coordinator shared by two servers',
];

const RUNS = new Set(['sh', 'bash', 'console']);

interface Command {
  readonly text: string;
  readonly expected: number;
}

/** The commands of a block, each with the exit status the guide gives it. */
function commandsOf(f: Fence): Command[] {
  const lines = f.lang === 'console' ? f.text.split('\n').filter((l) => l.startsWith('$ ')).map((l) => l.slice(2)) : f.text.replace(/\\\n\s*/g, ' ').split('\n');
  return lines
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
    .map((l) => ({ text: l, expected: Number(/\s#.*\bexits (\d+)\b[^#]*$/.exec(l)?.[1] ?? 0) }));
}

/** A command as the script runs it: this test's sandbox, a second sandbox that starts and stops. */
function prepared(command: string, sandboxUrl: string): string {
  const text = command.replace(/\s&(\s+#.*)?$/, '$1');
  const url = new URL(sandboxUrl);
  if (!/^(npx\s+)?bizdata\s+sandbox\b/.test(text.trim())) return text.replace(/127\.0\.0\.1:8080/g, url.host);
  const [cmd, comment = ''] = text.split(/(?=\s#)/, 2);
  const port = /--port\s+\d+/.test(cmd) ? cmd.replace(/--port\s+\d+/, '--port 0') : `${cmd} --port 0`;
  return `${port} --stop-with-stdin < /dev/null${comment}`;
}

function script(commands: readonly Command[], sandboxUrl: string): string {
  return [
    'bizdata() { node "$BIZDATA_DOCS_CLI" "$@"; }',
    'npx() { if [ "$1" = bizdata ]; then shift; node "$BIZDATA_DOCS_CLI" "$@"; else echo "the docs test runs only npx bizdata" >&2; return 127; fi; }',
    ...commands.flatMap((c, i) => [
      prepared(c.text, sandboxUrl),
      `__rc=$?; if [ "$__rc" != ${c.expected} ]; then echo "@@ command ${i + 1} exited $__rc, expected ${c.expected}" >&2; exit 100; fi`,
    ]),
  ].join('\n');
}

function bash(text: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('bash', ['-c', text], { cwd, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('docs: every shell example of every guide runs against the sandbox', function () {
  this.timeout(180_000);
  let sb: RunningSandbox;
  const blocks = readGuides().flatMap(fences).filter((f) => RUNS.has(f.lang));

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });

  after(async () => {
    await sb.close();
  });

  it('marks only the blocks NOT_RUN lists as not run, each with its reason', () => {
    assert.deepEqual(blocks.filter((b) => b.notRun !== undefined).map((b) => `${b.file}: ${b.notRun}`), NOT_RUN);
    assert.ok(blocks.filter((b) => b.notRun === undefined).length >= 8, 'the guides have shell examples');
  });

  for (const block of blocks.filter((b) => b.notRun === undefined)) {
    it(`${block.file}:${block.line}`, async () => {
      const commands = commandsOf(block);
      assert.ok(commands.length > 0, 'a shell block with no command');
      const dir = await mkdtemp(join(tmpdir(), 'bizdata-docs-'));
      try {
        await symlink(join(ROOT, 'examples'), join(dir, 'examples'));
        await mkdir(join(dir, 'test'));
        await symlink(join(ROOT, 'test', 'fixtures'), join(dir, 'test', 'fixtures'));
        const connection = { authUrl: sb.url, baseUrl: sb.url, legacyUrl: sb.url, origin: 'https://localhost' };
        await mkdir(join(dir, '.config', 'bizdata'), { recursive: true });
        await writeFile(join(dir, '.config', 'bizdata', 'connections.json'), JSON.stringify({ active: 'test', connections: { test: connection, production: { ...connection, production: true } } }));
        const env = {
          ...cliEnv({}, join(dir, '.state')),
          HOME: dir,
          XDG_CONFIG_HOME: join(dir, '.config'),
          BIZDATA_DOCS_CLI: CLI,
          BIZDATA_AUTH_URL: sb.url,
          BIZDATA_BASE_URL: sb.url,
          BIZDATA_LEGACY_URL: sb.url,
          BIZDATA_CONSUMER_KEY: DEMO_CREDENTIALS.a.consumerKey,
          BIZDATA_CONSUMER_SECRET: DEMO_CREDENTIALS.a.consumerSecret,
          BIZDATA_USER: DEMO_CREDENTIALS.b.user,
          BIZDATA_PASSWORD: DEMO_CREDENTIALS.b.password,
        };
        const r = await bash(script(commands, sb.url), dir, env);
        const failed = /^@@ command (\d+) exited (\d+), expected (\d+)$/m.exec(r.stderr);
        const which = failed ? `\`${commands[Number(failed[1]) - 1].text}\` exited ${failed[2]}, the guide says ${failed[3]}` : `the script exited ${r.code}`;
        assert.equal(r.code, 0, `${block.file}:${block.line}: ${which}\n${r.stderr.slice(-3000)}`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
