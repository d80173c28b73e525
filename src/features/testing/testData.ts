// The data file of a data-driven request file in the Test Explorer (which one: core/data/dataFiles.ts),
// read through the door (core/data/dataSource.ts: only inside the request file's folder, links
// resolved, as a stream), and how a row is labelled. The tree lists a test per row, up to a most: a
// data file longer than that runs with Run with Data or `bizdata send --data`.
import { lstat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { DataFileError } from '../../core/data/dataLimits';
import { openDataFile } from '../../core/data/dataSource';
import { problemText, type DataRow, type ReadRows } from '../../core/data/rows';
import { dataFileCandidates, requestFileOfData as requestFileOfPath } from '../../core/data/dataFiles';
import { readRoot } from '../requestFiles/editorEdges';

/** The data file beside a request file, read (or why it cannot be). */
export interface DataRows {
  readonly uri: vscode.Uri;
  readonly read: ReadRows;
  /** `FILE:LINE: message` when it cannot be read. */
  readonly problem?: string;
}

/** The data files the tree watches: a change changes the rows of the request file of the same name. */
export const DATA_GLOB = '**/*.data.{csv,jsonl}';

/** The most rows the tree lists as tests. */
export const MAX_ROW_TESTS = 10_000;

/** NAME.bizdata.http for NAME.data.csv or NAME.data.jsonl. */
export function requestFileOfData(data: vscode.Uri): vscode.Uri {
  return data.with({ path: requestFileOfPath(data.path) });
}

/** NAME.data.csv or NAME.data.jsonl beside NAME.bizdata.http, read; undefined when there is none. */
export async function dataFileOf(requestFile: vscode.Uri): Promise<DataRows | undefined> {
  if (requestFile.scheme !== 'file') return undefined;
  for (const path of dataFileCandidates(requestFile.path)) {
    const uri = requestFile.with({ path });
    // A link counts as there: where it leads is the door's to check (and refuse).
    if (!(await lstat(uri.fsPath).then(() => true, () => false))) continue;
    const file = vscode.workspace.asRelativePath(uri);
    const read = await readTable(uri, file, readRoot(requestFile));
    return { uri, read, ...(read.ok ? {} : { problem: problemText(read.problem) }) };
  }
  return undefined;
}

async function readTable(uri: vscode.Uri, file: string, root: string): Promise<ReadRows> {
  const opened = await openDataFile(uri.fsPath, { named: file, root });
  if (!opened.ok) return { ok: false, problem: { file, message: opened.message.replace(`The data file ${file} `, '') } };
  const { source } = opened;
  const rows: DataRow[] = [];
  const columns = new Set<string>();
  try {
    for await (const item of source.items()) {
      if (item.kind === 'columns') item.columns.forEach((c) => columns.add(c));
      else if (rows.length === MAX_ROW_TESTS) return { ok: false, problem: { file, message: `more than ${MAX_ROW_TESTS} rows, more than the Testing view lists; run the file with "Run with Data…" (or bizdata send --data), which streams any number of rows.` } };
      else rows.push(item.row);
    }
  } catch (err) {
    if (err instanceof DataFileError) return { ok: false, problem: err.problem };
    throw err;
  } finally {
    await source.close();
  }
  return { ok: true, table: { file, format: source.format, columns: [...columns], rows } };
}

/** "line 2: country=GB, name=Acme": the row's line in the data file and its first values. */
export function rowLabel(row: DataRow): string {
  const values = Object.entries(row.values).map(([k, v]) => `${k}=${v}`);
  const shown = values.slice(0, 3).join(', ');
  return `line ${row.line}: ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}${values.length > 3 ? ', …' : ''}`;
}
