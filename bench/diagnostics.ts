// npm run bench:diagnostics — figures for issue 12: a large response is scanned for result codes
// without freezing the editor. For JSON answers of 1, 10 and 50 MB (pretty-printed, as the result
// editor shows them, with codes spread through), measured in one run:
//  - JSON.parse of the text: the baseline, which holds the thread for all of its time;
//  - the extension's scan (CodeScanner: slices to a worker thread, the same finder, findings back):
//    its wall time, the ratio to JSON.parse, and the longest event-loop block while it ran, read both
//    from perf_hooks.monitorEventLoopDelay (1 ms resolution) and from a 1 ms interval timer's longest
//    gap; goal: under 50 ms at every size; and the scanner's own longest synchronous step (slicing
//    and posting), which is what the scan itself costs the thread;
//  - for comparison, the same finder run inline on the main thread (how long it would block), and the
//    longest gap of the same timer over as long an idle spell: what the machine's scheduling alone
//    causes (on a loaded machine, tens of milliseconds).
// Garbage from JSON.parse and from building the text is collected before each measured scan, so the
// blocks counted are the scan's. Run with --expose-gc after `npm run build` (the worker is
// dist/scanWorker.js); `npm run bench:diagnostics` does both.
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { CodeScanner } from '../src/features/shared/codeScanner';
import { findCodes } from '../src/features/shared/findCodes';

const WORKER = resolve(__dirname, '../../dist/scanWorker.js');
const SIZES_MB = (process.env.BENCH_SIZES_MB ?? '1,10,50').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL_MS = 50;

/** A search answer of about `mb` megabytes: candidates, with a failing code in every 200th. */
function response(mb: number): string {
  const sample = answer(1000).length / 1000;
  return answer(Math.max(1, Math.round((mb * 1024 * 1024) / sample)));
}

function answer(count: number): string {
  const candidates: unknown[] = [];
  for (let i = 0; i < count; i++) {
    candidates.push({
      DisplaySequence: i + 1,
      DUNSNumber: String(100_000_000 + i),
      OrganizationPrimaryName: { OrganizationName: { $: `Example Organization ${i} (Sandbox)` } },
      PrimaryAddress: { streetAddress: `${i} Example Street`, addressLocality: 'Sandbox City', postalCode: String(10_000 + (i % 89_999)), countryISOAlpha2Code: 'GB' },
      ...(i % 200 === 0 ? { TransactionResult: { SeverityText: 'Error', ResultID: i % 400 === 0 ? 'SC006' : 'SC001', ResultText: 'refused' } } : {}),
    });
  }
  const body = { MatchResponse: { TransactionDetail: { ApplicationTransactionID: 'bench', ServiceTransactionID: 'bench-1' }, TransactionResult: { ResultID: 'CM000', ResultText: 'Success' }, MatchCandidate: candidates } };
  return `${JSON.stringify(body, null, 2)}\n`;
}

interface Blocks {
  stop(): { readonly histogramMs: number; readonly intervalMs: number };
}

/** Watches the event loop: the histogram's longest delay, and the longest gap between 1 ms ticks. */
function watchBlocks(): Blocks {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(tick);
      histogram.disable();
      // Both include the 1 ms they wait by design.
      return { histogramMs: Math.max(0, histogram.max / 1e6 - 1), intervalMs: Math.max(0, Math.max(longest, performance.now() - last) - 1) };
    },
  };
}

/** Collects garbage now, when the process runs with --expose-gc. */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  console.log(`bench:diagnostics — Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${ROUNDS} rounds, medians (block: the worst round)`);
  const scanner = new CodeScanner(WORKER);
  try {
    // The worker starts on first use; start it before measuring.
    await scanner.scan(response(0.1));
    const rows: string[][] = [['size', 'JSON.parse', 'scan', 'scan/parse', 'longest block (histogram)', 'longest block (1 ms timer)', 'idle gap (noise)', 'longest own step', 'findings', 'inline scan would block']];
    let worst = 0;
    for (const mb of SIZES_MB) {
      const text = response(mb);
      const parse: number[] = [];
      const scan: number[] = [];
      const inline: number[] = [];
      let blockHistogram = 0;
      let blockInterval = 0;
      let noise = 0;
      let step = 0;
      let findings = 0;
      for (let round = 0; round < ROUNDS; round++) {
        let t = performance.now();
        JSON.parse(text);
        parse.push(performance.now() - t);
        collect();
        const blocks = watchBlocks();
        t = performance.now();
        findings = (await scanner.scan(text)).length;
        scan.push(performance.now() - t);
        const b = blocks.stop();
        blockHistogram = Math.max(blockHistogram, b.histogramMs);
        blockInterval = Math.max(blockInterval, b.intervalMs);
        step = Math.max(step, scanner.lastLongestStepMs);
        const idle = watchBlocks();
        await sleep(scan[scan.length - 1]);
        noise = Math.max(noise, idle.stop().intervalMs);
        t = performance.now();
        findCodes(text);
        inline.push(performance.now() - t);
      }
      worst = Math.max(worst, blockHistogram, blockInterval);
      const ms = (v: number): string => `${v.toFixed(1)} ms`;
      rows.push([`${(text.length / 1024 / 1024).toFixed(1)} MB`, ms(median(parse)), ms(median(scan)), `${(median(scan) / median(parse)).toFixed(2)}x`, ms(blockHistogram), ms(blockInterval), ms(noise), ms(step), String(findings), ms(median(inline))]);
    }
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i])).join('  '));
    console.log(`longest event-loop block while scanning: ${worst.toFixed(1)} ms (goal < ${GOAL_MS} ms): ${worst < GOAL_MS ? 'met' : 'NOT met'}`);
  } finally {
    await scanner.dispose();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
