// "Did you mean …": the known word closest to a mistyped one (Levenshtein distance, any case), when
// it is close enough to be what was meant: at most a third of the word's letters wrong, and 3 at most.

/** The word of `known` closest to `typed`, or undefined when none is near. */
export function closestWord(typed: string, known: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  const most = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (distance <= most && (best === undefined || distance < best.distance)) best = { word: candidate, distance };
  }
  return best?.word;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
