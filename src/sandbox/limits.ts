// Per-customer rate and concurrency limits. One instance per customer serves both interfaces, all
// tokens and all connections, as the spec requires (section 8: "one measure across all requests").

export class CustomerLimiter {
  /** Ring of the times of the last `qps` accepted calls; the oldest one decides the sliding window. */
  private readonly stamps: Float64Array;
  private next = 0;
  private activeCount = 0;

  constructor(
    private readonly qps: number,
    private readonly concurrency: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.stamps = new Float64Array(qps).fill(Number.NEGATIVE_INFINITY);
  }

  /** Takes a slot, or returns false when the customer is over its concurrency or QPS limit. */
  tryAcquire(): boolean {
    if (this.activeCount >= this.concurrency) return false;
    const t = this.now();
    if (t - (this.stamps[this.next] ?? Number.NEGATIVE_INFINITY) < 1000) return false;
    this.stamps[this.next] = t;
    this.next = (this.next + 1) % this.qps;
    this.activeCount += 1;
    return true;
  }

  release(): void {
    if (this.activeCount > 0) this.activeCount -= 1;
  }

  get active(): number {
    return this.activeCount;
  }
}
