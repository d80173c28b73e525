// npm run bench:contract — what counting a contract's calls costs (issue 35), measured in one run
// against a sandbox child process, each figure beside a baseline of the same run:
//  (a) per-call: lookupIp through a client that counts in the state directory (one byte appended per
//      call, a stat for the SC005 mark) against the same client without a contract, interleaved: the
//      p50 difference, goal <= 0.1 ms (a call to the real service takes tens of milliseconds; on
//      loopback, the ratio is printed beside it);
//  (b) a batch of 2,000 lookups at 400 QPS / 16 at once with and without the count: rate ratio, goal
//      >= 0.97, and the client's count against the sandbox's own (goal: equal);
//  (c) the count alone: FileUsageStore.take per call, in microseconds, beside an fs.stat of the same folder.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractScope } from '../src/core/accounts/session';
import { ContractMeter } from '../src/core/contract/meter';
import { BizDataClient } from '../src/core/client';
import type { Credentials, Endpoints, InterfaceId, LookupQuery } from '../src/core/model';
import { runBatch } from '../src/core/run/batch';
import { MemoryGuardStore, MemoryTokenStore } from '../src/core/storage/stores';
import { FileUsageStore } from '../src/core/storage/usageFiles';
import { DEMO_CREDENTIALS } from '../src/sandbox/defaults';
import { customerStats, ips, runBench, startSandboxProcess } from './processes';

const CONTRACT = { maxCalls: 1_000_000_000, period: 'month', startsOn: '2025-01-01' } as const;

function client(endpoints: Endpoints, limits: { qps: number; concurrency: number }, meter?: ContractMeter): BizDataClient {
  const credentials = async (id: InterfaceId): Promise<Credentials> => DEMO_CREDENTIALS[id];
  return new BizDataClient({ endpoints, credentials, tokenStore: new MemoryTokenStore(), guardStore: new MemoryGuardStore(), limits, contract: meter });
}

function p50(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bizdata-bench-contract-'));
  const sb = await startSandboxProcess(dir, 'contract', { qps: 1_000_000, concurrency: 1000 }, false);
  try {
    const at = sb.url;
    const endpoints: Endpoints = { authUrl: at, baseUrl: at, legacyUrl: at, origin: 'https://bench.example.com', authVersion: 'V2.0', orgVersion: 'V4.0' };
    const store = new FileUsageStore(join(dir, 'state'));
    const meter = new ContractMeter({ scope: contractScope('bench', endpoints), connection: 'bench', contract: CONTRACT, store });
    const plain = client(endpoints, { qps: 0, concurrency: 64 });
    const counted = client(endpoints, { qps: 0, concurrency: 64 }, meter);
    const ip = { ip: '203.0.113.7' };
    for (let i = 0; i < 300; i++) {
      await plain.lookupIp(ip);
      await counted.lookupIp(ip);
    }
    const tPlain: number[] = [];
    const tCounted: number[] = [];
    for (let i = 0; i < 3000; i++) {
      let t = performance.now();
      await plain.lookupIp(ip);
      tPlain.push(performance.now() - t);
      t = performance.now();
      await counted.lookupIp(ip);
      tCounted.push(performance.now() - t);
    }
    const ratioA = p50(tCounted) / p50(tPlain);
    const added = p50(tCounted) - p50(tPlain);
    console.log(`(a) per call: p50 ${p50(tCounted).toFixed(3)} ms counted, ${p50(tPlain).toFixed(3)} ms not`);
    console.log(`    ${added.toFixed(3)} ms added (goal <= 0.1 ms), ratio ${ratioA.toFixed(3)} on loopback`);
    await plain.dispose();
    await counted.dispose();

    const batch = async (name: string, m?: ContractMeter): Promise<number> => {
      const c = client(endpoints, { qps: 400, concurrency: 16 }, m);
      try {
        const inputs: LookupQuery[] = ips(2000, name === 'counted' ? 10_000 : 20_000).map((x) => ({ kind: 'ip', ip: x }));
        const t0 = performance.now();
        const s = await runBatch({ client: c, inputs, outFile: join(dir, `${name}.jsonl`), concurrency: 16 });
        return s.ok / ((performance.now() - t0) / 1000);
      } finally {
        await c.dispose();
      }
    };
    await new Promise((r) => setTimeout(r, 1200));
    const before = (await customerStats(sb)).dataCalls;
    const usedBefore = (await meter.usage()).used;
    const ratePlain = await batch('plain');
    await new Promise((r) => setTimeout(r, 1200));
    const middle = (await customerStats(sb)).dataCalls;
    const rateCounted = await batch('counted', meter);
    const service = (await customerStats(sb)).dataCalls - middle;
    const mine = (await meter.usage()).used - usedBefore;
    const rates = `${rateCounted.toFixed(1)}/s counted, ${ratePlain.toFixed(1)}/s not`;
    console.log(`(b) 2,000 lookups at 400 QPS / 16: ${rates}: ratio ${(rateCounted / ratePlain).toFixed(3)} (goal >= 0.97)`);
    console.log(`    counted by the client ${mine}, by the sandbox ${service} (goal: equal; the plain batch made ${middle - before})`);

    const N = 10_000;
    let t = performance.now();
    for (let i = 0; i < N; i++) await store.take('alone', '2025-06-01', 86_400_000);
    const takeUs = ((performance.now() - t) * 1000) / N;
    t = performance.now();
    for (let i = 0; i < N; i++) await stat(join(dir, 'state'));
    const statUs = ((performance.now() - t) * 1000) / N;
    const takes = (await store.read('alone', '2025-06-01')).used;
    console.log(`(c) FileUsageStore.take: ${takeUs.toFixed(1)} µs a call (an fs.stat: ${statUs.toFixed(1)} µs); ${takes} counted`);
    const figures = { perCallAddedMs: added, perCallRatio: ratioA, batchRateRatio: rateCounted / ratePlain, clientCount: mine, sandboxCount: service };
    console.log(JSON.stringify({ ...figures, takeMicroseconds: takeUs, statMicroseconds: statUs }));
  } finally {
    sb.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

runBench(main);
