/*
 * Where a candidate's words meet the question's: whether the question's content words stand
 * together in the chunk, in order, as a phrase.
 * Keyword coverage only says that each word occurs somewhere in the chunk; a chunk about the
 * question's subject usually has its words side by side. Computed in TypeScript over the fused
 * candidates' text (retriever.ts), with the same key comparison as the section-title evidence.
 */
import { foldDiacritics, tokenize } from '../language/tokenize';
import type { Analyzers } from '../language/types';

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
  match?: (word: string) => readonly number[],
) => number;

/** The folded keys of a passage word in the question's languages (the analyzers' keysForWord). */
export type PassageWordKeys = (word: string) => {
  lemmas: readonly string[];
  stems: readonly string[];
};

/** Passage word keys from the analyzers of every configured language, as questions are analysed. */
export function analyzerWordKeys(analyzers: Analyzers): PassageWordKeys {
  const languages = analyzers.languages.map(lang => analyzers.get(lang));
  return word => {
    const keys = languages.map(a => a.keysForWord(word));
    return {
      lemmas: keys.flatMap(k => k.lemmas),
      stems: keys.map(k => k.stem),
    };
  };
}

/**
 * For each word of a text, the indices of the query tokens it names: a lemma of the word (or the
 * word itself, folded) is one of a token's lemmas or surface words, or the word's stem is one of
 * its stems ("pokladna" → pokladn, "configuration" → configur). Keys are compared as keyword
 * search compares them, never by prefix: "Pavlovi" (stem pavl) does not name "pavlač" (pavlak),
 * nor "pes" "pesto". Without `keysOf` (tests of the scoring alone) only the folded word is
 * compared, with every key. Words are lowercase (language/tokenize.ts); results are cached per
 * word, as chunk text repeats its words.
 */
export function queryWordMatcher(
  tokens: readonly MatchQueryToken[],
  keysOf?: PassageWordKeys,
): (word: string) => readonly number[] {
  const lemmaOf = new Map<string, number[]>();
  const stemOf = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, index: number) =>
    map.set(key, [...(map.get(key) ?? []), index]);
  tokens.forEach((t, index) => {
    const lemmas = [...t.lemmas, ...(t.words ?? []).map(foldDiacritics)];
    for (const key of new Set(lemmas)) add(lemmaOf, key, index);
    for (const key of new Set(t.stems)) add(stemOf, key, index);
  });
  const cache = new Map<string, readonly number[]>();
  return word => {
    let found = cache.get(word);
    if (found) return found;
    const folded = foldDiacritics(word);
    const indices = new Set(lemmaOf.get(folded) ?? []);
    const keys = keysOf?.(word);
    for (const lemma of keys?.lemmas ?? [])
      for (const i of lemmaOf.get(lemma) ?? []) indices.add(i);
    for (const stem of keys?.stems ?? [folded])
      for (const i of stemOf.get(stem) ?? []) indices.add(i);
    found = [...indices];
    cache.set(word, found);
    return found;
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
