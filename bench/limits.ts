// npm run bench:limits — issue 11's figures, from one run: 1,000 IP lookups per setting through a
// real `bizdata batch` process against a sandbox process at 50 QPS / concurrency 5, and against one
// whose data calls take 200 ms (there concurrency binds: 5 / 0.2 s = 25 per second). Each setting
// gets a fresh sandbox, so none inherits another's second; the second `auto` run's listens where the
// first's did, since what is learned is kept per account and service address. Per setting: wall
// time, successful lookups per second / the true limit, SC006 answers the service sent, SC006
// reaching the caller, token requests, and the busiest second the service saw. Ratios against the
// true limit are the result.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchLine } from '../src/core/batch';
import { busiestSecond, customerStats, ips, sandboxEnv, startCli, startSandboxProcess } from './processes';

interface Setting {
  readonly name: string;
  readonly args: string[];
  readonly state: string;
  readonly delayMs?: number;
  readonly limit: number;
  readonly target: number;
  /** Served at the address of an earlier setting's (fresh) sandbox: what is learned is kept per service address. */
  readonly sameAddressAs?: string;
}

async function measure(dir: string, s: Setting, i: number, port: number): Promise<{ row: Record<string, number | string>; port: number }> {
  const sb = await startSandboxProcess(dir, `limits-${i}`, { qps: 50, concurrency: 5, responseDelayMs: s.delayMs }, true, port);
  const exited = new Promise((resolve) => sb.child.once('exit', resolve));
  try {
    const input = join(dir, 'ips.txt');
    const out = join(dir, `out-${i}.jsonl`);
    await writeFile(input, ips(1000).join('\n'));
    const t0 = performance.now();
    const r = await startCli(['batch', input, '--out', out, ...s.args], sandboxEnv(sb.url, join(dir, s.state))).done;
    const wall = (performance.now() - t0) / 1000;
    if (r.code !== 0) throw new Error(`${s.name}: exit ${r.code}: ${r.stderr.slice(-400)}`);
    const summary = JSON.parse(r.stdout) as { ok: number; durationMs: number; learnedQps?: number; learnedConcurrency?: number };
    const st = await customerStats(sb);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as BatchLine);
    const rate = summary.ok / (summary.durationMs / 1000);
    const sc006 = st.resultCodes.SC006 ?? 0;
    const row = {
      setting: s.name,
      wallSeconds: Number(wall.toFixed(2)),
      batchSeconds: Number((summary.durationMs / 1000).toFixed(2)),
      ok: summary.ok,
      ofTrueLimit: Number((rate / s.limit).toFixed(3)),
      target: s.target,
      sc006Sent: sc006,
      sc006Share: Number((sc006 / st.dataCalls).toFixed(4)),
      sc006ToCaller: lines.filter((l) => l.code === 'SC006').length,
      tokenRequests: st.tokenRequests,
      // Calls by the sandbox's clock (stamps bunch up when its process runs late) and by this run's
      // results (completion times of the accepted calls).
      busiestSecond: busiestSecond(sb.calls.map((c) => c.at)),
      busiestSecondOfResults: busiestSecond(lines.map((l) => Date.parse(l.at))),
      learned: `${summary.learnedQps ?? '-'}/s, ${summary.learnedConcurrency ?? '-'} at once`,
    };
    return { row, port: Number(new URL(sb.url).port) };
  } finally {
    sb.child.kill('SIGTERM');
    // Its port is free again for a setting that needs the same address.
    await exited;
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bizdata-bench-limits-'));
  const settings: Setting[] = [
    { name: '--qps 50 --concurrency 5', args: ['--qps', '50', '--concurrency', '5'], state: 's1', limit: 50, target: 0.9 },
    { name: '--qps 100 --concurrency 10', args: ['--qps', '100', '--concurrency', '10'], state: 's2', limit: 50, target: 0.9 },
    { name: '--qps 500 --concurrency 50', args: ['--qps', '500', '--concurrency', '50'], state: 's3', limit: 50, target: 0.9 },
    { name: 'auto', args: [], state: 'auto', limit: 50, target: 0.9 },
    { name: 'auto again (learned)', args: [], state: 'auto', limit: 50, target: 0.95, sameAddressAs: 'auto' },
    { name: 'auto, 200 ms calls', args: [], state: 's6', delayMs: 200, limit: 25, target: 0.9 },
    { name: '--qps 20 (cap below the limit)', args: ['--qps', '20'], state: 's7', limit: 20, target: 0.9 },
  ];
  try {
    const rows: Array<Record<string, number | string>> = [];
    // `node out/bench/limits.js auto` runs only the settings whose name contains "auto".
    const only = process.argv[2];
    const ports = new Map<string, number>();
    for (const [i, s] of settings.entries()) {
      if (only !== undefined && !s.name.includes(only)) continue;
      const { row, port } = await measure(dir, s, i, (s.sameAddressAs && ports.get(s.sameAddressAs)) || 0);
      ports.set(s.name, port);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
    console.log('\nsetting                          wall s  ok/s÷limit (target)  SC006 sent (share)  to caller  tokens  busiest s (results)  learned');
    for (const r of rows) {
      console.log(
        `${String(r.setting).padEnd(32)} ${String(r.wallSeconds).padStart(6)}  ${String(r.ofTrueLimit).padStart(6)} (>= ${r.target})     ${String(r.sc006Sent).padStart(5)} (${(Number(r.sc006Share) * 100).toFixed(1)} %)    ${String(r.sc006ToCaller).padStart(5)}    ${String(r.tokenRequests).padStart(4)}  ${String(r.busiestSecond).padStart(9)} (${r.busiestSecondOfResults})  ${r.learned}`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
