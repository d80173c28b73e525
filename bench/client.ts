// npm run bench:client — figures for issue 4, measured in one run against a sandbox child process:
//  (a) per-call overhead of BizDataClient.lookupIp against a bare undici.request of the same URL
//      with the same headers (gzip asked for and decoded, JSON parsed): p50 ratio, goal <= 1.05 (issue 20);
//  (b) 1,000 lookups through runBatch under a sandbox limit of 50 QPS / concurrency 5: achieved
//      rate / 50 (goal >= 0.95), SC006 reaching the caller (goal 0), failures (goal 0), beside a
//      naive Promise.all and a sequential loop of bare requests with the same token.
// Ratios, not absolute times, are the result: they hold across machines.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { runBatch } from '../src/core/run/batch';
import { type BatchLine } from '../src/core/run/batchLines';
import { BizDataClient } from '../src/core/client';
import { INFLATE_INLINE_BYTES } from '../src/core/http/http';
import type { LookupQuery } from '../src/core/model';
import { MemoryGuardStore, MemoryTokenStore } from '../src/core/storage/stores';
import { DEMO_CREDENTIALS } from '../src/sandbox/defaults';
import { startSandboxProcess, type BenchSandbox } from './processes';

const gunzipAsync = promisify(gunzip);
const ORIGIN = 'https://bench.example.com';

type Sandbox = BenchSandbox;

async function startSandbox(dir: string, name: string, qps: number, concurrency: number): Promise<Sandbox> {
  return startSandboxProcess(dir, name, { qps, concurrency }, false);
}

async function stats(sb: Sandbox): Promise<{ dataCalls: number; resultCodes: Record<string, number>; maxConcurrency: number; tokenRequests: number }> {
  const res = await request(`${sb.url}/_sandbox/stats`, { headers: { 'x-sandbox-admin': sb.adminKey } });
  const body = (await res.body.json()) as { customers: Record<string, { dataCalls: number; resultCodes: Record<string, number>; maxConcurrency: number; tokenRequests: number }> };
  return body.customers.bench;
}

function newClient(url: string, limits: { qps: number; concurrency: number }): BizDataClient {
  return new BizDataClient({
    endpoints: { authUrl: url, baseUrl: url, legacyUrl: url, origin: ORIGIN, authVersion: 'V2.0', orgVersion: 'V4.0' },
    credentials: async (id) => DEMO_CREDENTIALS[id],
    tokenStore: new MemoryTokenStore(),
    guardStore: new MemoryGuardStore(),
    limits,
  });
}

/** The baseline: undici.request with the same headers, decoding and parsing as the client. */
async function bare(url: string, token: string): Promise<{ status: number; code?: string }> {
  const res = await request(url, { headers: { accept: 'application/json', 'accept-encoding': 'gzip', authorization: `Bearer ${token}`, origin: ORIGIN } });
  let raw = Buffer.from(await res.body.arrayBuffer());
  // Inflated as the client does (inline when small): the ratio is the client's own work, not a choice of zlib call.
  if (res.headers['content-encoding'] === 'gzip') raw = raw.length <= INFLATE_INLINE_BYTES ? gunzipSync(raw) : await gunzipAsync(raw);
  const json = JSON.parse(raw.toString('utf8')) as { error?: { errorCode?: string } };
  return { status: res.statusCode, code: json.error?.errorCode };
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const ms = (n: number): string => `${n.toFixed(3)} ms`;

async function overhead(dir: string): Promise<Record<string, number>> {
  const sb = await startSandbox(dir, 'overhead', 1_000_000, 1000);
  const client = newClient(sb.url, { qps: 0, concurrency: 64 });
  try {
    const ip = '203.0.113.7';
    const url = `${sb.url}/v1/duns-search/ip/${ip}?view=standard`;
    const first = await client.lookupIp({ ip });
    if (!first.ok) throw new Error(`warm-up failed: ${first.text}`);
    const token = (await client.revealToken('a')) ?? '';
    const rounds = 3000;
    for (let i = 0; i < 300; i++) {
      await bare(url, token);
      await client.lookupIp({ ip });
    }
    const tBare: number[] = [];
    const tClient: number[] = [];
    // Interleaved, so drift (GC, CPU frequency, the server's state) affects both equally.
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      const b = await bare(url, token);
      tBare.push(performance.now() - t);
      if (b.status !== 200) throw new Error(`bare request failed: ${b.status}`);
      t = performance.now();
      const c = await client.lookupIp({ ip });
      tClient.push(performance.now() - t);
      if (!c.ok) throw new Error(`client call failed: ${c.text}`);
    }
    const r = {
      rounds,
      bareP50: percentile(tBare, 50),
      clientP50: percentile(tClient, 50),
      bareP90: percentile(tBare, 90),
      clientP90: percentile(tClient, 90),
    };
    console.log('(a) per-call overhead, sequential calls, same URL and headers');
    console.log(`    bare undici.request p50 ${ms(r.bareP50)}  p90 ${ms(r.bareP90)}`);
    console.log(`    BizDataClient       p50 ${ms(r.clientP50)}  p90 ${ms(r.clientP90)}`);
    console.log(`    p50 ratio client/bare = ${(r.clientP50 / r.bareP50).toFixed(3)} (goal <= 1.05) over ${rounds} calls each`);
    return { ...r, p50Ratio: r.clientP50 / r.bareP50 };
  } finally {
    await client.dispose();
    sb.child.kill('SIGTERM');
  }
}

async function throughput(dir: string): Promise<Record<string, number>> {
  const LIMIT = 50;
  const N = 1000;
  const sb = await startSandbox(dir, 'throughput', LIMIT, 5);
  const client = newClient(sb.url, { qps: LIMIT, concurrency: 5 });
  try {
    const inputs: LookupQuery[] = Array.from({ length: N }, (_, i) => ({ kind: 'ip', ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }));
    const outFile = join(dir, 'batch.jsonl');
    const s0 = await stats(sb);
    const t0 = performance.now();
    const summary = await runBatch({ client, inputs, outFile, concurrency: 5 });
    const seconds = (performance.now() - t0) / 1000;
    const s1 = await stats(sb);
    const lines = (await readFile(outFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as BatchLine);
    const sc006ToCaller = lines.filter((l) => l.code === 'SC006').length;
    const failures = lines.filter((l) => !l.ok).length;
    const rate = summary.ok / seconds;
    const token = (await client.revealToken('a')) ?? '';
    const url = (i: number): string => `${sb.url}/v1/duns-search/ip/${inputs[i].kind === 'ip' ? (inputs[i] as { ip: string }).ip : ''}?view=standard`;

    // Let the service's one-second window empty before each comparison.
    await new Promise((r) => setTimeout(r, 1200));
    let t = performance.now();
    const naive = await Promise.all(inputs.map((_, i) => bare(url(i), token).catch(() => ({ status: 0, code: 'network' }))));
    const naiveSeconds = (performance.now() - t) / 1000;
    await new Promise((r) => setTimeout(r, 1200));
    t = performance.now();
    const sequential: Array<{ status: number; code?: string }> = [];
    for (let i = 0; i < N; i++) sequential.push(await bare(url(i), token));
    const seqSeconds = (performance.now() - t) / 1000;
    const count = (rs: Array<{ status: number; code?: string }>, pred: (r: { status: number; code?: string }) => boolean): number => rs.filter(pred).length;

    console.log(`(b) ${N} lookups, sandbox limit ${LIMIT} QPS / concurrency 5`);
    console.log(`    runBatch + BizDataClient: ${summary.ok} ok in ${seconds.toFixed(2)} s = ${rate.toFixed(2)}/s, rate/limit = ${(rate / LIMIT).toFixed(3)} (goal >= 0.95)`);
    console.log(`        SC006 reaching the caller: ${sc006ToCaller}; failures: ${failures}; SC006 absorbed by retries: ${(s1.resultCodes.SC006 ?? 0) - (s0.resultCodes.SC006 ?? 0)}; token requests: ${s1.tokenRequests}; max concurrency seen by the service: ${s1.maxConcurrency}`);
    console.log(`    naive Promise.all (bare):  ${count(naive, (r) => r.status === 200)} ok, ${count(naive, (r) => r.code === 'SC006')} SC006, in ${naiveSeconds.toFixed(2)} s`);
    console.log(`    sequential loop (bare):    ${count(sequential, (r) => r.status === 200)} ok, ${count(sequential, (r) => r.code === 'SC006')} SC006, in ${seqSeconds.toFixed(2)} s`);
    return {
      n: N,
      seconds,
      rateFraction: rate / LIMIT,
      sc006ToCaller,
      failures,
      sc006Absorbed: (s1.resultCodes.SC006 ?? 0) - (s0.resultCodes.SC006 ?? 0),
      naiveOk: count(naive, (r) => r.status === 200),
      naiveSc006: count(naive, (r) => r.code === 'SC006'),
      sequentialOk: count(sequential, (r) => r.status === 200),
      sequentialSc006: count(sequential, (r) => r.code === 'SC006'),
    };
  } finally {
    await client.dispose();
    sb.child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bizdata-bench-'));
  try {
    const a = await overhead(dir);
    const b = await throughput(dir);
    console.log(JSON.stringify({ overhead: a, throughput: b }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
