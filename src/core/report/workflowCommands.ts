// A run's failures as GitHub Actions workflow commands (pure): one `::error file=…,line=…,title=…::…`
// per failure, which GitHub shows as an annotation on the request file's line in a pull request and
// on the job's page. Escaped as GitHub's own toolkit escapes them (actions/toolkit,
// packages/core/src/command.ts): in the message %, CR and LF; in a property also : and ,.
import type { ReportModel, ReportTest } from './reportModel';

/** GitHub shows at most 10 error annotations of a step (50 of a job): beyond these, one line says how many more. */
const ANNOTATIONS = 50;

/** `%`, CR and LF, as the runner reads a command's message. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property's value: as the message, and also `:` and `,`, which end a property. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command line. */
export function workflowCommand(
  command: 'error' | 'warning' | 'notice',
  properties: Readonly<Record<string, string | number | undefined>>,
  message: string,
): string {
  const props = Object.entries(properties)
    .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${command}${props !== '' ? ` ${props}` : ''}::${escapeData(message)}`;
}

/**
 * One `::error` per failure of the run (at the first assertion that did not hold, else at the
 * request's line), then one for a stop. `path` turns a file as the run names it into the path GitHub
 * knows (relative to the repository). Every text is the model's, already redacted.
 */
export function failureCommands(model: ReportModel, path: (file: string) => string): string[] {
  const failures = model.failures.slice(0, ANNOTATIONS);
  const lines = failures.map((f) => failureCommand(f, path, model.title));
  const more = model.failures.length - failures.length + model.moreFailures;
  const untold = `${more} more failures are not annotated: see the job summary and the report.`;
  if (more > 0) lines.push(workflowCommand('error', { title: `${model.title}: ${more} more failures` }, untold));
  if (model.stopped !== undefined) lines.push(workflowCommand('error', { title: `${model.title}: the run stopped early` }, model.stopped));
  return lines;
}

function failureCommand(f: ReportTest, path: (file: string) => string, title: string): string {
  const first = f.failedAssertions[0];
  const line = first?.line ?? f.messageLine ?? f.line;
  const messages = [...f.failedAssertions.map((a) => `line ${a.line}: ${a.text}, actual ${a.actual}`), ...(f.message !== undefined ? [f.message] : [])];
  const answer = [f.status, f.code].filter((x) => x !== undefined).join(' ');
  const head = `${f.name}${f.method !== '' ? `: ${f.method} ${f.url ?? ''}`.trimEnd() : ''}${answer !== '' ? ` -> ${answer}` : ''}`;
  const where = f.file !== '' ? { file: path(f.file), line } : {};
  const what = f.verdict === 'error' ? 'could not be judged' : 'failed';
  // A data row's failure names its row (ROWS:LINE) beside the request's line it is annotated at.
  const name = f.row !== undefined ? `${f.name} [${f.row}]` : f.name;
  return workflowCommand('error', { ...where, title: `${title}: ${name} ${what}` }, [head, ...messages].join('\n'));
}
