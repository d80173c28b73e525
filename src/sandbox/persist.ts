// Coalesced, atomic saves of the sandbox state (core's writeFileAtomic: temporary file, fsync,
// rename, directory fsync). A kill at any moment leaves either the old or the new complete file.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../core/atomicFile';
import { errorMessage } from '../core/errors';

/** Reads a JSON state file; undefined when it does not exist yet. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`Sandbox state file ${path} is not valid JSON: ${errorMessage(err)}`, { cause: err });
  }
}

/**
 * Coalesces many changes into few writes (a data call changes usage counters, and writing once per
 * call would dominate the hot path), and never runs two writes of the same file at once.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;
  private dirty = false;
  private stopped = false;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => string,
    private readonly onError: (err: unknown) => void,
    private readonly delayMs = 20,
  ) {}

  schedule(): void {
    if (this.stopped) return;
    this.dirty = true;
    if (this.timer !== undefined || this.loop !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.start();
    }, this.delayMs);
  }

  private start(): Promise<void> {
    this.loop ??= this.drain().finally(() => {
      this.loop = undefined;
      if (this.dirty) this.schedule();
    });
    return this.loop;
  }

  private async drain(): Promise<void> {
    // A change made while a write runs sets `dirty` again and is picked up by the next round.
    while (this.dirty) {
      this.dirty = false;
      await writeFileAtomic(this.path, this.snapshot()).catch(this.onError);
    }
  }

  /** Writes what is pending and accepts no more changes: the instance is closing. */
  async stop(): Promise<void> {
    await this.flush();
    this.stopped = true;
  }

  /** Writes any pending change now; used on close so nothing is lost on a clean stop. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.start();
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.start();
    }
  }
}
