import * as assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { call, orgLookup, tokenB } from './helpers';

const ROOT = join(__dirname, '../../../..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface Run {
  child: ChildProcess;
  firstLine: Promise<string>;
  stdout: string[];
  stderr: string[];
  exit: Promise<number | null>;
}

function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  const firstLine = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', () => reject(new Error(`exited before printing: ${stderr.join('')}`)));
  });
  firstLine.catch(() => undefined);
  lines.on('line', (l) => stdout.push(l));
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, firstLine, stdout, stderr, exit };
}

describe('bizdata sandbox (command line)', function () {
  this.timeout(30000);
  const children: ChildProcess[] = [];
  let dir: string;

  before(async () => {
    // `npm run test:unit` builds first; build here too so running mocha alone still works.
    if (!existsSync(CLI)) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT });
    dir = await mkdtemp(join(tmpdir(), 'bizdata-cli-'));
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('prints exactly "Sandbox listening on http://HOST:PORT" first, serves, logs to stderr and stops on SIGTERM', async () => {
    const r = run(['sandbox', '--port', '0']);
    children.push(r.child);
    const first = await r.firstLine;
    assert.match(first, /^Sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = first.slice('Sandbox listening on '.length);
    const token = await tokenB({ url });
    assert.equal((await orgLookup({ url }, token)).status, 200);
    r.child.kill('SIGTERM');
    assert.equal(await r.exit, 0);
    const err = r.stderr.join('');
    assert.match(err, /POST \/Authentication\/V2\.0\/ 200 CM000/);
    assert.match(err, /GET \/V4\.0\/organizations 200 CM000/);
    assert.ok(!err.includes(token) && !err.includes('sandbox-password'));
    assert.match(r.stdout[1] ?? '', /^Admin key \(header x-sandbox-admin\): \S+$/);
  });

  it('takes the admin key from BIZDATA_SANDBOX_ADMIN_KEY and does not print it; stops on SIGINT', async () => {
    const r = run(['sandbox', '--port=0', '--host', '127.0.0.1'], { BIZDATA_SANDBOX_ADMIN_KEY: 'env-admin-key-1' });
    children.push(r.child);
    const url = (await r.firstLine).slice('Sandbox listening on '.length);
    assert.equal((await call({ url }, 'GET', '/_sandbox/stats', { headers: { 'x-sandbox-admin': 'env-admin-key-1' } })).status, 200);
    r.child.kill('SIGINT');
    assert.equal(await r.exit, 0);
    assert.ok(!r.stdout.join('\n').includes('env-admin-key-1'));
    assert.ok(!r.stderr.join('').includes('env-admin-key-1'));
  });

  it('uses --config and --state', async () => {
    const config = join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ adminKey: 'cfg-key', customers: [{ id: 'c', users: [{ user: 'cli-user', password: 'cli-password' }] }] }));
    const r = run(['sandbox', '--port', '0', '--config', config, '--state', join(dir, 'state.json')]);
    children.push(r.child);
    const url = (await r.firstLine).slice('Sandbox listening on '.length);
    assert.equal((await call({ url }, 'GET', '/_sandbox/stats', { headers: { 'x-sandbox-admin': 'cfg-key' } })).json.customers.c.tokenRequests, 0);
    await tokenB({ url }, 'cli-user', 'cli-password');
    r.child.kill('SIGTERM');
    assert.equal(await r.exit, 0);
    assert.equal(r.stdout.length, 1, 'no admin key line when the config gives the key');
  });

  it('refuses an invalid config at start, naming the file and the path, exit code 2', async () => {
    const config = join(dir, 'bad.json');
    await writeFile(config, JSON.stringify({ customers: [{ id: 'c', users: [{ user: 'u', password: 'p', locked: 'no' }] }] }));
    const r = run(['sandbox', '--port', '0', '--config', config]);
    children.push(r.child);
    assert.equal(await r.exit, 2);
    assert.match(r.stderr.join(''), /customers\[0\]\.users\[0\]\.locked/);
    assert.ok(r.stderr.join('').includes(config));
    assert.deepEqual(r.stdout, []);
  });

  it('explains bad options and shows --help', async () => {
    const bad = run(['sandbox', '--port', 'eighty']);
    children.push(bad.child);
    assert.equal(await bad.exit, 2);
    assert.match(bad.stderr.join(''), /--port must be a number/);
    const unknown = run(['sandbox', '--colour', 'red']);
    children.push(unknown.child);
    assert.equal(await unknown.exit, 2);
    assert.match(unknown.stderr.join(''), /Unknown option "--colour"/);
    const help = run(['sandbox', '--help']);
    children.push(help.child);
    assert.equal(await help.exit, 0);
    assert.match(help.stdout.join('\n'), /Usage: bizdata sandbox/);
    assert.match(help.stdout.join('\n'), /sandbox-user/);
  });

  it('reports a port in use instead of crashing silently', async () => {
    const first = run(['sandbox', '--port', '0']);
    children.push(first.child);
    const port = (await first.firstLine).split(':').pop() ?? '';
    const second = run(['sandbox', '--port', port]);
    children.push(second.child);
    assert.equal(await second.exit, 1);
    assert.match(second.stderr.join(''), /EADDRINUSE/);
    first.child.kill('SIGTERM');
    assert.equal(await first.exit, 0);
  });
});
