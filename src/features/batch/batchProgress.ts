// Plain helpers of the batch command: where results go, and the progress line. No `vscode` import.

/** Results are written beside the input as JSON lines: `<file>.results.jsonl`. */
export function resultsPathFor(inputPath: string): string {
  return `${inputPath}.results.jsonl`;
}

export interface BatchCounts {
  readonly done: number;
  readonly total: number;
  /** Lookups skipped because an earlier run already wrote them (resume). */
  readonly skipped?: number;
  readonly elapsedMs: number;
}

/** "12 of 40 done, 3.2 per second" (the rate counts only this run's lookups). */
export function progressMessage(c: BatchCounts): string {
  const ranNow = c.done - (c.skipped ?? 0);
  const seconds = c.elapsedMs / 1000;
  const rate = seconds > 0 && ranNow > 0 ? `, ${formatRate(ranNow / seconds)} per second` : '';
  const resumed = c.skipped ? ` (${c.skipped} from an earlier run)` : '';
  return `${c.done} of ${c.total} done${rate}${resumed}`;
}

function formatRate(perSecond: number): string {
  return perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

/** The progress bar's increment (percent) for going from `before` to `after` of `total`. */
export function progressIncrement(before: number, after: number, total: number): number {
  if (total <= 0) return 0;
  return ((after - before) / total) * 100;
}
