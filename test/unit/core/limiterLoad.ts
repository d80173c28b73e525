// Drives a limiter as callers would: `n` calls at once, each holding its permit `holdMs`. Limiters
// driven together may share one `inFlight` count, to see their calls in flight all together.
import type { Limiter } from '../../../src/core/ports';

export interface InFlight {
  active: number;
  peak: number;
}

export async function drive(l: Limiter, n: number, holdMs: number, inFlight: InFlight = { active: 0, peak: 0 }): Promise<{ starts: number[]; peak: number }> {
  const starts: number[] = [];
  await Promise.all(
    Array.from({ length: n }, async () => {
      const permit = await l.acquire();
      starts.push(Date.now());
      inFlight.peak = Math.max(inFlight.peak, ++inFlight.active);
      await new Promise((r) => setTimeout(r, holdMs));
      inFlight.active--;
      permit.release();
    }),
  );
  return { starts: starts.sort((a, b) => a - b), peak: inFlight.peak };
}
