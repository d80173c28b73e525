// Numbers as a person reads them, the same in every output of a run (the console, the JSON, JUnit
// and the report): a duration rounded to what matters, a count with its noun in the right number.

/** "240 ms" under 10 s, "12.3 s" under a minute, "4 min 05 s" under an hour, "1 h 02 min" beyond. */
export function durationText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0 ms';
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${(Math.round(seconds * 10) / 10).toFixed(1)} s`;
  const whole = Math.round(seconds);
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  const minutes = Math.round(whole / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The run's duration as JSON gives it: whole milliseconds. */
export function wholeMs(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : 0;
}

/** "1 sign-in", "2 sign-ins", "0 rows"; `many` for a plural that is not the noun and an s. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${noun(count, one, many)}`;
}

/** The noun alone, in the number `count` calls for. */
export function noun(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/** A rate as a person reads it: "8", "9.3", "0.4" (one decimal under 10, whole above). */
export function rateText(perSecond: number): string {
  if (!Number.isFinite(perSecond) || perSecond <= 0) return '0';
  return perSecond >= 10 ? String(Math.round(perSecond)) : String(Math.round(perSecond * 10) / 10);
}
