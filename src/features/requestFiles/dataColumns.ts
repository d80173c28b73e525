// The columns of the data file beside a request file (NAME.data.csv or NAME.data.jsonl beside
// NAME.bizdata.http), for the editor's diagnostics: a data-driven file's `{{country}}` is a column,
// no unknown variable. Read through the door (only inside the file's folder), the head only: a CSV's
// header, or the keys of a JSON Lines file's first rows.
import { lstat } from 'node:fs/promises';
import type * as vscode from 'vscode';
import { dataFileCandidates } from '../../core/data/dataFiles';
import { DataFileError } from '../../core/data/dataLimits';
import { openDataFile } from '../../core/data/dataSource';
import { readRoot } from './editorEdges';

/** JSON Lines rows read for their keys. */
const HEAD_ROWS = 1000;

/** The columns of the data file beside `uri`; undefined when it has none (or it cannot be read at all). */
export async function dataColumnsBeside(uri: vscode.Uri): Promise<readonly string[] | undefined> {
  if (uri.scheme !== 'file') return undefined;
  for (const path of dataFileCandidates(uri.fsPath)) {
    if (!(await lstat(path).then(() => true, () => false))) continue;
    const opened = await openDataFile(path, { named: path, root: readRoot(uri) });
    if (!opened.ok) return undefined;
    const columns = new Set<string>();
    let rows = 0;
    try {
      for await (const item of opened.source.items()) {
        if (item.kind === 'columns') {
          item.columns.forEach((c) => columns.add(c));
          break;
        }
        Object.keys(item.row.values).forEach((c) => columns.add(c));
        if (++rows >= HEAD_ROWS) break;
      }
    } catch (err) {
      if (!(err instanceof DataFileError)) throw err;
    } finally {
      await opened.source.close();
    }
    return [...columns];
  }
  return undefined;
}
