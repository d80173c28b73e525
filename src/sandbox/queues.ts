// Two small concurrency tools of the sandbox. Hand-written: the well-known packages for this
// (p-limit, p-queue) are ES modules only, which the CommonJS test build cannot load.

/** Runs tasks at most `concurrency` at a time, first come first served. */
export class FifoQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly concurrency: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.running -= 1;
    }
  }

  /** Tasks running or waiting. */
  get size(): number {
    return this.running + this.waiting.length;
  }
}

/** Runs the tasks of one key one after another, in the order they were given; other keys run freely. */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
