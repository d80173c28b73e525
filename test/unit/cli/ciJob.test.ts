// The CI jobs of docs/tests-and-ci.md, as written, for a repository of request files: the CLI packed by
// npm, installed into an empty folder outside this clone by the guide's own set-up commands, then
// each job's shell steps run there in order (GitHub Actions: every `run:` step in its own bash, as the
// runner runs them, with the variables the runner sets; GitLab: the `script:` lines in one shell)
// against the sandbox they start. The JUnit file, the report, the step summary and the annotations
// must be as the guide describes them. Steps that are actions (`uses:`) are what the runner gives:
// the checkout is the folder, Node is this one, and the upload step's files must exist.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { fences, readGuides, ROOT } from '../docs/guides';
import { packCli, quietNpm, runTo, type Done } from './installedCli';
import { junitSchemaErrors, readJunit } from './junitSchema';
import { freePort } from '../ports';

const GUIDE = 'docs/tests-and-ci.md';

/** The request files of the repository the jobs test: one request passes, one fails at its assertion's line. */
const REQUESTS = [
  '### Who is behind an address',
  '# @name ipLookup',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/198.51.100.7?view=standard',
  '',
  '?? status == 200',
  // The installed package validates with its own ajv bundle: nothing comes from the project's node_modules.
  '?? schema ./ip-lookup.schema.json',
  '### The wrong expectation',
  '# @name wrong',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/198.51.100.7',
  '',
  '?? status == 404',
  '',
].join('\n');

interface GithubStep {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly if?: string;
  readonly with?: { readonly path?: string };
}

interface GitlabJob {
  readonly script: string[];
  readonly artifacts: { readonly paths: string[]; readonly reports: { readonly junit: string } };
}

function guideBlocks(): { setUp: string[]; github: GithubStep[]; gitlab: GitlabJob } {
  const blocks = fences(readGuides().find((g) => g.file === GUIDE) ?? assert.fail(`${GUIDE} is missing`));
  const setUp = blocks.find((b) => b.lang === 'sh' && b.text.includes('npm install --save-dev'));
  const yaml = blocks.filter((b) => b.lang === 'yaml').map((b) => parseYaml(b.text) as Record<string, unknown>);
  const github = yaml.find((y) => 'jobs' in y) as { jobs: Record<string, { steps: GithubStep[] }> } | undefined;
  const gitlab = yaml.find((y) => 'request-file-tests' in y) as { 'request-file-tests': GitlabJob } | undefined;
  assert.ok(setUp && github && gitlab, `${GUIDE} has the set-up block and both jobs`);
  const lines = setUp.text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return { setUp: lines, github: Object.values(github.jobs)[0].steps, gitlab: gitlab['request-file-tests'] };
}


describe('the CI jobs of docs/tests-and-ci.md, run as written with the packed CLI in a folder of their own', function () {
  this.timeout(300_000);
  let root = '';
  let tgz = '';
  /** Process groups of the steps: a step's background sandbox lives on after its shell, as on a runner, until the job ends. */
  const groups: number[] = [];

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'bizdata-ci-job-'));
    await mkdir(join(root, 'home'));
    tgz = await packCli(root, join(root, 'home'));
  });

  afterEach(() => {
    for (const pgid of groups.splice(0)) {
      try {
        process.kill(-pgid, 'SIGTERM');
      } catch {
        // the group has ended
      }
    }
  });

  after(() => rm(root, { recursive: true, force: true }));

  /** A repository of request files, set up by the guide's own commands with the package file copied in. */
  async function repository(setUp: readonly string[]): Promise<string> {
    const repo = await mkdtemp(join(root, 'repo-'));
    await copyFile(tgz, join(repo, basename(tgz)));
    for (const line of setUp) {
      assert.ok(!line.includes('.tgz') || line.includes(basename(tgz)), `the guide installs ${basename(tgz)}, the package npm pack makes: ${line}`);
      const r = await runTo('bash', ['-eo', 'pipefail', '-c', line], repo, quietNpm(join(root, 'home')));
      assert.equal(r.code, 0, `${line}\n${r.stderr}`);
    }
    const manifest = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
    assert.equal(manifest.devDependencies?.['bizdata-explorer'], `file:${basename(tgz)}`, 'package.json pins the package');
    await rm(join(repo, 'node_modules'), { recursive: true, force: true });
    await mkdir(join(repo, 'requests'));
    await writeFile(join(repo, 'requests', 'lookups.bizdata.http'), REQUESTS);
    await copyFile(join(ROOT, 'examples', 'ip-lookup.schema.json'), join(repo, 'requests', 'ip-lookup.schema.json'));
    return repo;
  }

  /** One shell of a job, in its own process group (kept, to end it with the job). */
  function shell(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Done> {
    return new Promise((done) => {
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      if (child.pid !== undefined) groups.push(child.pid);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      // Output ends when the shell's own processes are done: the background sandbox writes to its log file, not here.
      child.on('close', (code) => done({ code: code ?? 1, stdout, stderr }));
    });
  }

  it('GitHub Actions: the JUnit file, the report, the job summary and an annotation on the failing line', async () => {
    const { setUp, github } = guideBlocks();
    const repo = await repository(setUp);
    const port = String(await freePort());
    const summary = join(root, `step-summary-${port}.md`);
    const runner = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: repo, GITHUB_STEP_SUMMARY: summary };
    const run = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/requests', GITHUB_RUN_ID: '77' };
    const env = { ...quietNpm(join(root, 'home')), CI: 'true', ...runner, ...run };
    const results: Array<{ step: GithubStep; r?: Done }> = [];
    let failed = false;
    for (const step of github) {
      if (failed && step.if !== 'always()') continue;
      if (step.run === undefined) {
        results.push({ step });
        continue;
      }
      const r = await shell(step.run.replace(/8080/g, port), repo, env);
      results.push({ step, r });
      failed ||= r.code !== 0;
    }
    const ran = results.filter((x) => x.r !== undefined);
    const says = ran.map((x) => x.r?.stderr).join('\n');
    assert.deepEqual(ran.map((x) => x.r?.code), [0, 0, 1], `npm ci and the sandbox start pass; the test step fails for its failing request:\n${says}`);
    const test = ran[2].r as Done;
    assert.match(test.stdout, /^PASS requests\/lookups\.bizdata\.http:3 ipLookup/m);
    assert.match(test.stdout, /^FAIL requests\/lookups\.bizdata\.http:9 wrong/m);
    // The annotation on the failing assertion's line, relative to the repository.
    const annotations = test.stderr.split('\n').filter((l) => l.startsWith('::'));
    const title = 'title=bizdata test requests%3A wrong failed';
    const message = `wrong: GET http://127.0.0.1:${port}/v1/duns-search/ip/198.51.100.7 -> 200%0Aline 11: status == 404, actual 200`;
    assert.deepEqual(annotations, [`::error file=requests/lookups.bizdata.http,line=11,${title}::${message}`]);
    // The job's summary page.
    const page = await readFile(summary, 'utf8');
    assert.match(page, /^### Failed: bizdata test requests\n\n\*\*1 passed, 1 failed, 0 errors\*\* of 2 requests/);
    assert.match(page, /- \*\*requests\/lookups\.bizdata\.http:9\*\* wrong: .* → 200\n/);
    assert.match(page, /\n {2}- requests\/lookups\.bizdata\.http:11: `status == 404`, actual 200\n/);
    assert.match(page, /#### Slowest requests/);
    assert.match(page, /The full report: \[report\.html\]\(https:\/\/github\.com\/acme\/requests\/actions\/runs\/77#artifacts\) \(in this run's artifacts\)\./);
    // What the upload step keeps: the report and the JUnit file.
    const upload = results.find((x) => x.step.uses?.startsWith('actions/upload-artifact'));
    const kept = (upload?.step.with?.path ?? '').split('\n').filter((l) => l.trim() !== '');
    assert.deepEqual(kept, ['report.html', 'report.xml']);
    for (const f of kept) assert.ok((await stat(join(repo, f))).size > 0, `${f} is there to upload`);
    const xml = await readFile(join(repo, 'report.xml'), 'utf8');
    assert.deepEqual(await junitSchemaErrors(xml), []);
    const [suite] = await readJunit(xml);
    assert.deepEqual([suite.tests, suite.failures, suite.errors], [2, 1, 0]);
    assert.match(await readFile(join(repo, 'report.html'), 'utf8'), /<!DOCTYPE html>/i);
  });

  it('GitLab CI: the script fails at the failing test, and leaves the JUnit file, the report and the summary', async () => {
    const { setUp, gitlab } = guideBlocks();
    const repo = await repository(setUp);
    const port = String(await freePort());
    const r = await shell(gitlab.script.join('\n').replace(/8080/g, port), repo, { ...quietNpm(join(root, 'home')), CI: 'true', GITLAB_CI: 'true' });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^FAIL requests\/lookups\.bizdata\.http:9 wrong/m);
    assert.doesNotMatch(r.stderr, /^::/m, 'no GitHub workflow commands outside GitHub');
    for (const f of [...gitlab.artifacts.paths, gitlab.artifacts.reports.junit]) assert.ok((await stat(join(repo, f))).size > 0, `${f} is there to keep`);
    assert.deepEqual(await junitSchemaErrors(await readFile(join(repo, gitlab.artifacts.reports.junit), 'utf8')), []);
    const summary = await readFile(join(repo, 'summary.md'), 'utf8');
    assert.match(summary, /\*\*1 passed, 1 failed, 0 errors\*\*/);
    assert.match(summary, /The full report: \[report\.html\]\(report\.html\)\./);
  });
});
