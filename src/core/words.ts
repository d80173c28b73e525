// The closest right word to a mistyped one, for messages that say "did you mean …": the choice
// fewest edits away (optimal string alignment: an insertion, a deletion, a change or two letters
// swapped each count one), if it is close enough to be what was meant.

/** Edits between `a` and `b`, case ignored. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // Three rows: the one before the last is needed for a swap of two letters.
  let before: number[] = [];
  let last = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const change = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + change);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row.push(d);
    }
    before = last;
    last = row;
  }
  return last[t.length];
}

/**
 * The choice closest to `word`, when it is at most a third of its letters away (at least one edit), or
 * when `word` starts with it or it starts with `word` ("monthly" → "month"); undefined otherwise.
 */
export function closestWord(word: string, choices: readonly string[]): string | undefined {
  const w = word.trim().toLowerCase();
  if (w === '') return undefined;
  let best: { choice: string; distance: number } | undefined;
  for (const choice of choices) {
    const c = choice.toLowerCase();
    const distance = w.startsWith(c) || c.startsWith(w) ? Math.min(1, editDistance(w, c)) : editDistance(w, c);
    if (best === undefined || distance < best.distance) best = { choice, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.max(1, Math.floor(Math.max(w.length, best.choice.length) / 3)) ? best.choice : undefined;
}

/** " Did you mean "X"?" for a word that is close to one of `choices`, else "". */
export function didYouMean(word: string, choices: readonly string[]): string {
  const close = closestWord(word, choices);
  return close === undefined ? '' : ` Did you mean "${close}"?`;
}
