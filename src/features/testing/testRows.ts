// Data-driven files in the Test Explorer: NAME.bizdata.http with NAME.data.csv (or NAME.data.jsonl)
// beside it runs as one test per row of the data file, each column a variable (`{{country}}`), the
// file's requests run for each row, with a chain of its own, by the rows runner of every data run
// (core/run/dataRows.ts), whose rule says what a row came to: this file only shows it. A row that
// lacks a variable the file uses errs at its line (data/rowCheck.ts) and sends nothing; a failure
// that stops a run (stops.ts) or a cancel skips the rows after it.
import * as vscode from 'vscode';
import { checkRows } from '../../core/data/rowCheck';
import { problemText, type DataRow } from '../../core/data/rows';
import type { ParsedRequest } from '../../core/requests/requestFile';
import type { SnapshotWriting } from '../../core/requests/snapshotCheck';
import { connectionVariables, dataVariables } from '../../core/requests/requestVariables';
import { runDataRows, type FileRowRun } from '../../core/run/dataRows';
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
  /** What the run may write of `?? snapshot` files (each row has its own). */
  readonly snapshots: SnapshotWriting;
}

/**
 * Runs the chosen rows of a data-driven file on the rows runner of every data run (core/run/dataRows.ts),
 * a row at a time, and shows what it decided each row came to: ok passes; not ok though none of its
 * requests failed (a `# @note` declined, a prompt closed), or cut short by Cancel, is skipped; else it
 * failed, or erred when a request did. True when the run stopped (stops.ts, or cancelled).
 */
export async function runTestRows(o: RowsRun): Promise<boolean> {
  const { run, file, services } = o;
  const data = file.data;
  if (!data?.read.ok) return false;
  const table = data.read.table;
  const choice = services.connections.choice();
  const endpoints = choice.endpoints(file.parsed.connection?.name ?? choice.active) ?? choice.endpoints(choice.active);
  const where = vscode.workspace.asRelativePath(file.uri);
  const problems = new Map(checkRows(table, dataVariables(file.text, file.parsed, endpoints ? connectionVariables(endpoints) : {}), where).map((p) => [p.line, p]));
  const requests = file.parsed.requests.filter((r) => !r.settings.disabled);
  const items = new Map<DataRow, vscode.TestItem>();
  for (const row of table.rows) {
    const item = data.items.get(row.line);
    if (!item || (o.lines !== 'all' && !o.lines.has(row.line))) continue;
    // A CSV header without a used column is one problem at the header: every row lacks it. Nothing is sent for it.
    const problem = problems.get(row.line) ?? problems.get(table.headerLine);
    if (!problem) items.set(row, item);
    else if (!o.signal.aborted) {
      run.started(item);
      run.errored(item, o.message(item, data.uri, (problem.line ?? 1) - 1, problemText(problem)));
    } else run.skipped(item);
  }
  const ended = new Set<DataRow>();
  const show = (row: DataRow, r: FileRowRun): void => {
    const item = items.get(row) as vscode.TestItem;
    ended.add(row);
    const duration = r.outcomes.reduce((ms, x) => ms + (x.durationMs ?? 0), 0);
    const first = r.outcomes.find((x) => x.verdict !== 'passed');
    if (r.ok) run.passed(item, duration);
    else if (!first) run.skipped(item);
    else {
      const message = o.message(item, file.uri, first.line, rowFailures(where, requests, r.outcomes));
      if (r.outcomes.some((x) => x.verdict === 'error')) run.errored(item, message, duration);
      else run.failed(item, message, duration);
    }
  };
  const asked = askedOnce();
  const summary = await runDataRows(
    { file: file.parsed, requests, until: 'end', rows: [...items.keys()], concurrency: 1, signal: o.signal, redact: (t) => services.connections.redact(t), onRow: show },
    (row) => {
      run.started(items.get(row) as vscode.TestItem);
      return editorRunHost({ connections: services.connections, uri: file.uri, file: file.parsed, row: new Map(Object.entries(row.values)), asked, signal: o.signal, send: o.send, snapshots: o.snapshots });
    },
  );
  // Rows not run after a stop or a cancel, and a row a cancel cut short (not written, so not shown).
  for (const [row, item] of items) if (!ended.has(row)) run.skipped(item);
  return summary.stoppedBy !== undefined || summary.cancelled;
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
