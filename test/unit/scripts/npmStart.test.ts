// `npm start`'s traps, each told at once, before anything is built or started: a platform the
// workbench does not run on, an option npm would have passed on only after `--`, a port asked for
// that another program (another npm start) holds. Its forms that npm keeps for itself
// (`npm start --port N`) are read back from npm. The run that starts VS Code is the e2e suite's.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../docs/guides';
import { runTo } from '../cli/installedCli';

const START = join(ROOT, 'scripts', 'start.mjs');

function listening(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('npm_') && k !== 'BIZDATA_PORT') base[k] = v;
  return { ...base, ...extra };
};

describe('npm start: told at once, before the build', function () {
  this.timeout(30_000);

  it('on a platform other than Linux x64: says so and what to do there, exit 1, nothing built', async () => {
    const darwin = "data:text/javascript,Object.defineProperty(process,'platform',{value:'darwin'});Object.defineProperty(process,'arch',{value:'arm64'})";
    const r = await runTo(process.execPath, ['--import', darwin, START], ROOT, env());
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^\[start\] npm start runs VS Code in the browser from the Linux x64 build of the VS Code server, /);
    assert.match(r.stderr, /and this machine is darwin arm64\./);
    assert.match(r.stderr, /Here, open this folder in VS Code and press F5/);
    assert.equal(r.stdout, '', 'nothing built or started');
  });

  it('an option it does not take, or a bad port: what to write, with --', async () => {
    const typo = await runTo(process.execPath, [START, '--prot', '8001'], ROOT, env());
    const unknown = '[start] unknown option --prot. npm start takes --port N and --no-sandbox, after --: npm start -- --port 8001';
    assert.deepEqual([typo.code, typo.stderr.trim()], [1, unknown]);
    const bad = await runTo(process.execPath, [START], ROOT, env({ BIZDATA_PORT: 'eighty' }));
    assert.deepEqual([bad.code, bad.stderr.trim()], [1, '[start] --port (BIZDATA_PORT) must be a port number from 1 to 65535, not "eighty".']);
    assert.equal(typo.stdout + bad.stdout, '', 'nothing built or started');
  });

  it('a port asked for that is taken: says so and which to ask for instead, in every form npm passes it', async () => {
    const { server, port } = await listening();
    try {
      const says = `[start] port ${port} is in use (another npm start, or another program): stop it, or choose another port: npm start -- --port ${port + 1}`;
      for (const [args, extra] of [
        [['--port', String(port)], {}], // npm start -- --port N
        [[String(port)], { npm_config_port: 'true' }], // npm start --port N: npm keeps the flag, passes the number
        [[], { npm_config_port: String(port) }], // npm start --port=N
        [[], { BIZDATA_PORT: String(port) }],
      ] as const) {
        const r = await runTo(process.execPath, [START, ...args], ROOT, env(extra));
        assert.deepEqual([r.code, r.stderr.trim(), r.stdout], [1, says, ''], `${args.join(' ')} ${JSON.stringify(extra)}`);
      }
    } finally {
      server.close();
    }
  });
});
