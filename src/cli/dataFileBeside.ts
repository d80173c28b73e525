// A request file with a data file beside it (NAME.data.csv or NAME.data.jsonl, core/data/dataFiles.ts)
// is data-driven: `bizdata test` and `bizdata send` run it once per row, as the Test Explorer does,
// unless --data names another file. A folder run lists such files but leaves them to a run of their own.
import { lstat, stat } from 'node:fs/promises';
import { dataFileCandidates } from '../core/data/dataFiles';
import { safeLine } from '../core/sanitize';
import type { CliIo } from './io';

/** Whether a file is there (a link counts: where it leads is checked when it is opened). */
async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink() || (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The data file beside `file`, or undefined when it has none. */
export async function dataFileBeside(file: string): Promise<string | undefined> {
  for (const candidate of dataFileCandidates(file)) if (await isFile(candidate)) return candidate;
  return undefined;
}

/** The data file of a run: named with --data, or picked up by itself beside the request file (read only inside its folder). */
export interface DataOfRun {
  readonly path: string;
  readonly pickedUp: boolean;
}

/** --data as given, else the data file beside the one file named (said on stderr), else undefined. */
export async function dataOfRun(given: string | undefined, files: readonly string[], io: CliIo): Promise<DataOfRun | undefined> {
  if (given !== undefined) return { path: given, pickedUp: false };
  if (files.length !== 1 || !(await isFile(files[0]))) return undefined;
  const beside = await dataFileBeside(files[0]);
  if (beside === undefined) return undefined;
  io.stderr.write(`${safeLine(`bizdata: ${beside} is beside ${files[0]}: one run per row (--data FILE runs it with another).`)}\n`);
  return { path: beside, pickedUp: true };
}

/** The files of a folder run without the data-driven ones, each said on stderr with the command that runs it. */
export async function withoutDataDriven(files: readonly string[], io: CliIo, command: 'test'): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    const beside = await dataFileBeside(file);
    if (beside === undefined) out.push(file);
    else io.stderr.write(`${safeLine(`${file}: data-driven (${beside} beside it), not run with the others: bizdata ${command} ${file}`)}\n`);
  }
  return out;
}
