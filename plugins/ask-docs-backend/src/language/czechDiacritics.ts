/**
 * Restores the diacritics of a Czech word typed without them ("mrizku" → "mřížku") by
 * enumerating the accented spellings Czech orthography allows and keeping those the
 * dictionary accepts. Hunspell's suggest() finds the same words but takes ~100 ms per word
 * (it also tries n-gram corrections); this takes a few milliseconds.
 */

// Accented letters Czech uses, minus "ó" (loanwords only). Words whose restoration is
// pruned away here still meet their documents through the folded stem key.
const VARIANTS: Record<string, string[]> = {
  a: ['á'],
  c: ['č'],
  d: ['ď'],
  e: ['é', 'ě'],
  i: ['í'],
  n: ['ň'],
  r: ['ř'],
  s: ['š'],
  t: ['ť'],
  u: ['ú', 'ů'],
  y: ['ý'],
  z: ['ž'],
};

// Orthography that prunes the enumeration (rare exceptions such as "ďábel" or "neúspěch" are
// given up): "ě" follows only b d f m n p t v; "ď ť ň" are never written before e, i or y
// ("dě", "ti" are written plain) but stand before a, o, u ("odstraňování", "ťukat") and
// consonants;
// "ú" starts a word, "ů" never does; "ý" never follows a soft consonant and "í" never follows
// h, k, r.
const E_CARON_AFTER = new Set(['b', 'd', 'f', 'm', 'n', 'p', 't', 'v']);
const NO_Y_ACUTE_AFTER = new Set(['č', 'ř', 'š', 'ž', 'c', 'j', 'ď', 'ť', 'ň']);
const NO_I_ACUTE_AFTER = new Set(['h', 'k', 'r']);
const SOFTENING_VOWELS = new Set(['e', 'i', 'y']);

/** Upper bound on spellings checked per word (each is one dictionary lookup, 5–40 µs). */
export const MAX_RESTORE_CANDIDATES = 5_000;
/** Longer words are not restored: few Czech words are, and each costs the most lookups. */
export const MAX_RESTORE_LETTERS = 20;

function allowed(
  prev: string | undefined,
  cur: string,
  next: string | undefined,
  index: number,
): boolean {
  switch (cur) {
    case 'ě':
      return prev !== undefined && E_CARON_AFTER.has(prev);
    case 'ď':
    case 'ť':
    case 'ň':
      return next === undefined || !SOFTENING_VOWELS.has(next);
    case 'ú':
      return index === 0;
    case 'ů':
      return index > 0;
    case 'ý':
      return prev === undefined || !NO_Y_ACUTE_AFTER.has(prev);
    case 'í':
      return prev === undefined || !NO_I_ACUTE_AFTER.has(prev);
    default:
      return true;
  }
}

/**
 * Accented spellings of a lowercase ASCII word accepted by `isWord`, excluding the word
 * itself. Stops after `maxCandidates` lookups, keeping what it found; `lookups` says how many
 * it made, `complete` whether it tried every spelling.
 */
export function restoreCzechDiacritics(
  word: string,
  isWord: (candidate: string) => boolean,
  maxCandidates = MAX_RESTORE_CANDIDATES,
): { found: string[]; lookups: number; complete: boolean } {
  const found: string[] = [];
  const letters = [...word];
  const chosen: string[] = [];
  let budget = maxCandidates;

  let complete = true;
  const visit = (index: number, changed: boolean): void => {
    if (budget <= 0) {
      complete = false;
      return;
    }
    if (index === letters.length) {
      if (!changed) return;
      budget -= 1;
      const candidate = chosen.join('');
      if (isWord(candidate)) found.push(candidate);
      return;
    }
    const plain = letters[index];
    const prev = index > 0 ? chosen[index - 1] : undefined;
    for (const letter of [plain, ...(VARIANTS[plain] ?? [])]) {
      if (!allowed(prev, letter, letters[index + 1], index)) continue;
      chosen[index] = letter;
      visit(index + 1, changed || letter !== plain);
    }
  };
  visit(0, false);
  return { found, lookups: maxCandidates - budget, complete };
}
