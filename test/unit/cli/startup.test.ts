// What the command line loads for each command (issue 27): the built dist/cli.js run as a real
// process with a preload that writes, at exit, every module file it loaded. Light commands (explain,
// --version, --help) and import must not load the bundle with the client and undici; a service command must.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tempDirs } from '../tempDirs';
import { sandbox } from '../core/harness';
import { canaryEnv, CLI, cliEnv } from './cliHarness';

/** undici's error codes (UND_ERR_…) survive minifying: a bundle holding undici holds them. */
const UNDICI_MARK = 'UND_ERR_';

describe('bizdata loads what the command needs', () => {
  const dirs = tempDirs();

  /** Runs the CLI (in `dir`, with `env`); returns its output and the dist/ bundles it loaded, by file name. */
  async function loaded(args: readonly string[], env: Record<string, string> = {}, folder?: string): Promise<{ readonly stdout: string; readonly bundles: string[] }> {
    const dir = folder ?? (await dirs.make('bizdata-startup-'));
    const preload = join(dir, 'record.cjs');
    const record = join(dir, 'loaded.json');
    await writeFile(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(Object.keys(require.cache))));\n`);
    const stdout = await new Promise<string>((done, fail) =>
      execFile(process.execPath, ['--require', preload, CLI, ...args], { env: cliEnv(env, dir), timeout: 20_000 }, (err, out, stderr) => (err ? fail(new Error(`${err.message}\n${stderr}`)) : done(out))),
    );
    const files = JSON.parse(await readFile(record, 'utf8')) as string[];
    return { stdout, bundles: files.filter((f) => dirname(f) === dirname(CLI)).map((f) => basename(f)).sort() };
  }

  async function holdsUndici(bundle: string): Promise<boolean> {
    return (await readFile(join(dirname(CLI), bundle), 'utf8')).includes(UNDICI_MARK);
  }

  it('explain SC006 loads the entry and the codes bundle, without undici', async () => {
    const run = await loaded(['explain', 'SC006']);
    assert.match(run.stdout, /SC006/);
    assert.deepEqual(run.bundles, ['cli.js', 'cliCodes.js']);
    for (const b of run.bundles) assert.equal(await holdsUndici(b), false, `${b} holds undici`);
  });

  it('--version and --help load the entry alone', async () => {
    const version = await loaded(['--version']);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    assert.deepEqual(version.bundles, ['cli.js']);
    const help = await loaded(['--help']);
    assert.match(help.stdout, /Usage: bizdata <command>/);
    assert.deepEqual(help.bundles, ['cli.js']);
    assert.equal(await holdsUndici('cli.js'), false);
  });

  it('import loads the entry and its own bundle (the readers and the YAML parser), without undici', async () => {
    const run = await loaded(['import', '--help']);
    assert.match(run.stdout, /Usage: bizdata import postman/);
    assert.deepEqual(run.bundles, ['cli.js', 'cliImport.js']);
    assert.equal(await holdsUndici('cliImport.js'), false);
  });

  it('a command that calls the service loads the bundle with the client and undici', async () => {
    const run = await loaded(['ip', '--help']);
    assert.match(run.stdout, /Usage: bizdata ip/);
    assert.deepEqual(run.bundles, ['cli.js', 'cliService.js']);
    assert.equal(await holdsUndici('cliService.js'), true);
  });

  it('JSON Schema (ajv) is a bundle apart: bizdata test loads it for a ?? schema line only', async () => {
    // ajv's own sentence: in dist/jsonSchema.js, and in no bundle that loads at start or for every run.
    const MARK = 'must have required property';
    for (const b of ['cli.js', 'cliService.js', 'extension.js', 'workbench.js']) assert.equal((await readFile(join(dirname(CLI), b), 'utf8')).includes(MARK), false, b);
    assert.equal((await readFile(join(dirname(CLI), 'jsonSchema.js'), 'utf8')).includes(MARK), true);
    const sb = await sandbox();
    try {
      const dir = await dirs.make('bizdata-startup-schema-');
      await writeFile(join(dir, 'a.schema.json'), '{ "type": "object" }');
      await writeFile(join(dir, 'plain.bizdata.http'), 'GET {{baseUrl}}/v1/duns-search/ip/8.8.8.8\n?? status == 200\n');
      await writeFile(join(dir, 'schema.bizdata.http'), 'GET {{baseUrl}}/v1/duns-search/ip/8.8.8.8\n?? schema ./a.schema.json\n');
      const plain = await loaded(['test', join(dir, 'plain.bizdata.http')], canaryEnv(sb.url), dir);
      assert.ok(!plain.bundles.includes('jsonSchema.js'), plain.bundles.join(', '));
      const schema = await loaded(['test', join(dir, 'schema.bizdata.http')], canaryEnv(sb.url), dir);
      assert.match(schema.stdout, /^PASS /m);
      assert.ok(schema.bundles.includes('jsonSchema.js'), schema.bundles.join(', '));
    } finally {
      await sb.close();
    }
  });
});
