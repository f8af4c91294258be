/**
 * Czech keys: lemmas from hunspell plus our irregular-forms table, and a light stem.
 */
import { BoundedCache, cachedWordKeys } from './boundedCache';
import { czechDerivationVerb } from './czechDerivation';
import {
  MAX_RESTORE_CANDIDATES,
  MAX_RESTORE_LETTERS,
  restoreCzechDiacritics,
} from './czechDiacritics';
import { czechIrregularLemmas } from './czechIrregularForms';
import { czechLightStem } from './czechLightStemmer';
import {
  DictionaryUnavailableError,
  HunspellDictionary,
  loadHunspell,
} from './hunspell';
import { CZECH_ASKING } from './situation';
import { CZECH_SMALL_TALK } from './smallTalk';
import { CZECH_STOPWORDS } from './stopwords';
import { foldDiacritics, hasDiacritics, hasLetter } from './tokenize';
import {
  LanguageAnalyzer,
  LanguageModule,
  LanguageModuleContext,
  RestoreBudget,
  WordKeys,
} from './types';

/** Where Debian's hunspell-cs puts the dictionary (scripts/install-system-deps.sh). */
export const DEFAULT_CZECH_DICTIONARY = {
  affPath: '/usr/share/hunspell/cs_CZ.aff',
  dicPath: '/usr/share/hunspell/cs_CZ.dic',
};

/**
 * Bump when the key computation changes: stored keys must then be rebuilt.
 * 2: derivation keys (verbal nouns and participles also carry their verb as a lemma).
 * 3: the inflected function words (kterého, všech, musí, nějaký, ...) are stopwords too.
 * 4: infinitive keys: irregular verb classes (najdu → najít), secondary imperfectives
 *    (přidávat → přidat, ukládat → uložit), suffixless nouns (převod → převést); candidates
 *    must be dictionary lemmas.
 */
const KEYS_VERSION = 4;

// Folded stopwords catch questions typed without diacritics ("pri", "pred", "muze").
const FOLDED_STOPWORDS = new Set([...CZECH_STOPWORDS].map(foldDiacritics));

export interface CzechAnalyzerOptions {
  /** Without a dictionary the analyzer runs stem-only (each word is its own lemma). */
  dictionary?: HunspellDictionary;
  /** Dictionary content hash, part of the signature. */
  fingerprint?: string;
  /** Reason for running without a dictionary. */
  degraded?: string;
  cacheSize?: number;
}

export function createCzechAnalyzer(
  options: CzechAnalyzerOptions = {},
): LanguageAnalyzer {
  const { dictionary } = options;
  // With the lookups each word took, which a question's budget is charged whether cached or
  // not: a question restores the same words however warm the cache is.
  const restoreCache = new BoundedCache<
    string,
    { found: readonly string[]; lookups: number }
  >(10_000);

  // Hunspell is case-sensitive and our tokens are lowercase: names ("Pavlovi") are only
  // found capitalised, so that is tried when the lowercase form is unknown.
  const dictionaryLemmas = (word: string): string[] => {
    if (!dictionary) return [];
    let stems = dictionary.stemSync(word);
    if (stems.length === 0) {
      const capitalised = capitalise(word);
      if (capitalised !== word) stems = dictionary.stemSync(capitalised);
    }
    return stems.map(s => s.toLocaleLowerCase('cs'));
  };

  // The infinitive behind a lemma: its irregular-class verb ("najdu" → najít) or the verb it
  // is derived from ("nasazení" → nasadit). A candidate must be a dictionary lemma, not just
  // a form: "aktivit" is a form of aktivita, not the verb of "aktivovat".
  const infinitives = (lemmas: string[]): string[] => {
    if (!dictionary) return [];
    const isLemma = (w: string) =>
      dictionary.stemSync(w).some(l => l.toLocaleLowerCase('cs') === w);
    return lemmas.flatMap(l => czechDerivationVerb(l, isLemma) ?? []);
  };

  const compute = (word: string): WordKeys => {
    if (!hasLetter(word)) return { lemmas: [word], stem: word, known: false };
    const irregular = czechIrregularLemmas(word);
    const fromDictionary = dictionaryLemmas(word);
    // The dictionary lists irregular forms as words of their own ("psa" → "psa"); the table
    // replaces that self-reading but keeps any other reading ("dnech" → den and dno).
    const readings = irregular
      ? [...irregular, ...fromDictionary.filter(l => l !== word)]
      : fromDictionary;
    // The infinitive as one more lemma: "nasazení" also carries nasadit, "převedl" převést
    // (czechDerivation.ts).
    const lemmas = [...readings, ...infinitives(fromDictionary)];
    const known = lemmas.length > 0;
    return {
      lemmas: unique((known ? lemmas : [word]).map(foldDiacritics)),
      stem: foldDiacritics(czechLightStem(word)),
      known,
    };
  };

  return {
    lang: 'cs',
    signature: dictionary
      ? `cs:${KEYS_VERSION}:hunspell-${options.fingerprint ?? 'custom'}`
      : `cs:${KEYS_VERSION}:stem-only`,
    degraded: options.degraded,
    keysForWord: cachedWordKeys(compute, options.cacheSize),
    isStopword(word: string): boolean {
      return (
        CZECH_STOPWORDS.has(word) ||
        (!hasDiacritics(word) && FOLDED_STOPWORDS.has(word))
      );
    },
    restoreDiacritics(word: string, budget?: RestoreBudget): readonly string[] {
      if (
        !dictionary ||
        word.length < 3 ||
        word.length > MAX_RESTORE_LETTERS ||
        hasDiacritics(word) ||
        !hasLetter(word)
      )
        return [];
      const remaining = budget?.lookups ?? MAX_RESTORE_CANDIDATES;
      const cached = restoreCache.get(word);
      if (cached) {
        if (budget) budget.lookups = Math.max(0, remaining - cached.lookups);
        return cached.lookups <= remaining ? cached.found : [];
      }
      const allowed = Math.min(MAX_RESTORE_CANDIDATES, remaining);
      if (allowed <= 0) return [];
      // Lowercase spellings only: names typed without diacritics ("brne") still meet
      // their documents through the folded stem ("brn").
      const { found, lookups, complete } = restoreCzechDiacritics(
        word,
        candidate => dictionary.spellSync(candidate),
        allowed,
      );
      if (budget) budget.lookups -= lookups;
      // Cut short by the question's budget (not the word's own cap): nothing, and not cached.
      if (!complete && allowed < MAX_RESTORE_CANDIDATES) return [];
      const restored = Object.freeze(found);
      restoreCache.set(word, { found: restored, lookups });
      return restored;
    },
  };
}

export const czechLanguage: LanguageModule = {
  profile: {
    lang: 'cs',
    stopwords: CZECH_STOPWORDS,
    distinctiveLetters: /[ěščřžýáíéůúťďň]/,
    smallTalk: CZECH_SMALL_TALK,
    asking: CZECH_ASKING,
  },
  async createAnalyzer(
    context: LanguageModuleContext,
  ): Promise<LanguageAnalyzer> {
    const paths = context.hunspell ?? DEFAULT_CZECH_DICTIONARY;
    try {
      const { dictionary, fingerprint } = await loadHunspell(paths);
      return createCzechAnalyzer({
        dictionary,
        fingerprint,
        cacheSize: context.cacheSize,
      });
    } catch (error) {
      if (!(error instanceof DictionaryUnavailableError)) throw error;
      if (context.onMissingDictionary !== 'stem-only') {
        throw new Error(
          `Czech keyword analysis needs the hunspell dictionary. ${error.message}. Install the ` +
            `Debian package hunspell-cs (scripts/install-system-deps.sh), point ` +
            `askDocs.hunspell.cs.affPath/dicPath at the files, or allow the stem-only mode.`,
          { cause: error },
        );
      }
      const reason = `Czech runs stem-only without lemmas: ${error.message}`;
      context.warn(reason);
      return createCzechAnalyzer({
        degraded: reason,
        cacheSize: context.cacheSize,
      });
    }
  },
};

function capitalise(word: string): string {
  return word.charAt(0).toLocaleUpperCase('cs') + word.slice(1);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
