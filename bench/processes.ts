// What the process benchmarks share: a sandbox in a child process (its request log read for the
// time of every call), real `bizdata` processes, and a real redis-server.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { DEMO_CREDENTIALS } from '../src/sandbox/defaults';

export const CLI = resolve(__dirname, '../../dist/cli.js');

/** Runs a benchmark: an error is printed, and the exit status is 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}

export interface BenchSandbox {
  readonly url: string;
  readonly adminKey: string;
  readonly child: ChildProcess;
  /** Arrival times (epoch ms) of the data calls the sandbox answered, with their result code. */
  readonly calls: Array<{ readonly at: number; readonly code: string }>;
}

export interface CustomerStats {
  dataCalls: number;
  tokenRequests: number;
  authFailures: number;
  maxConcurrency: number;
  resultCodes: Record<string, number>;
}

/**
 * A sandbox in a child process, so its work does not share the event loop of what is measured. `calls`
 * stays empty unless `timeCalls`; `port` 0 takes a free one.
 */
export async function startSandboxProcess(
  dir: string,
  name: string,
  customer: { qps: number; concurrency: number; responseDelayMs?: number },
  timeCalls = true,
  port = 0,
): Promise<BenchSandbox> {
  const config = join(dir, `${name}.json`);
  const adminKey = `bench-admin-${name}`;
  const { a, b } = DEMO_CREDENTIALS;
  await writeFile(config, JSON.stringify({ customers: [{ id: 'bench', ...customer, clients: [{ consumerKey: a.consumerKey, consumerSecret: a.consumerSecret }], users: [{ user: b.user, password: b.password }] }] }));
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', String(port), '--config', config, '--admin-key', adminKey], { stdio: ['ignore', 'pipe', timeCalls ? 'pipe' : 'ignore'] });
  const calls: Array<{ at: number; code: string }> = [];
  // "<iso> GET /v1/duns-search/ip/… <status> <code|-> <ms>ms", written when the answer is sent.
  if (child.stderr) createInterface({ input: child.stderr }).on('line', (line) => {
    const m = /^(\S+Z) GET \/(?:v1\/duns-search|V\d\.\d\/organizations)\S* (\d+) (\S+) ([\d.]+)ms/.exec(line);
    if (m) calls.push({ at: Date.parse(m[1]) - Number(m[4]), code: m[3] === '-' ? m[2] : m[3] });
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`sandbox exited with ${code}`)));
    lines.on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/i.exec(line);
      if (m) ok(m[1]);
    });
  });
  return { url, adminKey, child, calls };
}

export async function customerStats(sb: BenchSandbox): Promise<CustomerStats> {
  const res = await request(`${sb.url}/_sandbox/stats`, { headers: { 'x-sandbox-admin': sb.adminKey } });
  return ((await res.body.json()) as { customers: Record<string, CustomerStats> }).customers.bench;
}

export async function admin(sb: BenchSandbox, method: 'GET' | 'POST', path: string): Promise<unknown> {
  const res = await request(`${sb.url}/_sandbox/${path}`, { method, headers: { 'x-sandbox-admin': sb.adminKey } });
  return res.body.json();
}

/** The most calls that arrived within any one second. */
export function busiestSecond(times: readonly number[]): number {
  const t = [...times].sort((x, y) => x - y);
  let most = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j] - t[i] >= 1000) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

/** Starts `bizdata ARGS` with the sandbox's demo credentials in the environment. */
export function startCli(args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<{ code: number; stdout: string; stderr: string }> } {
  const { a, b } = DEMO_CREDENTIALS;
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BIZDATA_')) base[k] = v;
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...base, BIZDATA_CONSUMER_KEY: a.consumerKey, BIZDATA_CONSUMER_SECRET: a.consumerSecret, BIZDATA_USER: b.user, BIZDATA_PASSWORD: b.password, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((r) => child.once('exit', (code) => r({ code: code ?? -1, stdout, stderr })));
  return { child, done };
}

/** Connection settings of a sandbox for `bizdata`, without its demo-credential shortcut. */
export function sandboxEnv(url: string, stateDir: string): Record<string, string> {
  return { BIZDATA_AUTH_URL: url, BIZDATA_BASE_URL: url, BIZDATA_LEGACY_URL: url, BIZDATA_ORIGIN: 'https://bench.example.com', BIZDATA_STATE_DIR: stateDir };
}

export const ips = (n: number, base = 0): string[] => Array.from({ length: n }, (_, i) => `10.${((base + i) >> 16) & 255}.${((base + i) >> 8) & 255}.${(base + i) & 255}`);
