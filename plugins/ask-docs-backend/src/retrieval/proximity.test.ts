import { Analyzers, createLanguageAnalyzers } from '../language';
import { tokenize } from '../language/tokenize';
import { prepareQuestion } from '../service/prepareQuestion';
import {
  analyzerCorrectedWordKeys,
  analyzerWordKeys,
  phraseShare,
  queryWordMatcher,
  sentenceShare,
} from './proximity';

// Tokens with keys as the analyzers would give them; the scoring tests compare words exactly.
const token = (t: string, lemmas: string[] = [t], stems: string[] = [t]) => ({
  token: t,
  lemmas,
  stems,
  words: [t],
});
const one = () => 1;

// "How do I create a primary key?": stopwords are not query tokens at all.
const create = token('create', ['create'], ['creat']);
const primary = token('primary', ['primary'], ['primari']);
const key = token('key', ['key'], ['key']);

describe('queryWordMatcher', () => {
  let analyzers: Analyzers;
  beforeAll(async () => {
    analyzers = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
  });
  // The question's words in a passage of `lang`, matched as the product matches them.
  const named = (
    question: string,
    passage: string,
    lang: string,
    prefixTokens?: Set<string>,
  ) => {
    const tokens = prepareQuestion(question, analyzers).queryTokens;
    const keysOf = analyzerWordKeys(analyzers)(lang);
    const match = queryWordMatcher(tokens, { keysOf, prefixTokens });
    return tokens
      .filter((_, i) => tokenize(passage).some(w => match(w).includes(i)))
      .map(t => t.token);
  };

  it('names a token by a lemma or the stem of the passage word', () => {
    expect(
      named('create primary key', 'Creating a primary keys', 'en'),
    ).toEqual(['create', 'primary', 'key']);
    expect(named('configure', 'configuration', 'en')).toEqual(['configure']);
    // Czech forms meet through lemmas and stems, with or without diacritics.
    expect(named('pokladnu', 'Pokladna', 'cs')).toEqual(['pokladnu']);
    expect(named('pokladnu', 'pokladne', 'cs')).toEqual(['pokladnu']);
    expect(named('psa', 'Pes', 'cs')).toEqual(['psa']);
    expect(named('dne', 'den', 'cs')).toEqual(['dne']);
    expect(named('lišce', 'Liška', 'cs')).toEqual(['lišce']);
    // The verb a noun is derived from (decision record 0006).
    expect(named('nasadit', 'Nasazení', 'cs')).toEqual(['nasadit']);
  });

  it('never names a word that merely starts with a stem', () => {
    // Keyword search keeps these apart; so do the title, phrase and sentence evidence.
    expect(named('Pavlovi', 'pavlač', 'cs')).toEqual([]);
    expect(named('pes', 'pesto', 'cs')).toEqual([]);
    expect(named('key', 'keyboard', 'en')).toEqual([]);
    expect(named('pokladnu', 'pokl', 'cs')).toEqual([]);
  });

  it('reads a passage in its own language only, as the index did', () => {
    // Czech stems "date" and "data" alike (dat); an English passage's "data" is data.
    expect(named('date format', 'the data format', 'en')).toEqual(['format']);
    expect(named('date format', 'the date format', 'en')).toEqual([
      'date',
      'format',
    ]);
  });

  it('names by the typed word as a prefix only what keyword search found by prefix', () => {
    expect(named('kube', 'kubernetes pods', 'en')).toEqual([]);
    expect(named('kube', 'kubernetes pods', 'en', new Set(['kube']))).toEqual([
      'kube',
    ]);
    // The typed word, not its stem: "pavlovi" is no prefix of "pavlač".
    expect(named('Pavlovi', 'pavlač', 'cs', new Set(['pavlovi']))).toEqual([]);
  });

  it('without passage keys compares the folded word only', () => {
    const till = token('pokladnu', ['pokladna'], ['pokladn']);
    const match = queryWordMatcher([till]);
    expect(match('pokladna')).toEqual([0]);
    expect(match('pokladná')).toEqual([0]);
    expect(match('pokladne')).toEqual([]);
  });
});

describe('phraseShare', () => {
  const q = [create, primary, key];

  it('finds the question as a phrase, allowing a couple of words between', () => {
    expect(phraseShare(q, one, 'You can create a primary key when ...')).toBe(
      1,
    );
    expect(phraseShare(q, one, 'CREATE the primary, unique key')).toBe(1);
  });

  it('does not count words far apart as a phrase', () => {
    // All three words within ten, but each pair with three or more words between.
    const far = 'Create one column; make it primary, then add the key.';
    expect(phraseShare(q, one, far)).toBe(0);
    const filler = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    expect(phraseShare(q, one, `create ${filler} primary ${filler} key`)).toBe(
      0,
    );
  });

  it('does not count words in the other order as a phrase', () => {
    expect(phraseShare(q, one, 'key primary create')).toBe(0);
    // Only the pair "primary key" stands in the question's order.
    expect(phraseShare(q, one, 'a primary key, then create')).toBeCloseTo(0.5);
  });

  it('finds a phrase at any occurrence of its words, not only the first', () => {
    const late =
      'create it; much later: primary things, then create primary key';
    expect(phraseShare(q, one, late)).toBe(1);
    // Every "primary" is too far after every "create": only "primary key" joins.
    const apart = 'create a b c primary d e f create g h i primary key';
    expect(phraseShare(q, one, apart)).toBeCloseTo(0.5);
  });

  it('weights pairs by the smaller idf of their words', () => {
    const idf = (t: string) => ({ create: 1, primary: 3, key: 2 }[t] ?? 0);
    // Only "primary key" (min idf 2) of the pairs' 1 + 2.
    expect(phraseShare(q, idf, 'primary key; create later')).toBeCloseTo(2 / 3);
  });

  it('has no phrase for stopword-only, one-word or empty questions, or empty text', () => {
    expect(phraseShare([], one, 'how do I do it')).toBe(0);
    expect(phraseShare([key], one, 'the key')).toBe(0);
    expect(phraseShare(q, one, '')).toBe(0);
  });

  it('ignores words without idf, and a word the corpus lacks breaks its pairs', () => {
    const lacking = (t: string) => (t === 'create' ? 0 : t === 'key' ? 4 : 1);
    // "create" takes no part: the only pair is "primary key".
    expect(phraseShare(q, lacking, 'primary key')).toBe(1);
    expect(phraseShare([token('foreign'), key], one, 'primary key')).toBe(0);
  });
});

describe('sentenceShare', () => {
  const q = [create, primary, key];

  it('is 1 when one sentence has all the question words, in any order or distance', () => {
    expect(
      sentenceShare(q, one, 'The key, once primary, is what we create.'),
    ).toBe(1);
    const filler = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    expect(
      sentenceShare(q, one, `Create ${filler} primary ${filler} key`),
    ).toBe(1);
  });

  it('does not count words spread over sentences as together', () => {
    // "create" in one sentence, "primary key" in the next: the best sentence has two of three.
    expect(
      sentenceShare(q, one, 'Create the table first. Then add a primary key.'),
    ).toBeCloseTo(2 / 3);
    // Colons, semicolons, question marks and line breaks end a statement too.
    for (const sep of [': ', '; ', '? ', '\n'])
      expect(sentenceShare(q, one, `create${sep}primary${sep}key`)).toBeCloseTo(
        1 / 3,
      );
  });

  it('weights words by idf, ignores words without it; a lacking word lowers the share', () => {
    const idf = (t: string) => ({ create: 1, primary: 3, key: 2 }[t] ?? 0);
    expect(sentenceShare(q, idf, 'primary key. create')).toBeCloseTo(5 / 6);
    const noCreate = (t: string) => (t === 'create' ? 0 : 1);
    expect(sentenceShare(q, noCreate, 'primary key. create')).toBe(1);
    // "foreign" (a word the corpus lacks keeps its idf) is in no sentence.
    expect(sentenceShare([token('foreign'), key], one, 'the key')).toBe(0.5);
  });

  it('is 0 without content words or text, and for words that only share a short prefix', () => {
    expect(sentenceShare([], one, 'how do I do it')).toBe(0);
    expect(sentenceShare(q, one, '')).toBe(0);
    expect(sentenceShare([key], one, 'Press the keyboard shortcut.')).toBe(0);
  });
});

describe('analyzerCorrectedWordKeys', () => {
  it('gives a corrected word the keys of each dictionary that knows it, a name none', async () => {
    const keysOf = analyzerCorrectedWordKeys(
      await createLanguageAnalyzers({ languages: ['en', 'cs'] }),
    );
    // "klávesou" is a form of "klávesa": its other forms are found too.
    expect(keysOf('klávesou').lemmas).toContain('klavesa');
    expect(keysOf('sessions').lemmas).toContain('session');
    // A word no dictionary knows is matched as that word only.
    expect(keysOf('pgbouncer')).toEqual({ lemmas: [], stems: [] });
  });
});
