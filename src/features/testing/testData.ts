// The data file of a data-driven request file in the Test Explorer (which one: core/data/dataFiles.ts),
// read by the data layer (core/data/rows.ts), and how a row is labelled.
import * as vscode from 'vscode';
import { problemText, readRows, type DataRow, type ReadRows } from '../../core/data/rows';
import { dataFileCandidates, requestFileOfData as requestFileOfPath } from '../../core/data/dataFiles';
import { uriExists } from '../shared/uriExists';

/** The data file beside a request file, read (or why it cannot be). */
export interface DataRows {
  readonly uri: vscode.Uri;
  readonly read: ReadRows;
  /** `FILE:LINE: message` when it cannot be read. */
  readonly problem?: string;
}

/** The data files the tree watches: a change changes the rows of the request file of the same name. */
export const DATA_GLOB = '**/*.data.{csv,jsonl}';

/** NAME.bizdata.http for NAME.data.csv or NAME.data.jsonl. */
export function requestFileOfData(data: vscode.Uri): vscode.Uri {
  return data.with({ path: requestFileOfPath(data.path) });
}

/** NAME.data.csv or NAME.data.jsonl beside NAME.bizdata.http, read; undefined when there is none. */
export async function dataFileOf(requestFile: vscode.Uri): Promise<DataRows | undefined> {
  for (const path of dataFileCandidates(requestFile.path)) {
    const uri = requestFile.with({ path });
    if (!(await uriExists(uri))) continue;
    const read = readRows(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'), vscode.workspace.asRelativePath(uri));
    return { uri, read, ...(read.ok ? {} : { problem: problemText(read.problem) }) };
  }
  return undefined;
}

/** "line 2: country=GB, name=Acme": the row's line in the data file and its first values. */
export function rowLabel(row: DataRow): string {
  const values = Object.entries(row.values).map(([k, v]) => `${k}=${v}`);
  const shown = values.slice(0, 3).join(', ');
  return `line ${row.line}: ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}${values.length > 3 ? ', …' : ''}`;
}
