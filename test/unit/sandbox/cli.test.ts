import * as assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isLoopback } from '../../../src/cli/sandbox';
import { type CliRun, TestBed, call, delay, orgLookup, readState, tokenB, waitFor } from './helpers';

describe('bizdata sandbox (command line)', function () {
  this.timeout(30000);
  const bed = new TestBed();
  let dir: string;

  before(async () => {
    dir = await bed.tempDir();
  });
  after(() => bed.cleanup());

  it('prints exactly "Sandbox listening on http://HOST:PORT" first, serves, logs to stderr and stops on SIGTERM', async () => {
    const r = bed.cli(['--port', '0']);
    const url = await r.url;
    assert.match(r.stdout[0] ?? '', /^Sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
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
    const r = bed.cli(['--port=0', '--host', '127.0.0.1'], { BIZDATA_SANDBOX_ADMIN_KEY: 'env-admin-key-1' });
    const url = await r.url;
    assert.equal((await call({ url }, 'GET', '/_sandbox/stats', { headers: { 'x-sandbox-admin': 'env-admin-key-1' } })).status, 200);
    r.child.kill('SIGINT');
    assert.equal(await r.exit, 0);
    assert.ok(!r.stdout.join('\n').includes('env-admin-key-1'));
    assert.ok(!r.stderr.join('').includes('env-admin-key-1'));
  });

  it('uses --config and --state', async () => {
    const config = join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ adminKey: 'cfg-key', customers: [{ id: 'c', users: [{ user: 'cli-user', password: 'cli-password' }] }] }));
    const r = bed.cli(['--port', '0', '--config', config, '--state', join(dir, 'state.json')]);
    const url = await r.url;
    assert.equal((await call({ url }, 'GET', '/_sandbox/stats', { headers: { 'x-sandbox-admin': 'cfg-key' } })).json.customers.c.tokenRequests, 0);
    await tokenB({ url }, 'cli-user', 'cli-password');
    r.child.kill('SIGTERM');
    assert.equal(await r.exit, 0);
    assert.equal(r.stdout.length, 1, 'no admin key line when the config gives the key');
  });

  /** `bizdata sandbox --stop-with-stdin` with a state file, once it holds a token. */
  const watchingStdin = async (stateName: string): Promise<{ r: CliRun; tokens: () => Promise<number> }> => {
    const state = join(dir, stateName);
    const r = bed.cli(['--port', '0', '--stop-with-stdin', '--state', state]);
    await tokenB({ url: await r.url });
    // readState parses the file as one JSON value: it fails unless a clean stop rewrote the journal as one snapshot.
    return { r, tokens: async () => Object.keys((await readState(state)).tokens).length };
  };

  it('--stop-with-stdin: stops when standard input closes, by the path of SIGTERM (exit 0, state file compacted)', async () => {
    const { r, tokens } = await watchingStdin('stdin-state.json');
    r.child.stdin!.end();
    assert.equal(await r.exit, 0);
    assert.match(r.stderr.join(''), /^Sandbox stopped \(standard input closed\)\.$/m);
    assert.equal(await tokens(), 1);
  });

  it('--stop-with-stdin: when every pipe closes at once, as when its parent dies, it still stops cleanly', async () => {
    const { r, tokens } = await watchingStdin('orphan-state.json');
    // No one reads its output any more: its last words ("Sandbox stopped") meet a closed pipe.
    r.child.stdout!.destroy();
    r.child.stderr!.destroy();
    r.child.stdin!.destroy();
    assert.equal(await r.exit, 0);
    assert.equal(await tokens(), 1);
  });

  it('without --stop-with-stdin, keeps serving after standard input closes', async () => {
    const r = bed.cli(['--port', '0']);
    const url = await r.url;
    r.child.stdin!.end();
    // Ten times what --stop-with-stdin needs to stop (the tests above).
    await delay(1000);
    assert.equal(r.child.exitCode, null, r.stderr.join(''));
    assert.equal((await orgLookup({ url }, await tokenB({ url }))).status, 200);
    r.child.kill('SIGTERM');
    assert.equal(await r.exit, 0);
    assert.match(r.stderr.join(''), /^Sandbox stopped\.$/m);
  });

  it('refuses an invalid config at start, naming the file and the path, exit code 2', async () => {
    const config = join(dir, 'bad.json');
    await writeFile(config, JSON.stringify({ customers: [{ id: 'c', users: [{ user: 'u', password: 'p', locked: 'no' }] }] }));
    const r = bed.cli(['--port', '0', '--config', config]);
    assert.equal(await r.exit, 2);
    assert.match(r.stderr.join(''), /customers\[0\]\.users\[0\]\.locked/);
    assert.ok(r.stderr.join('').includes(config));
    assert.deepEqual(r.stdout, []);
  });

  it('refuses a --state file in a folder that does not exist: exit code 2, the folder named, nothing on stdout', async () => {
    const state = join(dir, 'missing-folder', 'state.json');
    const r = bed.cli(['--port', '0', '--state', state]);
    assert.equal(await r.exit, 2);
    assert.match(r.stderr.join(''), /Cannot keep the sandbox state in .*state\.json: the folder .*missing-folder does not exist\. Create it, or choose another --state file\./);
    assert.deepEqual(r.stdout, []);
  });

  it('refuses a fixtures folder whose routes.json is wrong: exit code 2, the file and the entry named', async () => {
    const fixtures = join(dir, 'bad-fixtures');
    await mkdir(fixtures);
    await writeFile(join(fixtures, 'routes.json'), JSON.stringify({ routes: [{ name: 'Odd', path: '/x', status: 700 }] }));
    const r = bed.cli(['--port', '0', '--fixtures', fixtures]);
    assert.equal(await r.exit, 2);
    assert.match(r.stderr.join(''), /Invalid fixtures route in .*routes\.json at routes\[0\] \("Odd"\)\.status: must be an integer from 200 to 599/);
  });

  it('explains bad options and shows --help', async () => {
    const bad = bed.cli(['--port', 'eighty']);
    assert.equal(await bad.exit, 2);
    assert.match(bad.stderr.join(''), /--port must be a number/);
    const unknown = bed.cli(['--colour', 'red']);
    assert.equal(await unknown.exit, 2);
    assert.equal(unknown.stderr.join('').trim(), 'bizdata sandbox: unknown option --colour.\nRun "bizdata sandbox --help" for its options.');
    const typo = bed.cli(['--prot', '8080']);
    assert.equal(await typo.exit, 2);
    assert.match(typo.stderr.join(''), /unknown option --prot\. Did you mean --port\?/);
    const help = bed.cli(['--help']);
    assert.equal(await help.exit, 0);
    assert.match(help.stdout.join('\n'), /Usage: bizdata sandbox/);
    assert.match(help.stdout.join('\n'), /sandbox-user/);
    assert.match(help.stdout.join('\n'), /--stop-with-stdin {2}stop when standard input closes/);
  });

  it('a port in use: exit 2, one line naming the port and --port, no raw EADDRINUSE', async () => {
    const first = bed.cli(['--port', '0']);
    const port = Number((await first.url).split(':').pop());
    const second = bed.cli(['--port', String(port)]);
    assert.equal(await second.exit, 2);
    const lines = second.stderr.join('').trim().split('\n');
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], new RegExp(`^bizdata sandbox: port ${port} is already in use on 127\\.0\\.0\\.1 `));
    assert.match(lines[0], new RegExp(`--port ${port + 1}, or --port 0 for any free one\\.$`));
    assert.doesNotMatch(lines[0], /EADDRINUSE/);
    assert.deepEqual(second.stdout, []);
    first.child.kill('SIGTERM');
    assert.equal(await first.exit, 0);
  });

  it('warns on stderr when --host is not loopback: the demo credentials are then open to the network', async () => {
    const stderrOf = async (host: string, extra: readonly string[] = []): Promise<string> => {
      const r = bed.cli(['--port', '0', '--host', host, ...extra]);
      await r.url;
      // The warning follows the address line; then the first request's log line shows stderr is flowing.
      await call({ url: await r.url }, 'GET', '/no-such-path');
      await waitFor('the request log line', () => (r.stderr.join('').includes('/no-such-path') ? true : undefined));
      r.child.kill('SIGTERM');
      assert.equal(await r.exit, 0);
      return r.stderr.join('');
    };
    const open = await stderrOf('0.0.0.0');
    assert.match(open, /^Warning: --host 0\.0\.0\.0 is not a loopback address, so the sandbox is open to the network: anyone who can reach this machine can sign in with its demo credentials .* Use --host 127\.0\.0\.1 \(the default\)/m);
    const config = join(dir, 'own.json');
    await writeFile(config, JSON.stringify({ customers: [{ id: 'c', users: [{ user: 'u', password: 'p' }] }] }));
    assert.match(await stderrOf('0.0.0.0', ['--config', config]), new RegExp(`sign in with the accounts of ${config.replace(/[.\\/]/g, '\\$&')} and call it`));
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost']) assert.doesNotMatch(await stderrOf(host), /Warning/, host);
  });

  it('counts 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost as loopback, and nothing else', () => {
    for (const host of ['127.0.0.1', '127.255.0.9', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST', 'localhost.']) assert.equal(isLoopback(host), true, host);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', '::ffff:10.0.0.1', 'example.com', 'localhost.example.com', '']) assert.equal(isLoopback(host), false, host);
  });
});
