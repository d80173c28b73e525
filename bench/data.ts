// npm run bench:data — issue 26's figures for a data-driven run, from real `bizdata send FILE --data
// ROWS` processes against a sandbox process at a 50 QPS limit (5 at once), nothing learned:
//  1. 2,000 rows, one IP lookup each (a request file's template): every row answered once, the
//     fraction of the limit over the whole run (rows / the run's own duration / 50, sign-in and
//     start-up included), SC006 the sandbox sent (its counters) against the calls, and SC006 shown to
//     the caller (results holding it);
//  2. the same rows to a CSV with --column, the run killed with SIGKILL at the middle and run again
//     with the same --out: every row in the CSV once (nothing lost, nothing repeated), the calls the
//     kill made go twice (rows in flight), and the CSV parsed back by a CSV parser, one line per row.
//  3. a data file of 10,000,000 rows (about 150 MB) whose last line is bad: refused at that line before
//     anything is sent, with the peak resident memory of the process (VmHWM) against the same run over
//     1,000 rows measured beside it (goal: under 200 MB; the small run is the process's own size).
//  4. a job of 600,000 rows resumed when every row is done, its JSON Lines results holding a 1 KB
//     answer a row (about 640 MB, more than one string of Node can hold): read as a stream, nothing
//     sent, the whole job counted, with the peak resident memory against the same over 1,000 rows.
// `npm run bench:data -- huge` runs 3 alone, `-- resume` 4 alone.
// Each line says its goal and whether it was met; the exit status is 1 when one was not.
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ResultLine } from '../src/core/data/results';
import { customerStats, ips, runBench, sandboxEnv, startCli, startSandboxProcess, type BenchSandbox } from './processes';

const ROWS = 2000;
const LIMIT = { qps: 50, concurrency: 5 };
const TEMPLATE = `# One IP lookup per row: {{ip}} and {{site}} are the data file's columns.
### lookup
# @name lookup
GET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard
X-Site: {{site}}

?? status == 200
`;

interface Figure {
  readonly what: string;
  readonly value: string;
  readonly goal: string;
  readonly met: boolean;
}

const figures: Figure[] = [];
const report = (what: string, value: string | number, goal: string, met: boolean): void => {
  figures.push({ what, value: String(value), goal, met });
  console.log(JSON.stringify({ what, value, goal, met }));
};

/** The sandbox warmed as a real service is (its JIT, its sockets) by another account's state, then left a second to empty its window. */
async function warm(dir: string, sb: BenchSandbox): Promise<void> {
  const input = join(dir, 'warm.txt');
  await writeFile(input, ips(25, 200_000).join('\n'));
  const r = await startCli(['batch', input, '--out', join(dir, 'warm.jsonl'), '--qps', '25', '--concurrency', '4'], sandboxEnv(sb.url, join(dir, 'warm-state'))).done;
  if (r.code !== 0) throw new Error(`warming the sandbox: exit ${r.code}: ${r.stderr.slice(-400)}`);
  await new Promise((resolve) => setTimeout(resolve, 1100));
}

async function wholeRun(dir: string, sb: BenchSandbox, request: string, data: string): Promise<void> {
  const out = join(dir, 'results.jsonl');
  const before = await customerStats(sb);
  const r = await startCli(['send', request, '--data', data, '--out', out], sandboxEnv(sb.url, join(dir, 'state-1'))).done;
  if (r.code !== 0) throw new Error(`the data run: exit ${r.code}: ${r.stderr.slice(-400)}`);
  const summary = JSON.parse(r.stdout) as { ok: number; durationMs: number };
  const after = await customerStats(sb);
  const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as ResultLine);
  const once = new Set(lines.map((l) => l.line)).size === ROWS && lines.length === ROWS;
  report('rows answered once (2,000 rows)', `${summary.ok} ok, ${lines.length} lines, ${new Set(lines.map((l) => l.line)).size} rows`, '2000 ok, each row one line', summary.ok === ROWS && once);
  const fraction = summary.ok / (summary.durationMs / 1000) / LIMIT.qps;
  report('fraction of the 50 QPS limit over the whole run', fraction.toFixed(3), '>= 0.95', fraction >= 0.95);
  const calls = after.dataCalls - before.dataCalls;
  const sc006 = (after.resultCodes.SC006 ?? 0) - (before.resultCodes.SC006 ?? 0);
  report('SC006 the sandbox sent, share of data calls', `${sc006} of ${calls} (${((sc006 / calls) * 100).toFixed(2)} %)`, '<= 1 %', sc006 / calls <= 0.01);
  const shown = lines.filter((l) => l.code === 'SC006').length + (r.stdout.includes('SC006') || r.stderr.includes('SC006') ? 1 : 0);
  report('SC006 shown to the caller (results, stdout, stderr)', shown, '0', shown === 0);
}

async function killedRun(dir: string, sb: BenchSandbox, request: string, data: string): Promise<void> {
  const out = join(dir, 'enriched.csv');
  const args = ['send', request, '--data', data, '--out', out, '--column', 'duns=$.matchCandidates[0].organization.duns'];
  const env = sandboxEnv(sb.url, join(dir, 'state-2'));
  const before = await customerStats(sb);
  const first = startCli(args, env);
  const lineCount = async (): Promise<number> => ((await readFile(out, 'utf8').catch(() => '')).match(/\r\n/g)?.length ?? 1) - 1;
  while ((await lineCount()) < ROWS / 2) await new Promise((resolve) => setTimeout(resolve, 20));
  first.child.kill('SIGKILL');
  await first.done;
  const atKill = await lineCount();
  const again = await startCli(args, env).done;
  if (again.code !== 0) throw new Error(`the second run: exit ${again.code}: ${again.stderr.slice(-400)}`);
  const after = await customerStats(sb);
  const table = parse(await readFile(out), { bom: true, columns: true }) as Array<Record<string, string>>;
  const rows = new Set(table.map((t) => t.line));
  report('killed at the middle (SIGKILL), rows in the CSV then', atKill, 'about 1000', atKill > 0 && atKill < ROWS);
  report('after the second run: CSV lines, distinct rows', `${table.length} lines, ${rows.size} rows`, `${ROWS} lines, ${ROWS} rows (nothing lost or repeated)`, table.length === ROWS && rows.size === ROWS);
  const answered = after.dataCalls - before.dataCalls - ((after.resultCodes.SC006 ?? 0) - (before.resultCodes.SC006 ?? 0));
  report('rows sent twice (in flight at the kill)', answered - ROWS, '>= 0, only rows in flight (at most the rows run at once)', answered >= ROWS && answered - ROWS <= 64);
  const parsedBack = table.every((t) => t.status === '200' && /^\d{9}$/.test(t.duns) && t.ip !== undefined);
  report('the CSV parses back: one line per input row, status and --column cells', parsedBack ? 'yes' : 'no', 'yes', parsedBack);
}

/** A CSV of `rows` IP rows whose last line has a field too many, written as a stream. */
async function badLastLine(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('ip,site\n');
  const chunk = 100_000;
  for (let i = 0; i < rows - 1; i += chunk) {
    const part = Array.from({ length: Math.min(chunk, rows - 1 - i) }, (_, j) => `10.0.${(i + j) & 255}.1,s${(i + j) % 7}`).join('\n');
    if (!out.write(`${part}\n`)) await once(out, 'drain');
  }
  out.end('10.9.9.9,late,one too many\n');
  await once(out, 'finish');
}

/** Runs `bizdata send` over a data file refused at its last line; its exit, message and peak resident memory (VmHWM, Linux). */
function refusedRun(dir: string, sb: BenchSandbox, request: string, data: string): Promise<Measured> {
  return measuredRun(['send', request, '--data', data, '--out', join(dir, 'never.jsonl')], sandboxEnv(sb.url, join(dir, 'state-3')));
}

interface Measured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly peakMb: number;
  readonly seconds: number;
}

/** Runs the CLI to its end: its exit, output and peak resident memory (VmHWM, Linux). */
async function measuredRun(args: string[], env: Record<string, string>): Promise<Measured> {
  const t0 = performance.now();
  const run = startCli(args, env);
  let peakKb = 0;
  const poll = setInterval(() => {
    void readFile(`/proc/${run.child.pid}/status`, 'utf8').then(
      (status) => (peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0))),
      () => undefined,
    );
  }, 25);
  const r = await run.done;
  clearInterval(poll);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, peakMb: peakKb / 1024, seconds: (performance.now() - t0) / 1000 };
}

async function hugeFile(dir: string, sb: BenchSandbox, request: string): Promise<void> {
  const small = join(dir, 'small.csv');
  const huge = join(dir, 'huge.csv');
  await badLastLine(small, 1000);
  await badLastLine(huge, 10_000_000);
  const size = (await stat(huge)).size / 1e6;
  const before = await customerStats(sb);
  const a = await refusedRun(dir, sb, request, small);
  const b = await refusedRun(dir, sb, request, huge);
  const after = await customerStats(sb);
  const named = a.code === 2 && b.code === 2 && /small\.csv:1001: this row has 3 fields/.test(a.stderr) && /huge\.csv:10000001: this row has 3 fields/.test(b.stderr);
  report(`10,000,000 rows (${size.toFixed(0)} MB), bad last line: refused at that line, exit 2`, named ? `yes, in ${b.seconds.toFixed(1)} s` : `no: ${b.code} ${b.stderr.slice(-200)}`, 'yes', named);
  report('nothing sent while checking (data calls, sign-ins)', after.dataCalls - before.dataCalls + (after.tokenRequests ?? 0) - (before.tokenRequests ?? 0), '0', after.dataCalls === before.dataCalls);
  report('peak resident memory, 10,000,000 rows / 1,000 rows', `${b.peakMb.toFixed(0)} MB / ${a.peakMb.toFixed(0)} MB = ${(b.peakMb / a.peakMb).toFixed(2)}`, '< 200 MB (the small run: the process itself)', b.peakMb < 200);
}

/** A data file of `rows` rows and a JSON Lines results file that holds each of them done, with a 1 KB answer, both written as streams. */
async function doneJob(dir: string, name: string, rows: number): Promise<{ data: string; results: string }> {
  const data = join(dir, `${name}.csv`);
  const results = join(dir, `${name}.results.jsonl`);
  const d = createWriteStream(data);
  const r = createWriteStream(results);
  d.write('ip,site\n');
  const answer = { matchCandidates: [{ organization: { primaryName: 'x'.repeat(900) } }] };
  for (let i = 0; i < rows; i++) {
    const values = { ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, site: `s${i % 7}` };
    const line: ResultLine = { line: i + 2, values, ok: true, status: 200, answer, final: true, at: '2026-01-01T00:00:00.000Z' };
    const more = d.write(`${values.ip},${values.site}\n`);
    if (!r.write(`${JSON.stringify(line)}\n`) || !more) await Promise.all([once(r, 'drain'), more ? undefined : once(d, 'drain')]);
  }
  d.end();
  r.end();
  await Promise.all([once(d, 'finish'), once(r, 'finish')]);
  return { data, results };
}

async function resumedJob(dir: string, sb: BenchSandbox, request: string): Promise<void> {
  const rows = 600_000;
  const small = await doneJob(dir, 'done-small', 1000);
  const big = await doneJob(dir, 'done-big', rows);
  const size = (await stat(big.results)).size / 1e6;
  const before = await customerStats(sb);
  const env = sandboxEnv(sb.url, join(dir, 'state-4'));
  const a = await measuredRun(['send', request, '--data', small.data, '--out', small.results], env);
  const b = await measuredRun(['send', request, '--data', big.data, '--out', big.results], env);
  const after = await customerStats(sb);
  const job = (r: Measured): { earlier?: number; complete?: boolean } | undefined => {
    try {
      return (JSON.parse(r.stdout) as { job?: { earlier?: number; complete?: boolean } }).job;
    } catch {
      return undefined;
    }
  };
  const counted = b.code === 0 && job(b)?.earlier === rows && job(b)?.complete === true;
  report(`${rows.toLocaleString('en')} rows done (results ${size.toFixed(0)} MB) resumed: the whole job counted, exit 0`, counted ? `yes, in ${b.seconds.toFixed(1)} s` : `no: ${b.code} ${b.stderr.slice(-200)}`, 'yes', counted);
  report('nothing sent when every row is done (data calls, sign-ins)', after.dataCalls - before.dataCalls + (after.tokenRequests ?? 0) - (before.tokenRequests ?? 0), '0', after.dataCalls === before.dataCalls);
  report(`peak resident memory, ${rows.toLocaleString('en')} rows / 1,000 rows`, `${b.peakMb.toFixed(0)} MB / ${a.peakMb.toFixed(0)} MB = ${(b.peakMb / a.peakMb).toFixed(2)}`, '< 300 MB (the small run: the process itself)', b.peakMb < 300);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bizdata-bench-data-'));
  const sb = await startSandboxProcess(dir, 'data', LIMIT, false);
  try {
    const request = join(dir, 'lookup.bizdata.http');
    const data = join(dir, 'rows.csv');
    await writeFile(request, TEMPLATE);
    // Addresses the sandbox matches to an organization, so every --column cell holds a D-U-N-S number.
    const addresses = Array.from({ length: ROWS }, (_, i) => `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`);
    await writeFile(data, `ip,site\n${addresses.map((ip, i) => `${ip},"site ${i % 7}, north"`).join('\n')}\n`);
    // `npm run bench:data -- huge` (or `-- resume`): only the 10,000,000-row file (or the resumed job).
    const huge = process.argv.includes('huge');
    const resume = process.argv.includes('resume');
    if (!huge && !resume) {
      await warm(dir, sb);
      await wholeRun(dir, sb, request, data);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await killedRun(dir, sb, request, data);
    }
    if (!resume) await hugeFile(dir, sb, request);
    if (!huge) await resumedJob(dir, sb, request);
    console.log('\nfigure                                                           value                              met  goal');
    for (const f of figures) console.log(`${f.what.padEnd(64)} ${f.value.padEnd(34)} ${f.met ? 'yes' : 'NO '}  ${f.goal}`);
    if (figures.some((f) => !f.met)) process.exitCode = 1;
  } finally {
    sb.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

runBench(main);
