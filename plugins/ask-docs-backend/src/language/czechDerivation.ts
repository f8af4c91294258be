/**
 * Czech derivation key: the verb a verbal noun or passive participle comes from ("nasazení",
 * "nasazený" → nasadit; "spuštění" → spustit; "použití" → použít), so a question with
 * the infinitive ("Jak nasadit …?") meets a page titled with the noun ("Nasazení"). Hunspell
 * lists these nouns and adjectives as lemmas of their own, and the consonant alternation (d/z,
 * t/c, s/š, z/ž, n/ň, st/šť) hides them from the light stemmer.
 *
 * Candidates are built by undoing the suffix and, when needed, the alternation; only a
 * candidate the dictionary has as a lemma is kept, and the unchanged consonant is tried
 * first, so "vození" stays with vozit and never meets vodit. Secondary imperfectives lead to their
 * perfective: in -ovat only when the stem ends in an alternated consonant or v ("nasazovat" →
 * nasadit, "odstraňovat" → odstranit, "nastavovat" → nastavit), because -ovat also forms
 * unrelated verbs ("budovat" is not "budit"); the others by their ending ("přidávat" → přidat,
 * "používat" → použít, "ukládat" → uložit, "vybírat" → vybrat, "ukazovat" → ukázat), except a
 * few the endings misread (NOT_IMPERFECTIVES). Nouns without a suffix from
 * vést, nést and vézt lead to their verb as well ("převod" → převést, "přenos" → přenést).
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
  ['ň', ['n']],
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

/**
 * Secondary imperfective endings, the perfective infinitive endings they pair with, and the
 * shortest stem left before the ending. Endings that carry the root's vowel change ("ukládat" →
 * uložit, "vytvářet" → vytvořit, "spouštět" → spustit) may leave just the prefix.
 */
const IMPERFECTIVES: ReadonlyArray<[string, string[], number]> = [
  ['ávat', ['at', 'át', 'it'], MIN_DERIVATION_STEM],
  ['ívat', ['ít'], MIN_DERIVATION_STEM],
  ['ínat', ['nout', 'enout'], MIN_DERIVATION_STEM],
  ['kládat', ['ložit'], 1],
  ['ářet', ['ořit'], 2],
  ['írat', ['řít', 'rat'], 2],
  ['ouštět', ['ustit'], 1],
  ['ouvat', ['unout'], 2],
  ['kazovat', ['kázat'], 1],
  ['vazovat', ['vázat'], 1],
  ['acet', ['átit'], 2],
  ['ácet', ['atit'], 2],
];

/**
 * Roots of nouns without a suffix ("převod", "přenos", "odvoz") and their verbs. Only after
 * prefixes that keep their short vowel: the lengthened ones name things of their own ("úvod"
 * is an introduction, "návod" a guide, "výnos" a yield).
 */
const ROOT_NOUNS: ReadonlyArray<[string, string]> = [
  ['vod', 'vést'],
  ['nos', 'nést'],
  ['voz', 'vézt'],
];
const SHORT_PREFIXES = ['pře', 'od', 'roz', 'ob', 'pod'];

function rootNounCandidates(lemma: string): string[] {
  for (const [root, verb] of ROOT_NOUNS) {
    if (!lemma.endsWith(root)) continue;
    const prefix = lemma.slice(0, -root.length);
    return SHORT_PREFIXES.includes(prefix) ? [prefix + verb] : [];
  }
  return [];
}

/**
 * Verbs the endings would misread: their candidate is a noun (obírat → "obrat", turnover;
 * rozvírat → "rozvrat") or an unrelated verb (vypadávat → "vypadat", to look like; nadávat →
 * "nadat"; pozdávat → "pozdit"; potácet → "potatit").
 */
const NOT_IMPERFECTIVES = new Set([
  'obírat',
  'rozvírat',
  'vypadávat',
  'nadávat',
  'pozdávat',
  'potácet',
]);

function imperfectiveCandidates(lemma: string): string[] {
  if (NOT_IMPERFECTIVES.has(lemma)) return [];
  for (const [ending, perfectives, minStem] of IMPERFECTIVES) {
    if (!lemma.endsWith(ending)) continue;
    const stem = lemma.slice(0, -ending.length);
    if (stem.length < minStem) return [];
    return perfectives.map(p => stem + p);
  }
  if (!lemma.endsWith('ovat')) return [];
  const stem = lemma.slice(0, -'ovat'.length);
  if (stem.length < MIN_DERIVATION_STEM) return [];
  // -v- stems pair regularly too (nastavovat → nastavit, obnovovat → obnovit).
  const alternated = ALTERNATIONS.some(([from]) => stem.endsWith(from));
  if (!alternated && !stem.endsWith('v')) return [];
  return stemVariants(stem, true).map(s => `${s}it`);
}

/**
 * The verb a Czech lemma (lowercase, with diacritics) is derived from, or undefined. `isLemma`
 * tells whether the dictionary has a word as a lemma: the first candidate it accepts wins.
 */
export function czechDerivationVerb(
  lemma: string,
  isLemma: (word: string) => boolean,
): string | undefined {
  const candidates = [
    ...nounCandidates(lemma),
    ...imperfectiveCandidates(lemma),
    ...rootNounCandidates(lemma),
  ];
  const verb = candidates.find(c => c !== lemma && isLemma(c));
  if (!verb) return undefined;
  // The noun of an imperfective leads on to its perfective ("přidávání" → přidávat → přidat).
  return imperfectiveCandidates(verb).find(c => isLemma(c)) ?? verb;
}
