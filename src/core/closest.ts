// The closest right word to a mistyped one ("did you mean …"), for every place that names a word the
// user got wrong: command-line commands and options, and any other list of known words.

/**
 * Edit distance with adjacent swaps counted as one edit (optimal string alignment), so that "tset"
 * is one edit from "test", as a person sees it. Case is ignored.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows = Array.from({ length: s.length + 1 }, (_, i) => [i, ...new Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) rows[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[s.length][t.length];
}

/**
 * The known word closest to `word`, when it is close enough to be what was meant: at most one edit
 * for words of up to four letters, two up to eight, three beyond; a word that starts a known one
 * (`--sand` for `--sandbox`) counts too. Ties go to the earlier word of `known`.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  if (word === '') return undefined;
  const allowed = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  let best: { readonly word: string; readonly distance: number } | undefined;
  for (const k of known) {
    const d = editDistance(word, k);
    if (d <= allowed && (best === undefined || d < best.distance)) best = { word: k, distance: d };
  }
  if (best !== undefined) return best.word;
  const lower = word.toLowerCase();
  const prefixed = known.filter((k) => k.toLowerCase().startsWith(lower));
  return word.length >= 3 && prefixed.length === 1 ? prefixed[0] : undefined;
}

/** " Did you mean "X"?" for a word close to one of `known`, else "". */
export function didYouMean(word: string, known: readonly string[]): string {
  const close = closest(word.trim(), known);
  return close === undefined ? '' : ` Did you mean "${close}"?`;
}
