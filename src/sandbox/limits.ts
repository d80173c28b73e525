// Per-customer rate and concurrency limits. One instance per customer serves both interfaces, all
// tokens and all connections, as the spec requires (section 8: "one measure across all requests").

const WINDOW_MS = 1000;
const FIRST_CAPACITY = 64;

export class CustomerLimiter {
  /**
   * Times of the calls accepted in the last second, oldest first, in a ring that grows by doubling
   * up to `qps` entries. Sized by use, not by the limit: a qps of a million costs nothing until
   * calls arrive that fast.
   */
  private stamps: Float64Array;
  private head = 0;
  private size = 0;
  private activeCount = 0;

  constructor(
    private readonly qps: number,
    private readonly concurrency: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.stamps = new Float64Array(Math.min(qps, FIRST_CAPACITY));
  }

  /** Takes a slot, or returns false when the customer is over its concurrency or QPS limit. */
  tryAcquire(): boolean {
    if (this.activeCount >= this.concurrency) return false;
    const t = this.now();
    const capacity = this.stamps.length;
    while (this.size > 0 && t - (this.stamps[this.head] ?? 0) >= WINDOW_MS) {
      this.head = (this.head + 1) % capacity;
      this.size -= 1;
    }
    if (this.size >= this.qps) return false;
    if (this.size === capacity) this.grow();
    this.stamps[(this.head + this.size) % this.stamps.length] = t;
    this.size += 1;
    this.activeCount += 1;
    return true;
  }

  release(): void {
    if (this.activeCount > 0) this.activeCount -= 1;
  }

  get active(): number {
    return this.activeCount;
  }

  private grow(): void {
    const old = this.stamps;
    const next = new Float64Array(Math.min(this.qps, old.length * 2));
    for (let i = 0; i < this.size; i++) next[i] = old[(this.head + i) % old.length] ?? 0;
    this.stamps = next;
    this.head = 0;
  }
}
