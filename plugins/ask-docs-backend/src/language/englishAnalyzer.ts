/**
 * English keys: WordNet-based lemma candidates (wink-lemmatizer) and a Porter2 stem.
 */
import lemmatizer from 'wink-lemmatizer';
import wordNetWords from 'wink-lexicon/src/wn-words.js';
import porter2 from 'wink-porter2-stemmer';
import { cachedWordKeys } from './boundedCache';
import { ENGLISH_ASKING } from './situation';
import { ENGLISH_SMALL_TALK } from './smallTalk';
import { ENGLISH_STOPWORDS } from './stopwords';
import { foldDiacritics, hasLetter } from './tokenize';
import { LanguageAnalyzer, LanguageModule, WordKeys } from './types';

const KEYS_VERSION = 1;

export function createEnglishAnalyzer(
  options: { cacheSize?: number } = {},
): LanguageAnalyzer {
  const compute = (word: string): WordKeys => {
    if (!hasLetter(word)) return { lemmas: [word], stem: word, known: false };
    // "café" and "cafe" are the same keyword; the lemmatizer and stemmer know ASCII only.
    const folded = foldDiacritics(word);
    // The part of speech is unknown, so every reading is a candidate ("running" is the noun
    // running and the verb run). The word itself stays: wink maps the noun "data" to
    // "datum", but "data" must still meet "data".
    const lemmas = unique([
      folded,
      lemmatizer.noun(folded),
      lemmatizer.verb(folded),
      lemmatizer.adjective(folded),
    ]);
    // Known: WordNet lists the word or one of its readings ("meals" → meal). The lemmatizer
    // loads the same list, so this costs no memory of its own.
    const known = lemmas.some(lemma => hasOwn(wordNetWords, lemma));
    return { lemmas, stem: porter2(folded), known };
  };

  return {
    lang: 'en',
    signature: `en:${KEYS_VERSION}:wink-porter2`,
    keysForWord: cachedWordKeys(compute, options.cacheSize),
    isStopword(word: string): boolean {
      return ENGLISH_STOPWORDS.has(word);
    },
  };
}

export const englishLanguage: LanguageModule = {
  profile: {
    lang: 'en',
    stopwords: ENGLISH_STOPWORDS,
    smallTalk: ENGLISH_SMALL_TALK,
    asking: ENGLISH_ASKING,
  },
  async createAnalyzer(context) {
    return createEnglishAnalyzer({ cacheSize: context.cacheSize });
  },
};

function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
