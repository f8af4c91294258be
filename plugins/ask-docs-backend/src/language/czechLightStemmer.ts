/**
 * Light Czech stemmer after Dolamic & Savoy, "Indexing and stemming approaches for the Czech
 * language" (2009), the variant Lucene ships as CzechStemmer: strip one case ending, then a
 * possessive suffix, then normalise the palatalised consonant / vowel alternation at the end.
 *
 * Deliberately *light*: no derivational suffixes (the aggressive variant strips "-ač", "-ík",
 * "-ost", ... which conflates "Pavlovi" with "pavlač"). The stem is a fallback key; lemmas
 * from the dictionary are the primary one.
 *
 * Input: a lowercase word with its diacritics (endings such as "-ých" vs "-ych" matter, and
 * an ASCII word keeps its real endings: "program" is not "progr" + "-ám"). Output is not
 * folded; the analyzer folds it.
 */

/** Stems shorter than this are too ambiguous to be a key ("pes" must not become "ps"). */
export const MIN_STEM_LENGTH = 3;

// Case endings by length; each group applies only to words of at least `minLength`
// letters, which keeps at least three letters of stem.
const CASE_ENDINGS: Array<{ minLength: number; endings: string[] }> = [
  { minLength: 8, endings: 'atech' },
  { minLength: 7, endings: 'ětem etem atům' },
  {
    minLength: 6,
    endings:
      'ech ich ích ého ěmi emi ému ěte ete ěti eti ího iho ími ímu imu ách ata aty ' +
      'ých ama ami ové ovi ými',
  },
  { minLength: 5, endings: 'em es ém ím ům at ám os us ým mi ou' },
  { minLength: 4, endings: 'a e i o u ů y á é í ý ě' },
].map(({ minLength, endings }) => ({ minLength, endings: endings.split(' ') }));

const POSSESSIVES = ['ov', 'in', 'ův'];

function removeCase(word: string): string {
  for (const { minLength, endings } of CASE_ENDINGS) {
    if (word.length < minLength) continue;
    for (const ending of endings) {
      if (word.endsWith(ending)) return word.slice(0, -ending.length);
    }
  }
  return word;
}

function removePossessive(word: string): string {
  if (word.length > 5) {
    for (const suffix of POSSESSIVES) {
      if (word.endsWith(suffix)) return word.slice(0, -suffix.length);
    }
  }
  return word;
}

/**
 * Undo alternations the endings cause: lišc(e) → lišk, noz(e) → noh, dům → dom,
 * pavel → pavl.
 */
function normalize(word: string): string {
  const n = word.length;
  if (word.endsWith('čt')) return `${word.slice(0, -2)}ck`;
  if (word.endsWith('št')) return `${word.slice(0, -2)}sk`;
  const last = word[n - 1];
  if (last === 'c' || last === 'č') return `${word.slice(0, -1)}k`;
  if (last === 'z' || last === 'ž') return `${word.slice(0, -1)}h`;
  // Mobile e ("pavel"/"pavla", "den"/"dne"): dropped, unless the stem would get too short.
  if (n > MIN_STEM_LENGTH && word[n - 2] === 'e')
    return word.slice(0, -2) + last;
  if (n > 2 && word[n - 2] === 'ů') return `${word.slice(0, -2)}o${last}`;
  return word;
}

/** Light stem of a lowercase Czech word. Words with digits are returned unchanged. */
export function czechLightStem(word: string): string {
  if (word.length < MIN_STEM_LENGTH || /\d/.test(word)) return word;
  let stem = removeCase(word);
  stem = removePossessive(stem);
  stem = normalize(stem);
  return stem.length >= MIN_STEM_LENGTH ? stem : word;
}
