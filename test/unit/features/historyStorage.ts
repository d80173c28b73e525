// The lookup history's storage as the extension's (lookupStorage.ts) behaves, in plain Node: records
// in a Map standing for globalState (values copied as JSON, as VS Code's Memento does; one Map may be
// shared by two models, like two windows), files in a real folder, written beside and renamed over
// without holding the thread (vscode.workspace.fs does not either).
// Like VS Code's ExtensionMemento, it writes the whole globalState value once per turn with updates
// (a RunOnceScheduler of 0 ms): counted as mementoWrites and mementoBytes.
// It counts what is written, so tests and the benchmark can say what one lookup costs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HistoryStorage } from '../../../src/features/state/historyRecords';

export interface Written {
  /** Record updates (removals included) and the JSON bytes of the values set. */
  records: number;
  recordBytes: number;
  /** Files written and their bytes. */
  files: number;
  fileBytes: number;
  /** Files removed. */
  deletions: number;
  /** What VS Code writes for the same updates: it stores an extension's globalState as one value, whole. */
  mementoWrites: number;
  mementoBytes: number;
}

const NOTHING_WRITTEN: Written = { records: 0, recordBytes: 0, files: 0, fileBytes: 0, deletions: 0, mementoWrites: 0, mementoBytes: 0 };

export class FolderHistoryStorage implements HistoryStorage {
  readonly written: Written = { ...NOTHING_WRITTEN };
  private flush: NodeJS.Timeout | undefined;

  constructor(
    readonly folder: string,
    readonly records: Map<string, unknown> = new Map(),
  ) {}

  /** A storage in a new temporary folder; `remove()` deletes it. */
  static temporary(records?: Map<string, unknown>): FolderHistoryStorage {
    return new FolderHistoryStorage(join(mkdtempSync(join(tmpdir(), 'bizdata-history-')), 'lookups'), records);
  }

  /** Another window: the same records and folder, counted apart. */
  window(): FolderHistoryStorage {
    return new FolderHistoryStorage(this.folder, this.records);
  }

  resetCounts(): void {
    Object.assign(this.written, NOTHING_WRITTEN);
  }

  keys(): readonly string[] {
    return [...this.records.keys()];
  }

  get(key: string): unknown {
    return this.records.get(key);
  }

  update(key: string, value: unknown): Promise<void> {
    this.written.records += 1;
    if (value === undefined) this.records.delete(key);
    else {
      const json = JSON.stringify(value);
      this.written.recordBytes += Buffer.byteLength(json);
      this.records.set(key, JSON.parse(json));
    }
    this.flush ??= setTimeout(() => {
      this.flush = undefined;
      this.written.mementoWrites += 1;
      this.written.mementoBytes += this.mementoSize();
    }, 0);
    return Promise.resolve();
  }

  /** Until the pending write of the globalState value has been counted. */
  async settled(): Promise<void> {
    while (this.flush) await new Promise((resolve) => setTimeout(resolve, 1));
  }

  /** Bytes of the whole globalState value as VS Code would write it now. */
  mementoSize(): number {
    return Buffer.byteLength(JSON.stringify(Object.fromEntries(this.records)));
  }

  async writeFile(name: string, data: Uint8Array): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const temporary = join(this.folder, `${name}.${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(temporary, data);
    await rename(temporary, join(this.folder, name));
    this.written.files += 1;
    this.written.fileBytes += data.length;
  }

  readFile(name: string): Promise<Uint8Array> {
    return readFile(join(this.folder, name));
  }

  deleteFile(name: string): Promise<void> {
    try {
      unlinkSync(join(this.folder, name));
      this.written.deletions += 1;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return Promise.resolve();
  }

  listFiles(): Promise<readonly string[]> {
    try {
      return Promise.resolve(readdirSync(this.folder));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Promise.resolve([]);
      throw err;
    }
  }

  /** Every file's text, by name. */
  files(): Map<string, string> {
    return new Map(readdirSync(this.folder).map((name) => [name, readFileSync(join(this.folder, name), 'utf8')]));
  }

  remove(): void {
    rmSync(join(this.folder, '..'), { recursive: true, force: true });
  }
}
