// Keeps large answers off the extension host's thread: finds result codes in them and pretty-prints
// them on a worker thread. The text crosses to the worker in slices, one per turn of the event loop
// (posting a 50 MB string at once would hold the thread for tens of milliseconds); the worker runs
// the same finder as everything else and sends back only the findings, or the pretty text in slices.
// Plain Node (no `vscode`): the benchmark drives it as the extension does.
import { Worker } from 'node:worker_threads';
import type { CodeInfo } from '../../core/codes/codeInfo';
import { BUILT_IN, type CodeBook } from '../../core/codes/codes';
import type { CodeFinding } from './findCodes';

/** Characters per slice: small enough that posting one takes well under a millisecond. */
export const SLICE_CHARS = 256 * 1024;
/** A worker with nothing to do for this long is stopped (it holds a copy of the last text). */
const IDLE_MS = 30_000;

/** A text, or its slices in order (a document read range by range, never joined on this thread). */
export type TextSource = string | Iterable<string>;

/** What the worker does with a text once all its slices are there. */
export type WorkerJob =
  /** Find the codes, described by this catalog (the built-in one plus the user's codes file). */
  | { readonly kind: 'scan'; readonly codes: readonly CodeInfo[] }
  /**
   * Parse it as JSON and send it back indented by two spaces, in slices cut at line ends; as it came
   * when the indented text would be longer than `maxChars`.
   */
  | { readonly kind: 'pretty'; readonly maxChars: number };

/** Messages to the worker. */
export type WorkerRequest =
  | { readonly type: 'slice'; readonly id: number; readonly text: string }
  | { readonly type: 'end'; readonly id: number; readonly job: WorkerJob }
  | { readonly type: 'cancel'; readonly id: number };

/** Messages from the worker. */
export type WorkerReply =
  | { readonly id: number; readonly findings: CodeFinding[] }
  /** One slice of a pretty-printed text, in order. */
  | { readonly id: number; readonly slice: string }
  /** The end of a `pretty` job: false when the text was not JSON (and no slice came). */
  | { readonly id: number; readonly pretty: boolean }
  | { readonly id: number; readonly error: string };

export class ScanCancelledError extends Error {
  constructor() {
    super('The scan was cancelled.');
    this.name = 'ScanCancelledError';
  }
}

interface Pending {
  readonly slices: string[];
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export class CodeScanner {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private longestStep = 0;

  /** `workerPath`: the bundled worker (dist/scanWorker.js). */
  constructor(private readonly workerPath: string) {}

  /** The longest the last job held this thread at one time (slicing and posting), in milliseconds. */
  get lastLongestStepMs(): number {
    return this.longestStep;
  }

  /** The codes in the text, described by `book`; rejects with ScanCancelledError when `signal` aborts first. */
  scan(source: TextSource, options: { readonly book?: CodeBook; readonly signal?: AbortSignal } = {}): Promise<CodeFinding[]> {
    return this.run(source, { kind: 'scan', codes: (options.book ?? BUILT_IN).entries }, options.signal) as Promise<CodeFinding[]>;
  }

  /**
   * The JSON text indented by two spaces, as slices cut at line ends, or as it came when indented it
   * would be longer than `maxChars`; undefined when it is not JSON.
   */
  prettyPrint(source: TextSource, options: { readonly maxChars?: number; readonly signal?: AbortSignal } = {}): Promise<string[] | undefined> {
    return this.run(source, { kind: 'pretty', maxChars: options.maxChars ?? Infinity }, options.signal) as Promise<string[] | undefined>;
  }

  /** Stops the worker; jobs in flight reject. */
  async dispose(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    for (const id of [...this.pending.keys()]) this.settle(id, { reject: new ScanCancelledError() });
    await worker?.terminate();
  }

  private async run(source: TextSource, job: WorkerJob, signal: AbortSignal | undefined): Promise<unknown> {
    const id = this.nextId++;
    const worker = this.start();
    // Held alive while a job is pending (a command-line host would otherwise exit under it).
    worker.ref();
    const done = new Promise<unknown>((resolve, reject) => this.pending.set(id, { slices: [], resolve, reject }));
    // A cancel can settle it while slices are still going out; it is awaited below.
    done.catch(() => undefined);
    const cancel = (): void => {
      worker.postMessage({ type: 'cancel', id } satisfies WorkerRequest);
      this.settle(id, { reject: new ScanCancelledError() });
    };
    signal?.addEventListener('abort', cancel, { once: true });
    this.longestStep = 0;
    try {
      for (const text of typeof source === 'string' ? slicesOf(source) : source) {
        if (signal?.aborted || !this.pending.has(id)) break;
        const t0 = performance.now();
        worker.postMessage({ type: 'slice', id, text } satisfies WorkerRequest);
        this.longestStep = Math.max(this.longestStep, performance.now() - t0);
        await nextTurn();
      }
      if (this.pending.has(id) && !signal?.aborted) worker.postMessage({ type: 'end', id, job } satisfies WorkerRequest);
      return await done;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  private start(): Worker {
    clearTimeout(this.idleTimer);
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerPath);
    worker.on('message', (reply: WorkerReply) => this.receive(reply));
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('The code scanner stopped.'));
    });
    this.worker = worker;
    return worker;
  }

  private receive(reply: WorkerReply): void {
    const p = this.pending.get(reply.id);
    if ('slice' in reply) p?.slices.push(reply.slice);
    else if ('findings' in reply) this.settle(reply.id, { resolve: reply.findings });
    else if ('pretty' in reply) this.settle(reply.id, { resolve: reply.pretty ? p?.slices : undefined });
    else this.settle(reply.id, { reject: new Error(reply.error) });
  }

  private settle(id: number, outcome: { resolve: unknown } | { reject: Error }): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if ('resolve' in outcome) p.resolve(outcome.resolve);
    else p.reject(outcome.reject);
    if (this.pending.size > 0) return;
    // An idle worker keeps no process alive, and stops after a while.
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

/** A string in slices of SLICE_CHARS (V8 makes each without copying). */
export function* slicesOf(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += SLICE_CHARS) yield text.slice(at, at + SLICE_CHARS);
}

/**
 * A text cut into slices of about SLICE_CHARS that end at a line end where one is near, so that no
 * line (and no secret written on it) is split between two slices; never inside a surrogate pair, so
 * each slice can be encoded on its own.
 */
export function* lineSlicesOf(text: string): Generator<string> {
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + SLICE_CHARS);
    if (end < text.length) {
      const newline = text.lastIndexOf('\n', end - 1);
      if (newline >= at + SLICE_CHARS / 2) end = newline + 1;
      else if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    }
    yield text.slice(at, end);
    at = end;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
