// Data-driven files in the Test Explorer: NAME.bizdata.http with NAME.data.csv (or NAME.data.jsonl)
// beside it runs as one test per row of the data file, each column a variable (`{{country}}`), the
// file's requests run for each row by the run engine (core/run/engine.ts) with a chain of its own.
// A row passes when every request passes; a row that lacks a variable the file uses errs at its
// line (data/rowCheck.ts) and sends nothing; a failure that stops a run (stops.ts) skips the rows after it.
import * as vscode from 'vscode';
import { checkRows } from '../../core/data/rowCheck';
import { problemText } from '../../core/data/rows';
import type { ParsedRequest } from '../../core/requests/requestFile';
import { connectionVariables, dataVariables } from '../../core/requests/requestVariables';
import { runRequests } from '../../core/run/engine';
import type { RequestOutcome } from '../../core/run/judge';
import { safeText } from '../../core/sanitize';
import { askedOnce, editorRunHost, type EditorSend } from '../requestFiles/editorRunHost';
import type { Services } from '../services';
import type { ReadFile } from './testTree';

export interface RowsRun {
  readonly run: vscode.TestRun;
  readonly file: ReadFile;
  /** The rows' lines chosen, or all. */
  readonly lines: ReadonlySet<number> | 'all';
  readonly services: Pick<Services, 'connections'>;
  readonly send: EditorSend;
  readonly signal: AbortSignal;
  readonly message: (item: vscode.TestItem, uri: vscode.Uri, line: number, text: string) => vscode.TestMessage;
}

/** Runs the chosen rows of a data-driven file; true when the run stopped (stops.ts, or cancelled). */
export async function runDataRows(o: RowsRun): Promise<boolean> {
  const { run, file, services } = o;
  const data = file.data;
  if (!data?.read.ok) return false;
  const table = data.read.table;
  const chosen = table.rows.filter((row) => o.lines === 'all' || o.lines.has(row.line));
  const choice = services.connections.choice();
  const endpoints = choice.endpoints(file.parsed.connection?.name ?? choice.active) ?? choice.endpoints(choice.active);
  const where = vscode.workspace.asRelativePath(file.uri);
  const problems = new Map(checkRows(table, dataVariables(file.text, file.parsed, endpoints ? connectionVariables(endpoints) : {}), where).map((p) => [p.line, p]));
  const requests = file.parsed.requests.filter((r) => !r.settings.disabled);
  const asked = askedOnce();
  let stopped = false;
  for (const row of chosen) {
    const item = data.items.get(row.line);
    if (!item) continue;
    if (stopped || o.signal.aborted) {
      run.skipped(item);
      continue;
    }
    run.started(item);
    // A CSV header without a used column is one problem at the header: every row lacks it.
    const problem = problems.get(row.line) ?? problems.get(table.headerLine);
    if (problem) {
      run.errored(item, o.message(item, data.uri, (problem.line ?? 1) - 1, problemText(problem)));
      continue;
    }
    const outcomes: RequestOutcome[] = [];
    const host = editorRunHost({ connections: services.connections, uri: file.uri, file: file.parsed, row: new Map(Object.entries(row.values)), asked, signal: o.signal, send: o.send, on: (e) => void (e.kind === 'judged' && outcomes.push(e.outcome)) });
    const summary = await runRequests({ file: file.parsed, requests, until: 'end' }, host);
    stopped = summary.stopped !== undefined;
    const duration = outcomes.reduce((ms, x) => ms + (x.durationMs ?? 0), 0);
    if ((summary.stopped && !summary.stopped.failure) || outcomes.length === 0) run.skipped(item);
    else if (outcomes.every((x) => x.verdict === 'passed')) run.passed(item, duration);
    else {
      const first = outcomes.find((x) => x.verdict !== 'passed') ?? outcomes[0];
      const message = o.message(item, file.uri, first.line, rowFailures(where, requests, outcomes));
      if (outcomes.some((x) => x.verdict === 'error')) run.errored(item, message, duration);
      else run.failed(item, message, duration);
    }
  }
  return stopped;
}

/** Each request of the row that did not pass: its place and why, in the engine's words. */
function rowFailures(where: string, requests: readonly ParsedRequest[], outcomes: readonly RequestOutcome[]): string {
  const failed = outcomes.filter((x) => x.verdict !== 'passed');
  const lines = failed.flatMap((x) => [
    `${where}:${x.line + 1}: ${x.name}: ${x.verdict === 'error' ? 'error' : 'failed'}${x.message !== undefined ? `: ${x.message}` : ''}`,
    ...x.assertions.filter((a) => !a.passed).map((a) => `${where}:${a.line + 1}: ${a.message}`),
  ]);
  return safeText([`${failed.length} of ${requests.length} requests did not pass:`, ...lines].join('\n'));
}
