import { createEnglishAnalyzer } from './englishAnalyzer';

const en = createEnglishAnalyzer({ cacheSize: 100 });
const lemmas = (word: string) => en.keysForWord(word).lemmas;

describe('English analyzer', () => {
  it('lemmatises verbs and irregular nouns: running → run, mice → mouse', () => {
    expect(lemmas('running')).toContain('run');
    expect(lemmas('mice')).toContain('mouse');
    expect(lemmas('indexes')).toContain('index');
    expect(lemmas('queries')).toContain('query');
    expect(lemmas('was')).toContain('be');
  });

  it('keeps the word itself among the candidates', () => {
    expect(lemmas('data')).toContain('data');
    expect(lemmas('running')).toContain('running');
  });

  it('stems with Porter2', () => {
    expect(en.keysForWord('vacuuming').stem).toBe(
      en.keysForWord('vacuumed').stem,
    );
    expect(en.keysForWord('connections').stem).toBe('connect');
  });

  it('does not over-lemmatise (negative cases)', () => {
    // Porter2 conflates these stems; the lemma keys must not.
    expect(en.keysForWord('university').stem).toBe(
      en.keysForWord('universe').stem,
    );
    expect(
      lemmas('university').filter(l => lemmas('universe').includes(l)),
    ).toEqual([]);
    expect(
      lemmas('universities').filter(l => lemmas('universe').includes(l)),
    ).toEqual([]);
    expect(lemmas('news')).not.toContain('new');
    expect(lemmas('series')).not.toContain('sery');
  });

  it('folds accented loanwords and leaves numbers alone', () => {
    expect(en.keysForWord('café').lemmas).toContain('cafe');
    expect(en.keysForWord('15')).toEqual({
      lemmas: ['15'],
      stem: '15',
      known: false,
    });
  });

  it('knows English stopwords', () => {
    for (const word of ['the', 'how', 'do', "don't"])
      expect(en.isStopword(word)).toBe(true);
    for (const word of ['vacuum', 'table', 'index'])
      expect(en.isStopword(word)).toBe(false);
  });
});

describe('English analyzer: which words WordNet knows', () => {
  it('knows dictionary words, also inflected, and no misspelling or product name', () => {
    for (const word of ['cable', 'meals', 'crooked', 'stitched', 'landing'])
      expect({ word, known: en.keysForWord(word).known }).toEqual({
        word,
        known: true,
      });
    for (const word of ['keybord', 'statistcs', 'condtion', 'pgaudit', 'zx'])
      expect({ word, known: en.keysForWord(word).known }).toEqual({
        word,
        known: false,
      });
    // An own property of WordNet's list, not of every object.
    expect(en.keysForWord('constructor').known).toBe(true);
    expect(en.keysForWord('__proto__').known).toBe(false);
  });
});
