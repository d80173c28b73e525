// Data-driven files in the Test Explorer: NAME.bizdata.http with NAME.data.csv (or NAME.data.jsonl)
// beside it runs as one test per row of the data file, each column a variable (`{{country}}`), the
// file's requests run for each row, with a chain of its own, by the rows runner of every data run
// (core/run/dataRows.ts), whose rule says what a row came to: this file only shows it. A data file
// with a row that lacks a variable refuses the run before anything is sent (the run's preflight, as
// `bizdata test` refuses it); a row whose values cannot be sent errs at its line in the data file; a
// failure that stops a run (stops.ts) or a cancel skips the rows after it.
import * as vscode from 'vscode';
import type { DataSource } from '../../core/data/dataSource';
import type { DataRow } from '../../core/data/rows';
import type { ParsedRequest } from '../../core/requests/requestFile';
import { runDataRows, type FileRowRun } from '../../core/run/dataRows';
import type { RequestOutcome } from '../../core/run/judge';
import { safeText } from '../../core/sanitize';
import type { EditorEdges } from '../requestFiles/editorEdges';
import { editorRunHost, type EditorSend } from '../requestFiles/editorRunHost';
import type { Services } from '../services';
import type { ReadFile } from './testTree';

export interface RowsRun {
  readonly run: vscode.TestRun;
  readonly file: ReadFile;
  /** The rows' lines chosen, or all. */
  readonly lines: ReadonlySet<number> | 'all';
  /** The data file, opened for this run (through the door), and the run's edges, passed. */
  readonly source: DataSource;
  readonly edges: EditorEdges;
  readonly services: Pick<Services, 'connections'>;
  readonly send: EditorSend;
  readonly signal: AbortSignal;
  readonly message: (item: vscode.TestItem, uri: vscode.Uri, line: number, text: string) => vscode.TestMessage;
}

/**
 * Runs the chosen rows of a data-driven file on the rows runner of every data run (core/run/dataRows.ts),
 * a row at a time, as the data file streams by, and shows what it decided each row came to: ok passes;
 * not ok though none of its requests failed (a `# @note` declined), or cut short by Cancel, is skipped;
 * else it failed, or erred when a request did (a row whose values cannot be sent errs at ROWS:LINE).
 * True when the run stopped (stops.ts, or cancelled).
 */
export async function runTestRows(o: RowsRun): Promise<boolean> {
  const { run, file, services, source, edges } = o;
  const data = file.data;
  if (!data) return false;
  const where = vscode.workspace.asRelativePath(file.uri);
  const requests = file.parsed.requests.filter((r) => !r.settings.disabled);
  const items = new Map<number, vscode.TestItem>();
  for (const [line, item] of data.items) if (o.lines === 'all' || o.lines.has(line)) items.set(line, item);
  const ended = new Set<number>();
  const show = (row: DataRow, r: FileRowRun): void => {
    const item = items.get(row.line) as vscode.TestItem;
    ended.add(row.line);
    const duration = r.outcomes.reduce((ms, x) => ms + (x.durationMs ?? 0), 0);
    const first = r.outcomes.find((x) => x.verdict !== 'passed');
    if (r.ok) run.passed(item, duration);
    else if (!first) run.skipped(item);
    else {
      const text = r.unsent && r.failure !== undefined ? r.failure : rowFailures(where, requests, r.outcomes);
      const message = r.unsent ? o.message(item, data.uri, row.line - 1, text) : o.message(item, file.uri, first.line, text);
      if (r.outcomes.some((x) => x.verdict === 'error')) run.errored(item, message, duration);
      else run.failed(item, message, duration);
    }
  };
  const summary = await runDataRows(
    {
      file: file.parsed,
      requests,
      names: { requestFile: where, dataFile: vscode.workspace.asRelativePath(data.uri) },
      until: 'end',
      rows: chosenRows(source, items),
      total: items.size,
      concurrency: 1,
      signal: o.signal,
      secrets: edges.secrets,
      onRow: show,
    },
    (row) => {
      run.started(items.get(row.line) as vscode.TestItem);
      return editorRunHost({ connections: services.connections, edges, uri: file.uri, signal: o.signal, send: o.send });
    },
  );
  // Rows not run after a stop or a cancel, and a row a cancel cut short (not written, so not shown).
  for (const [line, item] of items) if (!ended.has(line)) run.skipped(item);
  return summary.stoppedBy !== undefined || summary.cancelled;
}

/** The data file's rows that have a chosen item, as it streams by. */
async function* chosenRows(source: DataSource, items: ReadonlyMap<number, vscode.TestItem>): AsyncGenerator<DataRow> {
  for await (const row of source.rows()) if (items.has(row.line)) yield row;
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
