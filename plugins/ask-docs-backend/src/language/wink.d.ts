// The wink packages ship no type declarations; these cover what englishAnalyzer.ts uses.

declare module 'wink-lemmatizer' {
  const lemmatizer: {
    noun(word: string): string;
    verb(word: string): string;
    adjective(word: string): string;
  };
  export = lemmatizer;
}

declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}

declare module 'wink-lexicon/src/wn-words.js' {
  /** WordNet's lemmas (lowercase), each mapped to its entry. */
  const words: Record<string, unknown>;
  export = words;
}
