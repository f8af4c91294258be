/**
 * Czech derivation key: the verb a verbal noun or passive participle comes from ("nasazení",
 * "nasazený" → nasadit; "spuštění" → spustit; "použití" → použít), so a question with
 * the infinitive ("Jak nasadit …?") meets a page titled with the noun ("Nasazení"). Hunspell
 * lists these nouns and adjectives as lemmas of their own, and the consonant alternation (d/z,
 * t/c, s/š, z/ž, n/ň, st/šť) hides them from the light stemmer.
 *
 * Candidates are built by undoing the suffix and, when needed, the alternation; only a
 * candidate the dictionary has as a lemma is kept, and the unchanged consonant is tried
 * first, so "vození" stays with vozit and never meets vodit. Secondary imperfectives lead to
 * their perfective: in -ovat only when the stem ends in an alternated consonant or v
 * ("nasazovat" → nasadit, "odstraňovat" → odstranit, "nastavovat" → nastavit), because -ovat
 * also forms unrelated verbs ("budovat" is not "budit"); the others by their ending
 * ("přidávat" → přidat, "používat" → použít, "ukládat" → uložit, "vybírat" → vybrat,
 * "ukazovat" → ukázat). Nouns without a suffix from vést, nést and vézt lead to their verb
 * ("převod" → převést, "přenos" → přenést), and the irregular verb classes, which hunspell
 * files under a present form or the participle ("najde" → najdu, "převedl"), to their
 * infinitive (najít, převést). A few lemmas the endings misread are left alone (MISREAD).
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

/** [ending, what may replace it, shortest stem left before it]. */
type EndingRule = readonly [string, readonly string[], number];

/**
 * Candidates from the first rule whose ending the lemma has: [] when the stem left is too
 * short, undefined when no ending matches.
 */
function endingCandidates(
  lemma: string,
  rules: ReadonlyArray<EndingRule>,
): string[] | undefined {
  for (const [ending, replacements, minStem] of rules) {
    if (!lemma.endsWith(ending)) continue;
    const stem = lemma.slice(0, -ending.length);
    return stem.length < minStem ? [] : replacements.map(r => stem + r);
  }
  return undefined;
}

/**
 * Verbs of the irregular classes, with any prefix: hunspell-cs files their present tense under
 * a present form ("najde" → najdu, "přepíše" → přepíšu) and their past under the participle
 * ("našel", "převedl", "poslal"), never under the infinitive that questions and headings use
 * ("Jak najít …", "Převést na cestu"). Prefixed "psát" loses its length: napíšu → napsat.
 */
const VERB_CLASSES: ReadonlyArray<EndingRule> = [
  ['jdu', ['jít'], 0],
  ['jde', ['jít'], 0],
  ['šel', ['jít'], 0],
  ['vedu', ['vést'], 0],
  ['vedl', ['vést'], 0],
  ['jedu', ['jet'], 0],
  ['jel', ['jet'], 0],
  ['píšu', ['psát', 'psat'], 0],
  ['píši', ['psát', 'psat'], 0],
  ['psal', ['psát', 'psat'], 0],
  ['šlu', ['slat'], 0],
  ['slal', ['slat'], 0],
  ['vezmu', ['vzít'], 0],
  ['vzal', ['vzít'], 0],
  ['jmu', ['jmout'], 0],
  ['jal', ['jmout'], 0],
  ['jmul', ['jmout'], 0],
];

/**
 * Secondary imperfective endings, the perfective infinitive endings they pair with, and the
 * shortest stem left before the ending. Endings that carry the root's vowel change ("ukládat" →
 * uložit, "vytvářet" → vytvořit, "spouštět" → spustit) may leave just the prefix.
 */
const IMPERFECTIVES: ReadonlyArray<EndingRule> = [
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
 * Lemmas the endings would misread: forms of the nouns pojem and dojem (pojmu → "pojmout"),
 * verbs whose candidate is a noun (obírat → "obrat", turnover; rozvírat → "rozvrat") or an
 * unrelated verb (vypadávat → "vypadat", to look like; nadávat → "nadat"; pozdávat → "pozdit";
 * potácet → "potatit").
 */
const MISREAD = new Set([
  'pojmu',
  'dojmu',
  'obírat',
  'rozvírat',
  'vypadávat',
  'nadávat',
  'pozdávat',
  'potácet',
]);

function imperfectiveCandidates(lemma: string): string[] {
  if (MISREAD.has(lemma)) return [];
  const byEnding = endingCandidates(lemma, IMPERFECTIVES);
  if (byEnding) return byEnding;
  if (!lemma.endsWith('ovat')) return [];
  const stem = lemma.slice(0, -'ovat'.length);
  if (stem.length < MIN_DERIVATION_STEM) return [];
  // -v- stems pair regularly too (nastavovat → nastavit, obnovovat → obnovit).
  const alternated = ALTERNATIONS.some(([from]) => stem.endsWith(from));
  if (!alternated && !stem.endsWith('v')) return [];
  return stemVariants(stem, true).map(s => `${s}it`);
}

/**
 * The verb a Czech lemma (lowercase, with diacritics) stands for or is derived from, or
 * undefined. `isLemma`
 * tells whether the dictionary has a word as a lemma: the first candidate it accepts wins.
 */
export function czechDerivationVerb(
  lemma: string,
  isLemma: (word: string) => boolean,
): string | undefined {
  if (MISREAD.has(lemma)) return undefined;
  const candidates = [
    ...(endingCandidates(lemma, VERB_CLASSES) ?? []),
    ...nounCandidates(lemma),
    ...imperfectiveCandidates(lemma),
    ...rootNounCandidates(lemma),
  ];
  const verb = candidates.find(c => c !== lemma && isLemma(c));
  if (!verb) return undefined;
  // The noun of an imperfective leads on to its perfective ("přidávání" → přidávat → přidat).
  return imperfectiveCandidates(verb).find(c => isLemma(c)) ?? verb;
}
