// Drives a limiter as callers would: `n` calls at once, each holding its permit `holdMs`.
import type { Limiter } from '../../../src/core/ports';

export async function drive(l: Limiter, n: number, holdMs: number): Promise<{ starts: number[]; peak: number }> {
  const starts: number[] = [];
  let active = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      const permit = await l.acquire();
      starts.push(Date.now());
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, holdMs));
      active--;
      permit.release();
    }),
  );
  return { starts: starts.sort((a, b) => a - b), peak };
}
