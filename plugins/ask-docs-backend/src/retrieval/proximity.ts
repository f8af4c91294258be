/*
 * Where a candidate's words meet the question's: whether the question's content words stand
 * together in the chunk, in order, as a phrase.
 * Keyword coverage only says that each word occurs somewhere in the chunk; a chunk about the
 * question's subject usually has its words side by side. Computed in TypeScript over the fused
 * candidates' text (retriever.ts), with the same key comparison as the section-title evidence.
 */
import { foldDiacritics, tokenize } from '../language/tokenize';
import type { Analyzers, WordKeys } from '../language/types';

/** The keys of a query word that are compared with a text's words. */
export interface MatchQueryToken {
  token: string;
  lemmas: string[];
  stems: string[];
  words?: string[];
}

/**
 * What a text says about the question's words, in [0, 1] (phrase share here, section-title
 * coverage in fusion.ts): the query tokens, their idf, the text, and the word matcher, which a
 * caller scoring many texts builds once.
 */
export type TextEvidence = (
  tokens: readonly MatchQueryToken[],
  idfOf: (token: string) => number,
  text: string,
  match?: WordMatcher,
) => number;

/** The keys of a passage's words by the passage's language (its chunks' `lang`). */
export type PassageWordKeys = (lang: string) => (word: string) => WordKeys;

/**
 * Keys from the analyzer of the passage's own language, as ingestion analysed it: a passage is
 * not read in another language ("data" is Czech "dat", as is "date", but not in English).
 */
export function analyzerWordKeys(analyzers: Analyzers): PassageWordKeys {
  return lang => {
    const analyzer = analyzers.get(
      analyzers.has(lang) ? lang : analyzers.defaultLanguage,
    );
    return word => analyzer.keysForWord(word);
  };
}

/** The keys a corrected word is searched with (retriever.ts correctedTokens). */
export type CorrectedWordKeys = (word: string) => {
  lemmas: string[];
  stems: string[];
};

/**
 * A docs word's keys in each language whose dictionary knows it: a confident correction is
 * searched as if typed ("klávesou" also finds "klávesa", "klávesy"). A word no dictionary knows
 * gets none, and is matched as that word.
 */
export function analyzerCorrectedWordKeys(
  analyzers: Analyzers,
): CorrectedWordKeys {
  return word => {
    const lemmas = new Set<string>();
    const stems = new Set<string>();
    for (const lang of analyzers.languages) {
      const keys = analyzers.get(lang).keysForWord(word);
      if (!keys.known) continue;
      keys.lemmas.forEach(l => lemmas.add(l));
      stems.add(keys.stem);
    }
    return { lemmas: [...lemmas], stems: [...stems] };
  };
}

export type WordMatcher = (word: string) => readonly number[];

export interface WordMatcherOptions {
  /** The passage words' keys; without them (tests of the scoring) only folded words compare. */
  keysOf?: (word: string) => WordKeys;
  /**
   * Tokens keyword search found only by prefix ("kube" → kubernetes): they name a passage word
   * one of whose lemmas starts with the typed word, as keywordSearch.ts prefixKeysFor does.
   */
  prefixTokens?: ReadonlySet<string>;
}

/**
 * For each word of a text, the indices of the query tokens it names: a lemma of the word (or the
 * word itself, folded) is one of a token's lemmas or surface words, or the word's stem is one of
 * its stems ("pokladna" → pokladn, "configuration" → configur). Keys are compared as keyword
 * search compares them, never by a stem's prefix: "Pavlovi" (stem pavl) does not name "pavlač"
 * (pavlak), nor "pes" "pesto". Words are lowercase (language/tokenize.ts); results are cached per
 * word, as chunk text repeats its words.
 */
export function queryWordMatcher(
  tokens: readonly MatchQueryToken[],
  options: WordMatcherOptions = {},
): WordMatcher {
  const { keysOf, prefixTokens } = options;
  const lemmaOf = new Map<string, number[]>();
  const stemOf = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, index: number) =>
    map.set(key, [...(map.get(key) ?? []), index]);
  const prefixes: Array<{ typed: string; index: number }> = [];
  tokens.forEach((t, index) => {
    const lemmas = [...t.lemmas, ...(t.words ?? []).map(foldDiacritics)];
    for (const key of new Set(lemmas)) add(lemmaOf, key, index);
    for (const key of new Set(t.stems)) add(stemOf, key, index);
    if (prefixTokens?.has(t.token))
      prefixes.push({
        typed: foldDiacritics(t.token.toLocaleLowerCase()),
        index,
      });
  });
  const cache = new Map<string, readonly number[]>();
  return word => {
    let found = cache.get(word);
    if (found) return found;
    const folded = foldDiacritics(word);
    const keys = keysOf?.(word);
    const lemmas = [folded, ...(keys?.lemmas ?? [])];
    const indices = new Set<number>();
    for (const lemma of lemmas)
      for (const i of lemmaOf.get(lemma) ?? []) indices.add(i);
    for (const i of stemOf.get(keys?.stem ?? folded) ?? []) indices.add(i);
    for (const p of prefixes)
      if (lemmas.some(l => l.startsWith(p.typed))) indices.add(p.index);
    found = [...indices];
    cache.set(word, found);
    return found;
  };
}

/**
 * One matcher per passage language, made when first needed: the question's words as searched,
 * met in each passage as the index met them.
 */
export function passageMatchers(
  tokens: readonly MatchQueryToken[],
  wordKeys: PassageWordKeys | undefined,
  prefixTokens?: ReadonlySet<string>,
): (lang?: string) => WordMatcher {
  const byLang = new Map<string, WordMatcher>();
  return (lang = '') => {
    let matcher = byLang.get(lang);
    if (!matcher) {
      const keysOf = lang && wordKeys ? wordKeys(lang) : undefined;
      matcher = queryWordMatcher(tokens, { keysOf, prefixTokens });
      byLang.set(lang, matcher);
    }
    return matcher;
  };
}

/** Words allowed between two question words that still read as one phrase ("create a table"). */
export const PHRASE_GAP = 2;

/**
 * Phrase evidence of a text: the idf-weighted share of the question's neighbouring content-word
 * pairs (in question order) that occur in that order in the text with at most PHRASE_GAP words
 * between them. A pair weighs the smaller idf of its two words, so a pair of rare words counts
 * most. Tokens whose idf is not positive take no part (stopwords are no tokens at all; a word
 * the corpus lacks keeps its idf and so breaks its pairs); fewer than two content words with
 * idf have no phrase (0).
 */
export const phraseShare: TextEvidence = (tokens, idfOf, text, match) => {
  const matcher = match ?? queryWordMatcher(tokens);
  // The tokens that count, in question order, and their idf; slot[token index] is its place
  // among them (-1: not counted).
  const idf: number[] = [];
  const slot = new Array<number>(tokens.length).fill(-1);
  tokens.forEach((t, index) => {
    const value = idfOf(t.token);
    if (value > 0) slot[index] = idf.push(value) - 1;
  });
  if (idf.length < 2) return 0;
  // positions[i]: where the i-th counted token occurs in the text, ascending.
  const positions: number[][] = idf.map(() => []);
  const words = tokenize(text);
  for (let p = 0; p < words.length; p++) {
    for (const index of matcher(words[p])) {
      const i = slot[index];
      if (i >= 0) positions[i].push(p);
    }
  }
  let total = 0;
  let joined = 0;
  for (let i = 1; i < idf.length; i++) {
    const weight = Math.min(idf[i - 1], idf[i]);
    total += weight;
    if (follows(positions[i - 1], positions[i])) joined += weight;
  }
  return joined / total;
};

/** True when some occurrence in b is 1 to PHRASE_GAP + 1 words after one in a (both sorted). */
function follows(a: readonly number[], b: readonly number[]): boolean {
  let j = 0;
  for (const p of a) {
    while (j < b.length && b[j] <= p) j++;
    if (j === b.length) return false;
    if (b[j] <= p + PHRASE_GAP + 1) return true;
  }
  return false;
}

/**
 * A sentence ends at `.`, `!`, `?`, `;` or `:` followed by white space, or at a line break
 * ("4.3.1. Overview" splits after "4.3.1.", a harmless break between a number and its heading).
 */
const SENTENCE_END = /[.!?;:]+\s+|\n+/;

/**
 * Sentence evidence of a text: the largest idf-weighted share of the question's content words
 * that one sentence of the text has. Keyword coverage counts a word anywhere in the chunk; a
 * near-miss question ("right words, other meaning") often finds each of its words somewhere in
 * the chunk but not in one statement. Tokens whose idf is not positive take no part; a word the
 * corpus lacks keeps its idf and so lowers every sentence's share. No content word: 0.
 */
export const sentenceShare: TextEvidence = (tokens, idfOf, text, match) => {
  const matcher = match ?? queryWordMatcher(tokens);
  const idf = tokens.map(t => Math.max(0, idfOf(t.token)));
  const total = idf.reduce((s, v) => s + v, 0);
  if (total <= 0) return 0;
  let best = 0;
  for (const sentence of text.split(SENTENCE_END)) {
    const named = new Set<number>();
    for (const w of tokenize(sentence))
      for (const i of matcher(w)) named.add(i);
    let share = 0;
    for (const i of named) share += idf[i];
    best = Math.max(best, share / total);
  }
  return best;
};
