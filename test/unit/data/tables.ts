// The table of a data file's text, failing the test with the refusal when it is refused.
import * as assert from 'node:assert/strict';
import { problemText, readRows, type DataTable, type ReadRows } from '../../../src/core/data/rows';

export function tableOf(r: ReadRows): DataTable {
  if (!r.ok) assert.fail(problemText(r.problem));
  return r.table;
}

export const table = async (text: string, name: string): Promise<DataTable> => tableOf(await readRows(text, name));
