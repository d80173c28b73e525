// npm run bench:startup — issue 27: how long the command line takes to start, as a user sees it. Each
// run is a whole process timed from outside (spawn to exit): `node -e ''` (Node alone), then
// `node dist/cli.js explain SC006` and `node dist/cli.js --version`, interleaved so that a busy
// machine slows all three alike. Prints the medians and each command's ratio to Node alone against
// the goal (explain within 1.3x). BENCH_RUNS sets the runs of each (default 30). Time the production
// production build, as users get it (npm run bench:startup builds it).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const GOAL = 1.3;

const CASES = [
  { name: "node -e ''", args: ['-e', ''] },
  { name: 'bizdata explain SC006', args: [CLI, 'explain', 'SC006'] },
  { name: 'bizdata --version', args: [CLI, '--version'] },
] as const;

/** Milliseconds from spawn to exit of one process; a failed run stops the bench. */
function timeOnce(args: readonly string[]): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${run.status}: ${run.stderr.toString()}`);
  return ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function main(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (or build:production) first`);
  const kb = (file: string): string => (existsSync(join(ROOT, 'dist', file)) ? `${(statSync(join(ROOT, 'dist', file)).size / 1024).toFixed(1)} KB` : 'absent');
  console.log(`bench:startup — Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${RUNS} runs each, interleaved`);
  console.log(`  dist/cli.js ${kb('cli.js')}, dist/cliCodes.js ${kb('cliCodes.js')} (explain, check), dist/cliService.js ${kb('cliService.js')} (commands that call the service)`);
  for (const c of CASES) timeOnce(c.args); // warm the file cache
  const times = CASES.map(() => [] as number[]);
  for (let i = 0; i < RUNS; i++) CASES.forEach((c, k) => times[k].push(timeOnce(c.args)));
  const bare = median(times[0]);
  console.log(`  ${CASES[0].name.padEnd(24)} median ${bare.toFixed(1)} ms`);
  let met = true;
  for (let k = 1; k < CASES.length; k++) {
    const m = median(times[k]);
    const ratio = m / bare;
    const goal = CASES[k].name.includes('explain') ? ` (goal <= ${GOAL}): ${ratio <= GOAL ? 'met' : 'NOT met'}` : '';
    if (goal && ratio > GOAL) met = false;
    console.log(`  ${CASES[k].name.padEnd(24)} median ${m.toFixed(1)} ms, ratio ${ratio.toFixed(3)}${goal}`);
  }
  console.log(`goal: bizdata explain SC006 within ${GOAL}x of node -e '': ${met ? 'met' : 'NOT met'}`);
}

main();
