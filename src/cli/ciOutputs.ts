// What a run tells CI, for every command that runs requests (`test`, `batch`, data runs): with
// `--summary FILE.md` the run's Markdown summary (core/report/stepSummary.ts), and under GitHub
// Actions (GITHUB_ACTIONS=true) the same summary appended to $GITHUB_STEP_SUMMARY and one workflow
// command per failure (core/report/workflowCommands.ts) on stderr, which the runner reads as it
// reads stdout, so stdout stays the run's own (--json). Everything is redacted as the run's report is.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { fileProblem } from '../core/readText';
import { reportModel, type ReportRun } from '../core/report/reportModel';
import { stepSummary, type SummaryLinks } from '../core/report/stepSummary';
import { failureCommands } from '../core/report/workflowCommands';
import { safeLine } from '../core/sanitize';
import { UsageError, type CliIo } from './io';
import { checkRunOutput } from './runReportFile';

export const CI_OPTIONS = { summary: { type: 'string' } } as const;

export const CI_HELP = `  --summary FILE.md    also write the run's summary in Markdown: the counts, every failure at
                       FILE:LINE, the slowest requests and a link to the --report file.
                       Under GitHub Actions (GITHUB_ACTIONS=true) the same summary is appended
                       to the job's summary page ($GITHUB_STEP_SUMMARY), and each failure is
                       printed on stderr as "::error file=FILE,line=LINE,title=…::…", an
                       annotation on the request file's line`;

/** Where the run's summary and annotations go; undefined when nowhere (no --summary, not on GitHub). */
export interface CiOutputs {
  /** Writes the summary and prints the annotations of `run`; `report`: the --report file, to link to. */
  write(run: ReportRun, redact: (text: string) => string, report?: string): Promise<void>;
}

/** Checks --summary before anything is sent (an .md file, in a folder that exists, not an input of the run). */
export async function ciOutputs(values: { readonly summary?: string }, inputs: readonly string[], io: CliIo): Promise<CiOutputs | undefined> {
  const file = values.summary;
  const github = io.env.GITHUB_ACTIONS === 'true';
  if (file === undefined && !github) return undefined;
  if (file !== undefined) await checkRunOutput('--summary', file, inputs, { ext: /\.(md|markdown)$/i, kind: 'a Markdown file', example: 'summary.md' });
  return {
    write: async (run, redact, report) => {
      const model = reportModel({ ...run, title: redact(run.title) }, redact);
      if (file !== undefined) await writeText(file, stepSummary(model, { report: report !== undefined ? besideSummary(report, file) : undefined }), false);
      if (!github) return;
      const summaryFile = io.env.GITHUB_STEP_SUMMARY;
      if (summaryFile) await writeText(summaryFile, stepSummary(model, { report: report !== undefined ? inArtifacts(report, io.env) : undefined }), true);
      const path = (f: string): string => repositoryPath(redact(f), io.env.GITHUB_WORKSPACE);
      for (const line of failureCommands(model, path)) io.stderr.write(`${safeLine(line)}\n`);
    },
  };
}

/** The report as a link from the summary file's folder. */
function besideSummary(report: string, summary: string): SummaryLinks['report'] {
  const href = relative(dirname(resolve(summary)), resolve(report)).split(sep).map(encodeURIComponent).join('/');
  return { href, name: basename(report) };
}

/** The report as GitHub keeps it: an artifact of this workflow run, listed on the run's page. */
function inArtifacts(report: string, env: NodeJS.ProcessEnv): SummaryLinks['report'] {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  if (!server || !repository || !runId || !/^https:\/\//.test(server)) return undefined;
  return { href: `${server}/${repository}/actions/runs/${encodeURIComponent(runId)}#artifacts`, name: basename(report), where: "in this run's artifacts" };
}

/** A file as GitHub names it in an annotation: relative to the repository's checkout, with `/`. */
function repositoryPath(file: string, workspace: string | undefined): string {
  const full = resolve(file);
  const root = workspace ? resolve(workspace) : undefined;
  const inside = root !== undefined && full.startsWith(`${root}${sep}`);
  return (inside ? relative(root, full) : file).split(sep).join('/');
}

/**
 * Writes (or appends) the summary; never through a symbolic link (O_NOFOLLOW), so a link planted
 * where the summary goes cannot send it elsewhere. The one place this module touches the disk.
 */
async function writeText(path: string, text: string, append: boolean): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (append ? constants.O_APPEND : constants.O_TRUNC);
  try {
    const handle = await open(path, flags, 0o644);
    try {
      await handle.writeFile(append ? `${text}\n` : text);
    } finally {
      await handle.close();
    }
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a symbolic link, which is never written through' : fileProblem(err, path);
    throw new UsageError(`Cannot write the summary to ${path}: ${why}.`);
  }
}
