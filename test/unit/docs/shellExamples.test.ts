// Every shell example of every guide (README.md, docs/*.md) runs as a reader runs it, and exits as the
// guide says, so the docs cannot drift from the program. A reader has `bizdata` installed as the README
// says and nothing else: no exported credentials, no connections file, no clone of this repository.
// Conventions:
//
// - ```sh, ```bash and ```console blocks run; other fences (```text, ```yaml, ```http, plain ```) do not.
//   In a console block only the lines starting with `$ ` are commands; in sh and bash every line
//   that is not blank or a comment, with `\` continuations joined and a here-document (`<<'END'` to
//   `END`) one command with its lines.
// - A block that cannot run here says why to the reader on the line right above its fence,
//   `_Not run by the docs test: REASON._`. NOT_RUN below lists them all, so adding one is a visible decision.
// - A page runs as one terminal session: its blocks in order, in one fresh folder, so what its first
//   block sets up (a sandbox started with `&`, files, exports) is there for the blocks after it, and
//   nothing else is. A command must exit 0, or N when its trailing comment says `# exits N`.
// - `bizdata …` is the CLI packed by npm from this repository and installed globally, as the README's
//   install block does (the README's own page runs that block itself, with the package file beside it).
// - Ports: port 8080 may be taken on a shared machine, so a page's sandbox listens on a free port of its
//   own and `127.0.0.1:8080` and `--port 8080` mean that port. A sandbox started in the background
//   (`&`) runs until the page ends, and the next command waits until it answers; one started in the
//   foreground must start and stop cleanly (its standard input closed, `--stop-with-stdin`).
import * as assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { packCli, quietNpm, runTo } from '../cli/installedCli';
import { fences, readGuides, ROOT, type Fence } from './guides';
import { freePort } from '../ports';

/** The blocks that do not run, by guide and reason: keep this short and honest. */
const NOT_RUN: readonly string[] = [
  'README.md: it installs this project and runs its whole suite',
  "docs/cli.md: it needs the real service's addresses and a contract's credentials",
  'docs/processes-and-limits.md: it needs a Redis coordinator shared by two servers',
  'docs/sandbox.md: it needs a clone of this repository, whose test/fixtures/sandbox it serves',
  'docs/tests-and-ci.md: it sets up your own repository; the CI test does it (test/unit/cli/ciJob.test.ts)',
];

const RUNS = new Set(['sh', 'bash', 'console']);

interface Command {
  readonly text: string;
  readonly expected: number;
  /** Where it is: the guide's block. */
  readonly block: number;
}

/** The commands of a block, each with the exit status the guide gives it. */
export function commandsOf(f: Fence): Command[] {
  const lines =
    f.lang === 'console'
      ? f.text.split('\n').filter((l) => l.startsWith('$ ')).map((l) => l.slice(2))
      : f.text.replace(/\\\n\s*/g, ' ').split('\n');
  const out: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const expected = Number(/\s#.*\bexits (\d+)\b[^#]*$/.exec(line)?.[1] ?? 0);
    const here = /<<-?\s*'?(\w+)'?/.exec(line);
    if (here) {
      const end = lines.indexOf(here[1], i + 1);
      assert.ok(end > i, `${f.file}:${f.line}: the here-document ${here[1]} never ends`);
      out.push({ text: lines.slice(i, end + 1).join('\n'), expected, block: f.line });
      i = end;
    } else out.push({ text: line, expected, block: f.line });
  }
  return out;
}

const SANDBOX = /^(npx\s+)?bizdata\s+sandbox\b/;

/** A command as the page's script runs it, with the page's sandbox port for 8080. */
function prepared(command: string, port: number): string {
  const text = command.trim();
  if (!SANDBOX.test(text)) return text.replace(/127\.0\.0\.1:8080/g, `127.0.0.1:${port}`);
  const [cmd, comment = ''] = text.split(/(?=\s#)/, 2);
  if (/&\s*$/.test(cmd)) {
    // In the background: it serves the rest of the page; the next command waits until it answers.
    const started = cmd.replace(/--port\s+8080\b/, `--port ${port}`);
    assert.ok(started.includes(`--port ${port}`), `a sandbox started for the page says --port 8080: ${command}`);
    return `${started}${comment}\nfor __i in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.1; done`;
  }
  const once = /--port\s+\d+/.test(cmd) ? cmd.replace(/--port\s+\d+/, '--port 0') : `${cmd} --port 0`;
  return `${once} --stop-with-stdin < /dev/null${comment}`;
}

function script(commands: readonly Command[], port: number): string {
  return [
    // The page's background jobs (its sandbox) end with it.
    "trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT",
    ...commands.flatMap((c, i) => [
      prepared(c.text, port),
      `__rc=$?; if [ "$__rc" != ${c.expected} ]; then echo "@@ command ${i + 1} exited $__rc, expected ${c.expected}" >&2; exit 100; fi`,
    ]),
  ].join('\n');
}


/** A reader's environment: this machine's, with nothing of bizdata's, a home of their own, and `bin` on PATH. */
function readerEnv(home: string, bin: string, prefix: string): NodeJS.ProcessEnv {
  const env = quietNpm(home);
  for (const k of Object.keys(env)) if (k.startsWith('XDG_')) delete env[k];
  return { ...env, npm_config_offline: 'true', npm_config_prefix: prefix, PATH: `${bin}:${env.PATH ?? ''}` };
}

describe('docs: every shell example of every guide runs as a reader runs it', function () {
  this.timeout(300_000);
  const blocks = readGuides().flatMap(fences).filter((f) => RUNS.has(f.lang));
  const pages = [...new Set(blocks.filter((b) => b.notRun === undefined).map((b) => b.file))];
  let root = '';
  let tgz = '';
  let globalPrefix = '';

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'bizdata-docs-'));
    await mkdir(join(root, 'home'));
    tgz = await packCli(root, join(root, 'home'));
    // Installed as the README says, for every page but the README, which installs it itself.
    globalPrefix = join(root, 'global');
    const r = await runTo('npm', ['install', '--global', tgz], root, { ...quietNpm(join(root, 'home')), npm_config_prefix: globalPrefix });
    assert.equal(r.code, 0, r.stderr);
  });

  after(() => rm(root, { recursive: true, force: true }));

  it('marks only the blocks NOT_RUN lists as not run, each with its reason shown to the reader', () => {
    assert.deepEqual(blocks.filter((b) => b.notRun !== undefined).map((b) => `${b.file}: ${b.notRun}`), NOT_RUN);
    assert.ok(blocks.filter((b) => b.notRun === undefined).length >= 8, 'the guides have shell examples');
  });

  it('the README installs the package file npm pack makes', () => {
    const readme = blocks.filter((b) => b.file === 'README.md' && b.text.includes('npm install'));
    assert.ok(readme.length > 0 && readme.every((b) => b.text.includes(`./${basename(tgz)}`)), `README.md installs ./${basename(tgz)}`);
  });

  for (const page of pages) {
    it(page, async () => {
      const commands = blocks.filter((b) => b.file === page && b.notRun === undefined).flatMap(commandsOf);
      assert.ok(commands.length > 0, 'a shell block with no command');
      const dir = await mkdtemp(join(root, 'page-'));
      const home = join(dir, '.home');
      await mkdir(home);
      // The README installs the CLI itself, from the package file a reader has beside them.
      const own = page === 'README.md' && commands.some((c) => c.text.includes('npm install'));
      if (own) await copyFile(tgz, join(dir, basename(tgz)));
      const prefix = own ? join(dir, '.global') : globalPrefix;
      const r = await runTo('bash', ['-c', script(commands, await freePort())], dir, readerEnv(home, join(prefix, 'bin'), prefix), 240_000);
      const failed = /^@@ command (\d+) exited (\d+), expected (\d+)$/m.exec(r.stderr);
      const at = failed ? commands[Number(failed[1]) - 1] : undefined;
      const which = failed && at ? `${page}:${at.block}: \`${at.text}\` exited ${failed[2]}, the guide says ${failed[3]}` : `the script exited ${r.code}`;
      assert.equal(r.code, 0, `${which}\n${r.stderr.slice(-3000)}`);
      // Run in a clone, the page leaves nothing git would show: every file it writes is ignored.
      const entries = await readdir(dir, { recursive: true, withFileTypes: true });
      const written = entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
      // Not the page's: the reader's home and global install, and what the README's install makes.
      const installed = (f: string): boolean => page === 'README.md' && /^(package(-lock)?\.json|[^/]+\.tgz)$/.test(f);
      const left = written.filter((f) => !/^(\.home|\.global|node_modules)\//.test(f) && !installed(f));
      const ignore = ['check-ignore', '--no-index', '--verbose', '--non-matching', ...left];
      const checked = left.length === 0 ? '' : (await runTo('git', ignore, ROOT, process.env)).stdout;
      const shown = checked.split('\n').filter((l) => l.startsWith('::'));
      assert.deepEqual(shown.map((l) => l.replace(/^::\s+/, '')), [], `${page} writes files .gitignore does not ignore`);
      await rm(dir, { recursive: true, force: true });
    });
  }
});
