// Durable state with group commit. Changes are appended to the state file as journal lines and
// flushed with one fsync for everything pending at that moment; an answer that depends on a change
// waits for that fsync, so after a crash at any moment nothing acknowledged is lost. The file is
// compacted (rewritten as one snapshot line, atomically) at start, when the journal grows past
// COMPACT_AFTER_BYTES, and on a clean stop.
//
// Hand-written: an embedded database would do this, but those that run on Node 20 without native
// install scripts (node:sqlite needs Node 22) keep data in memory or rewrite whole files.
import { type FileHandle, open } from 'node:fs/promises';
import { writeFileAtomic } from '../core/storage/atomicFile';
import { errorMessage } from '../core/errors';
import { stateFileProblem } from './stateFile';

export const COMPACT_AFTER_BYTES = 4 * 1024 * 1024;

export interface JournalSource {
  /** Journal lines (each ending in "\n") for everything changed since the last call; "" for none. */
  changes(): string;
  /** One line with the whole state; it also covers everything changes() would return. */
  snapshot(): string;
}

interface Waiter {
  readonly upTo: number;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

export class Journal {
  private handle: FileHandle | undefined;
  private appended = 0;
  private touched = 0;
  private durableUpTo = 0;
  private waiters: Waiter[] = [];
  private loop: Promise<void> | undefined;
  /** Set after a failed write: what was collected for it is lost, so the next round rewrites everything. */
  private mustCompact = false;
  private closed = false;

  private constructor(private readonly path: string, private readonly source: JournalSource) {}

  /** Compacts the file (which proves it can be written) and opens it for appending. */
  static async open(path: string, source: JournalSource): Promise<Journal> {
    const journal = new Journal(path, source);
    try {
      await journal.compact();
    } catch (err) {
      throw stateFileProblem(path, err);
    }
    return journal;
  }

  /** Records that the state changed; the next durable() covers it. */
  touch(): void {
    this.touched += 1;
  }

  /**
   * Resolves once every change touched so far is on disk; undefined when that is already so.
   * Rejects when the write fails (the answer must not claim what was not saved).
   */
  durable(): Promise<void> | undefined {
    if (this.durableUpTo >= this.touched || this.closed) return undefined;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ upTo: this.touched, resolve, reject }));
    this.loop ??= this.drain().finally(() => {
      this.loop = undefined;
    });
    return done;
  }

  private async drain(): Promise<void> {
    // Changes made while one round writes are collected by the next: one fsync serves them all.
    while (this.durableUpTo < this.touched && !this.closed) {
      const upTo = this.touched;
      try {
        if (this.mustCompact || this.appended >= COMPACT_AFTER_BYTES) await this.compact();
        else await this.append(this.source.changes());
      } catch (err) {
        this.mustCompact = true;
        const failure = new Error(`The sandbox could not save its state to ${this.path}: ${errorMessage(err)}`, { cause: err });
        this.settle(upTo, failure);
        return;
      }
      this.durableUpTo = upTo;
      this.settle(upTo);
    }
  }

  private settle(upTo: number, failure?: Error): void {
    const [done, waiting] = [this.waiters.filter((w) => w.upTo <= upTo), this.waiters.filter((w) => w.upTo > upTo)];
    this.waiters = failure === undefined ? waiting : [];
    for (const w of failure === undefined ? done : [...done, ...waiting]) {
      if (failure === undefined) w.resolve();
      else w.reject(failure);
    }
  }

  private async append(text: string): Promise<void> {
    if (text === '' || this.handle === undefined) return;
    await this.handle.writeFile(text);
    await this.handle.datasync();
    this.appended += Buffer.byteLength(text);
  }

  /** Rewrites the file as one snapshot line (atomically: temporary file, fsync, rename) and reopens it. */
  private async compact(): Promise<void> {
    const snapshot = this.source.snapshot();
    this.source.changes();
    await writeFileAtomic(this.path, snapshot);
    const next = await open(this.path, 'a', 0o600);
    const previous = this.handle;
    this.handle = next;
    this.appended = 0;
    this.mustCompact = false;
    await previous?.close();
  }

  /** Writes what is pending as a final compaction and closes the file; later changes are not saved. */
  async close(): Promise<void> {
    await this.loop;
    this.closed = true;
    try {
      await this.compact();
      this.durableUpTo = this.touched;
      this.settle(this.touched);
    } finally {
      await this.handle?.close();
      this.handle = undefined;
    }
  }
}
