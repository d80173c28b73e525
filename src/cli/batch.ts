// `bizdata batch`: many lookups from a file, one JSON line per input, resumable.
import { parseBatchInput } from '../core/run/batchInput';
import { runBatch, type BatchSummary } from '../core/run/batch';
import { stat } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { batchJobLines, batchReportRun, batchRows, resultsSizeBefore } from '../core/run/batchRows';
import { jobSummary } from '../core/run/jobSummary';
import { countRows } from '../core/report/jobRows';
import { endLimit, JOB_SUMMARY_HELP, recorderFor, REPORT_HELP, REPORT_OPTIONS, RunRecorder, writeRunReport } from './runReportFile';
import { CI_HELP, CI_OPTIONS, ciOutputs } from './ciOutputs';
import { inputsDone } from '../core/run/batchLines';
import { ceilingOf, COST_HELP, COST_OPTIONS, weighRun, type CostVerdict } from './runCost';
import { safeLine } from '../core/sanitize';
import { parse } from './args';
import { CONNECTION_HELP, CONNECTION_OPTIONS } from './connectionOptions';
import { makeClient } from './makeClient';
import { exitCodeFor, printJson } from './output';
import { EXIT, UsageError, type CliIo, readInputFile } from './io';
import { batchWorkers } from './coordination';
import { chooseConnection, confirmProduction, withConnectionFields } from './connections';
import { endBySignal, requestFileStop, signalStatus, type StopSignal } from './signals';

export const BATCH_HELP = `Usage: bizdata batch FILE --out RESULTS.jsonl [--yes] [--report FILE.html] [--qps N] [--concurrency N] [connection options]

Runs one lookup per input of FILE and appends one JSON line per input to RESULTS.jsonl as it goes:
{"input", "ok", "code", "status", "body" | "error", "final", "at"}, and "connection" with a named
connection. Running again with the same --out skips the inputs already done (successes, rejected
values, 4xx answers) by the same connection; network errors, 5xx, limits and credential failures run
again, so an interrupted run resumes.

FILE is either
  - a list of IP addresses (Interface A), one per line; blank lines and # comments are ignored, or
  - a CSV (.csv, or a first line "country,name,territory") of organization queries (Interface B);
    quote names that contain commas: US,"Example, Inc.",CA

  --out FILE           where results are appended (required)
  --concurrency N|auto lookups in flight at once (also caps the account's limiter)
  -y, --yes            run against a connection marked "production": true without asking; without it
                       a terminal asks, and a script (no terminal) is refused with exit status 2
${REPORT_HELP};
                       for a batch the whole job: every input by its latest line in RESULTS
${CI_HELP}

${JOB_SUMMARY_HELP}

A coordinator that stops answering stops the batch: calls in flight finish, no new one starts, and
running it again continues where it stopped.

The run stops early on an authentication failure, the lockout guard, a contract limit
(SC003, SC004, SC005), nothing answering at the service's address (a sandbox not started), and
when the service asks (Retry-After) to be called again later than the client waits by itself
(60 s): the message says when; running it again then resumes. A summary is
printed on stdout.

Ctrl-C (SIGINT) or SIGTERM ends it within a second: no new lookup is sent, those already sent get
0.75 s to be answered and written (a lookup cut short runs again next time), the summary is printed,
and the process then ends by that signal (a shell shows exit status 130 or 143). A second Ctrl-C stops at once, without the summary;
the lines written so far stay intact either way, and running again resumes.

${COST_HELP}

Exit status: 0 when every input succeeded, the failure's status when the run was stopped (5 at
--max-calls), 1 when some inputs failed, 130 (SIGINT) or 143 (SIGTERM) when a signal stopped it.

${CONNECTION_HELP}`;

export async function runBatchCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { ...CONNECTION_OPTIONS, ...REPORT_OPTIONS, ...CI_OPTIONS, ...COST_OPTIONS, out: { type: 'string', short: 'o' }, yes: { type: 'boolean', short: 'y' } }, true);
  if (values.help) {
    io.stdout.write(BATCH_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('Give exactly one input file: bizdata batch FILE --out RESULTS.jsonl.');
  if (!values.out) throw new UsageError('Give --out RESULTS.jsonl: results are appended there, and a re-run resumes from it.');
  const file = positionals[0];
  const ceiling = ceilingOf(values);
  const text = await readInputFile(file);
  if (await sameFile(file, values.out)) {
    throw new UsageError(`--out ${values.out} is the input file ${file} (under another name or through a link); results would be appended to the inputs. Name another file, such as results.jsonl.`);
  }
  const parsed = await parseBatchInput(text, file);
  if (parsed.problems.length > 0) {
    throw new UsageError(`${file} has rows that cannot be read; nothing was sent:\n${parsed.problems.map((p) => `  line ${p.line}: ${p.message}`).join('\n')}`);
  }
  if (parsed.inputs.length === 0) throw new UsageError(`${file} holds no inputs.`);
  const ci = await ciOutputs(values, [file, values.out], io);
  const recorder = (await recorderFor(values.report, [file, values.out])) ?? (ci ? new RunRecorder() : undefined);
  const chosen = await chooseConnection(values, io.env);
  await confirmProduction(chosen.connection, values.yes === true, `${parsed.inputs.length} lookups from ${file}`, io);
  const needs = parsed.format === 'csv' ? 'b' : 'a';
  const setup = await makeClient(values, io, needs, { chosen, observe: recorder?.observe });
  const { client, close, requestTimeoutMs, connection, learned } = setup;
  const weighed = async (out: string): Promise<CostVerdict> => {
    const size = { rows: parsed.inputs.length, done: await inputsDone(out, connection?.name, parsed.inputs), requestsPerRow: 1 };
    return weighRun([{ setup, size }], values, io, `bizdata batch ${file}`);
  };
  const cost = await weighed(values.out).catch(async (err: unknown) => {
    await close();
    throw err;
  });
  if (cost.dryRun) {
    await close();
    return cost.status;
  }
  const concurrency = batchWorkers(withConnectionFields(values, connection), io.env);
  const stop = requestFileStop(requestTimeoutMs, io, 'lookups');
  let status: number;
  let endBy: StopSignal | undefined;
  // Where this run's lines start: the job's rows an earlier run finished are told apart from this run's.
  const beforeSize = await resultsSizeBefore(values.out);
  try {
    const summary = await runBatch({
      client,
      inputs: parsed.inputs,
      outFile: values.out,
      concurrency,
      stop: stop.stop,
      signal: stop.cut,
      connection: connection?.name,
      redact: (s) => client.redact(s),
      ceiling,
      onProgress: io.stderr.isTTY
        ? (p) => io.stderr.write(`\r${p.done + p.skipped}/${p.total} (ok ${p.ok}, failed ${p.failed}, skipped ${p.skipped})`)
        : undefined,
    });
    if (io.stderr.isTTY) io.stderr.write('\n');
    const rows = batchRows(parsed.inputs, await batchJobLines(values.out, beforeSize, connection?.name));
    const limit = await endLimit({ client, learned });
    const redact = (s: string): string => client.redact(s);
    printJson(jobSummary({ run: summary, outFile: summary.outFile, connection: connection?.name, rows: countRows(rows), limit, redact }), io);
    if (recorder) {
      const resultsFile = values.report !== undefined ? relative(dirname(resolve(values.report)), resolve(values.out)) : values.out;
      const { startedAt, wire } = recorder;
      const title = `bizdata batch ${file}`;
      const run = batchReportRun({ title, source: file, rows, resultsFile, connection: connection?.name, startedAt, summary, wire, limit });
      if (values.report !== undefined) await writeRunReport(values.report, run, redact);
      await ci?.write(run, redact, values.report);
    }
    // Stopped by a signal before the end: the process ends by that signal once everything is closed.
    endBy = summary.cancelled && !summary.stoppedBy ? stop.received : undefined;
    status = batchStatus(summary, endBy, (s) => client.redact(s), io);
  } finally {
    await close();
    stop.dispose();
  }
  return endBy ? endBySignal(endBy, io) : status;
}

/** Says on stderr why the run ended early, and returns the exit status. */
function batchStatus(summary: BatchSummary, bySignal: StopSignal | undefined, redact: (s: string) => string, io: CliIo): number {
  if (summary.stoppedBy) {
    const stop = summary.stoppedBy;
    const meaning = stop.meaning !== undefined && stop.meaning !== stop.text ? `\n  Meaning: ${safeLine(stop.meaning)}` : '';
    io.stderr.write(`bizdata: the batch stopped: ${safeLine(`${stop.code ? `${stop.code} ` : ''}${redact(stop.text)}`)}${meaning}\n  What to do: ${safeLine(stop.advice)}\n`);
    return exitCodeFor(summary.stoppedBy.kind);
  }
  if (bySignal) {
    io.stderr.write(`bizdata: the batch was stopped by ${bySignal}: ${summary.done} lookups written to ${safeLine(summary.outFile)} this run; run the same command again to do the rest.\n`);
    return signalStatus(bySignal);
  }
  return summary.failed > 0 || summary.cancelled ? EXIT.other : EXIT.ok;
}

/** Whether two paths name one file (another spelling, a symbolic or a hard link): compared by device and inode. */
async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false; // the output does not exist yet
  }
}
