/**
 * Czech derivation key: the verb a verbal noun or passive participle comes from ("nasazení",
 * "nasazený" → nasadit; "spuštění" → spustit; "použití" → použít), so a question with
 * the infinitive ("Jak nasadit …?") meets a page titled with the noun ("Nasazení"). Hunspell
 * lists these nouns and adjectives as lemmas of their own, and the consonant alternation (d/z, t/c,
 * s/š, z/ž, st/šť) hides them from the light stemmer.
 *
 * Candidates are built by undoing the suffix and, when needed, the alternation; only a
 * candidate the dictionary knows is kept, and the unchanged consonant is tried first, so
 * "vození" stays with vozit and never meets vodit. Secondary imperfectives in -ovat are
 * mapped too, but only when their stem ends in an alternated consonant ("nasazovat" →
 * nasadit), because -ovat also forms unrelated verbs ("budovat" is not "budit").
 */

/** Shortest stem (before the suffix) considered: "dání", "pití" are too ambiguous. */
const MIN_DERIVATION_STEM = 3;

/** Consonants (at the end of the noun's stem) and what they alternate with in the verb. */
const ALTERNATIONS: ReadonlyArray<[string, string[]]> = [
  ['šť', ['st', 'sk']],
  ['št', ['st', 'sk']],
  ['z', ['d']],
  ['c', ['t']],
  ['š', ['s']],
  ['ž', ['z']],
];

/** Noun and adjective endings, and the infinitive endings their verbs may have. */
const SUFFIXES: ReadonlyArray<{
  endings: string[];
  verbs: string[];
  alternate: boolean;
}> = [
  // After d, t, n, b, p, v, m the e of -ení is written ě ("spuštění", "vidění").
  { endings: ['ění', 'ěný'], verbs: ['it', 'ět', 'et'], alternate: true },
  { endings: ['ení', 'ený'], verbs: ['it', 'et', 'ít'], alternate: true },
  { endings: ['ání', 'aný'], verbs: ['at'], alternate: false },
  { endings: ['utí', 'utý'], verbs: ['out'], alternate: false },
  { endings: ['ití', 'itý'], verbs: ['ít'], alternate: false },
];

/** "převedení" → převést, "přinesení" → přinést, "rozvezení" → rozvézt. */
const ST_VERBS: ReadonlyArray<[string, string]> = [
  ['ed', 'ést'],
  ['et', 'ést'],
  ['es', 'ést'],
  ['ez', 'ézt'],
];

/** Stems with the alternation undone: the stem itself first, then each reading. */
function stemVariants(stem: string, alternate: boolean): string[] {
  const variants = [stem];
  if (!alternate) return variants;
  for (const [from, tos] of ALTERNATIONS) {
    if (!stem.endsWith(from)) continue;
    const base = stem.slice(0, -from.length);
    variants.push(...tos.map(to => base + to));
    break;
  }
  return variants;
}

function nounCandidates(lemma: string): string[] {
  for (const { endings, verbs, alternate } of SUFFIXES) {
    const ending = endings.find(e => lemma.endsWith(e));
    if (!ending) continue;
    const stem = lemma.slice(0, -ending.length);
    if (stem.length < MIN_DERIVATION_STEM) return [];
    const candidates = stemVariants(stem, alternate).flatMap(s =>
      verbs.map(v => s + v),
    );
    if (ending.startsWith('e')) {
      for (const [from, to] of ST_VERBS)
        if (stem.endsWith(from))
          candidates.push(stem.slice(0, -from.length) + to);
    }
    return candidates;
  }
  return [];
}

function imperfectiveCandidates(lemma: string): string[] {
  if (!lemma.endsWith('ovat')) return [];
  const stem = lemma.slice(0, -'ovat'.length);
  if (stem.length < MIN_DERIVATION_STEM) return [];
  if (!ALTERNATIONS.some(([from]) => stem.endsWith(from))) return [];
  return stemVariants(stem, true).map(s => `${s}it`);
}

/**
 * The verb a Czech lemma (lowercase, with diacritics) is derived from, or undefined. `isWord`
 * is the dictionary's spelling check: the first candidate it accepts wins.
 */
export function czechDerivationVerb(
  lemma: string,
  isWord: (word: string) => boolean,
): string | undefined {
  const candidates = [
    ...nounCandidates(lemma),
    ...imperfectiveCandidates(lemma),
  ];
  return candidates.find(c => c !== lemma && isWord(c));
}
