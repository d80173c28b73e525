// Finds result codes in large JSON text on a worker thread, so the extension host never stops for a
// big response: the text crosses to the worker in slices, one per turn of the event loop (posting a
// 50 MB string at once would hold the thread for tens of milliseconds), the worker runs the same
// finder as everything else, and only the findings come back. Plain Node (no `vscode`): the
// benchmark drives it as the extension does.
import { Worker } from 'node:worker_threads';
import { BUILT_IN, type CodeBook, type CodeInfo } from '../../core/codes';
import type { CodeFinding } from './findCodes';

/** Characters per slice: small enough that posting one takes well under a millisecond. */
export const SLICE_CHARS = 256 * 1024;
/** A worker with nothing to do for this long is stopped (it holds a copy of the last text). */
const IDLE_MS = 30_000;

/** Messages to the worker. */
export type ScanRequest =
  | { readonly type: 'slice'; readonly id: number; readonly text: string }
  /** The text is complete: scan it with this catalog (the built-in one plus the user's codes file). */
  | { readonly type: 'end'; readonly id: number; readonly codes: readonly CodeInfo[] }
  | { readonly type: 'cancel'; readonly id: number };

/** Messages from the worker. */
export type ScanReply = { readonly id: number; readonly findings: CodeFinding[] } | { readonly id: number; readonly error: string };

export class ScanCancelledError extends Error {
  constructor() {
    super('The scan was cancelled.');
    this.name = 'ScanCancelledError';
  }
}

interface Pending {
  resolve(findings: CodeFinding[]): void;
  reject(err: Error): void;
}

export class CodeScanner {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private longestStep = 0;

  /** The longest the last scan held this thread at one time (slicing and posting), in milliseconds. */
  get lastLongestStepMs(): number {
    return this.longestStep;
  }

  /** `workerPath`: the bundled worker (dist/scanWorker.js). */
  constructor(private readonly workerPath: string) {}

  /** The codes in `text`, described by `book`; rejects with ScanCancelledError when `signal` aborts first. */
  async scan(text: string, options: { readonly book?: CodeBook; readonly signal?: AbortSignal } = {}): Promise<CodeFinding[]> {
    const { book = BUILT_IN, signal } = options;
    const id = this.nextId++;
    const worker = this.start();
    // Held alive while a scan is pending (a command-line host would otherwise exit under it).
    worker.ref();
    const done = new Promise<CodeFinding[]>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // A cancel can settle it while slices are still going out; it is awaited below.
    done.catch(() => undefined);
    const cancel = (): void => {
      worker.postMessage({ type: 'cancel', id } satisfies ScanRequest);
      this.settle(id, { reject: new ScanCancelledError() });
    };
    signal?.addEventListener('abort', cancel, { once: true });
    this.longestStep = 0;
    try {
      for (let at = 0; at < text.length; at += SLICE_CHARS) {
        if (signal?.aborted || !this.pending.has(id)) break;
        const t0 = performance.now();
        worker.postMessage({ type: 'slice', id, text: text.slice(at, at + SLICE_CHARS) } satisfies ScanRequest);
        this.longestStep = Math.max(this.longestStep, performance.now() - t0);
        await nextTurn();
      }
      if (this.pending.has(id) && !signal?.aborted) worker.postMessage({ type: 'end', id, codes: book.entries } satisfies ScanRequest);
      return await done;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Stops the worker; scans in flight reject. */
  async dispose(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    for (const id of [...this.pending.keys()]) this.settle(id, { reject: new ScanCancelledError() });
    await worker?.terminate();
  }

  private start(): Worker {
    clearTimeout(this.idleTimer);
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerPath);
    worker.on('message', (reply: ScanReply) => this.settle(reply.id, 'error' in reply ? { reject: new Error(reply.error) } : { resolve: reply.findings }));
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('The code scanner stopped.'));
    });
    this.worker = worker;
    return worker;
  }

  private settle(id: number, outcome: { resolve: CodeFinding[] } | { reject: Error }): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if ('resolve' in outcome) p.resolve(outcome.resolve);
    else p.reject(outcome.reject);
    if (this.pending.size > 0) return;
    // An idle scanner keeps no process alive, and stops after a while.
    this.worker?.unref();
    this.idleTimer = setTimeout(() => void this.stopIdle(), IDLE_MS).unref();
  }

  private failAll(err: Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { reject: err });
  }

  private async stopIdle(): Promise<void> {
    if (this.pending.size > 0) return;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
