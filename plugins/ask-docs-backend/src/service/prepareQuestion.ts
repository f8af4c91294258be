import { Analyzers, analyzeQuery } from '../language';
import { QueryToken } from '../retrieval';

/** A question as both retrievers see it. */
export interface PreparedQuestion {
  /** Keyword side: content tokens with their lemma and stem keys (stopwords out). */
  queryTokens: QueryToken[];
  /**
   * Vector side: the question with words typed without diacritics replaced by the spelling the
   * dictionary restored ("zalozky" → "záložky"), so both sides read the same words.
   */
  vectorText: string;
}

export function prepareQuestion(question: string, analyzers: Analyzers): PreparedQuestion {
  const analyzed = analyzeQuery(question, analyzers);
  const restored = new Map<string, string>();
  for (const t of analyzed) {
    const spelling = t.byLang.flatMap(k => k.restored)[0];
    if (spelling) restored.set(t.token, spelling);
  }
  return {
    queryTokens: analyzed
      .filter(t => !t.stopword)
      // Only the typed word is a surface key: restored spellings already count through lemmas.
      .map(t => ({ token: t.token, lemmas: t.lemmas, stems: t.stems, words: [t.token] })),
    vectorText: rewriteWords(question, restored),
  };
}

/** Replaces whole words (compared lowercase, NFC) by their replacement; the rest stays as typed. */
export function rewriteWords(text: string, replacements: ReadonlyMap<string, string>): string {
  if (replacements.size === 0) return text;
  return text
    .normalize('NFC')
    .replace(/[\p{L}\p{M}\p{N}]+/gu, word => replacements.get(word.toLowerCase()) ?? word);
}
