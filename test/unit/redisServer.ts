// A real redis-server for the tests: Debian's package (installed here with apt-get when missing and
// running as root, as the harness does for Chromium), on a free loopback port, with a throwaway
// directory and no persistence, stopped by its pid.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** redis-cli with arguments, against this server; returns stdout. */
  cli(...args: string[]): string;
  /** Stops it (SIGKILL: as if the machine went away), keeping the port for a restart. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function ensureInstalled(): void {
  if (spawnSync('redis-server', ['--version']).status === 0) return;
  if (process.getuid?.() !== 0) throw new Error('redis-server is missing: install it (Debian: sudo apt-get install redis-server).');
  execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server'], { stdio: 'inherit' });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function launch(port: number, dir: string, password: string | undefined): Promise<ChildProcess> {
  const auth = password === undefined ? [] : ['--requirepass', password];
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', ...auth], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (b: Buffer): void => {
      out += b.toString();
      if (/Ready to accept connections/.test(out)) resolve();
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out.slice(-500)}`)));
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

/** `password`: the server asks for it (--requirepass), and redis-cli gives it. */
export async function startRedis(o: { readonly password?: string } = {}): Promise<RedisServer> {
  ensureInstalled();
  const dir = await mkdtemp(join(tmpdir(), 'bizdata-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, dir, o.password);
  const killWith = async (signal: NodeJS.Signals): Promise<void> => {
    const c = child;
    child = undefined;
    if (!c?.pid) return;
    process.kill(c.pid, signal);
    await exited(c);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    // The password through the environment: an argument would show in the process list.
    cli: (...args) => execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', env: o.password === undefined ? process.env : { ...process.env, REDISCLI_AUTH: o.password } }),
    kill: () => killWith('SIGKILL'),
    restart: async () => {
      child = await launch(port, dir, o.password);
    },
    stop: async () => {
      await killWith('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
