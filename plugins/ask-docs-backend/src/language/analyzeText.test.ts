import { analyzeQuery, analyzeText } from './analyzeText';
import { createLanguageAnalyzers } from './createLanguageAnalyzers';
import { Analyzers, TermCount } from './types';

let analyzers: Analyzers;
beforeAll(async () => {
  analyzers = await createLanguageAnalyzers({
    languages: ['en', 'cs'],
    cacheSize: 10_000,
  });
});

const tf = (terms: TermCount[], kind: string, term: string) =>
  terms.find(t => t.kind === kind && t.term === term)?.tf ?? 0;

describe('analyzeText', () => {
  it('counts lemma, stem and surface keys per chunk', () => {
    const { terms, tokenCount } = analyzeText(
      'Záložky v dialogu. Dialog ukládá záložku.',
      'cs',
      analyzers,
    );
    expect(tokenCount).toBe(6);
    expect(tf(terms, 'l', 'zalozka')).toBe(2);
    expect(tf(terms, 'l', 'dialog')).toBe(2);
    expect(tf(terms, 's', 'zalozk')).toBe(2);
    // Surface words keep their diacritics for typo suggestions.
    expect(tf(terms, 'w', 'záložky')).toBe(1);
    expect(tf(terms, 'w', 'záložku')).toBe(1);
    expect(tf(terms, 'w', 'zalozky')).toBe(0);
    // Each (kind, term) appears once: one entry per chunk in its posting list.
    const keys = terms.map(t => `${t.kind}:${t.term}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(terms.every(t => ['l', 's', 'w'].includes(t.kind) && t.tf > 0)).toBe(
      true,
    );
  });

  it('analyses English with the English analyzer', () => {
    const { terms } = analyzeText(
      'The mice were running; a mouse runs.',
      'en',
      analyzers,
    );
    expect(tf(terms, 'l', 'mouse')).toBe(2);
    expect(tf(terms, 'l', 'run')).toBe(2);
    expect(tf(terms, 'l', 'zalozka')).toBe(0);
  });

  it('can leave stopwords out of lemma and stem postings', () => {
    const kept = analyzeText('the table and the index', 'en', analyzers);
    const dropped = analyzeText('the table and the index', 'en', analyzers, {
      dropStopwords: true,
    });
    expect(tf(kept.terms, 'l', 'the')).toBe(2);
    expect(tf(dropped.terms, 'l', 'the')).toBe(0);
    expect(tf(dropped.terms, 'w', 'the')).toBe(2);
    expect(tf(dropped.terms, 'l', 'table')).toBe(1);
    expect(dropped.tokenCount).toBe(kept.tokenCount);
  });

  it('rejects a language that is not configured', () => {
    expect(() => analyzeText('Hallo Welt', 'de', analyzers)).toThrow(
      /not configured/,
    );
  });
});

describe('analyzeQuery', () => {
  // A document key set, as ingestion would store it.
  const documentKeys = (text: string, lang: string) =>
    new Set(
      analyzeText(text, lang, analyzers)
        .terms.filter(t => t.kind !== 'w')
        .map(t => t.term),
    );

  it('matches a question typed without diacritics to the document keys', () => {
    const doc = documentKeys(
      'Dialog umí ukládat záložky na často používané adresáře.',
      'cs',
    );
    const query = analyzeQuery(
      'umi dialog ukladat zalozky na adresar',
      'cs',
      analyzers,
    );
    const zalozky = query.find(t => t.token === 'zalozky')!;
    expect(zalozky.byLang[0].restored).toContain('záložky');
    expect(zalozky.lemmas).toContain('zalozka');
    expect(zalozky.words).toEqual(['zalozky', 'záložky']);
    // "na" is a stopword: left out by default.
    expect(query.map(t => t.token)).toEqual([
      'umi',
      'dialog',
      'ukladat',
      'zalozky',
      'adresar',
    ]);
    for (const token of query) {
      expect([token.token, token.lemmas.some(l => doc.has(l))]).toEqual([
        token.token,
        true,
      ]);
    }
  });

  it('restores known words only in a question typed without any diacritics', () => {
    // "velikosti" is a word itself; "velikostí" is what a plain-typed question may mean.
    const plain = analyzeQuery(
      'jak nakreslit mrizku v plne velikosti',
      'cs',
      analyzers,
    );
    expect(
      plain.find(t => t.token === 'velikosti')!.byLang[0].restored,
    ).toEqual(['velikostí']);
    // Unknown words are restored in any question.
    const accented = analyzeQuery(
      'jak nakreslit mřížku v plne velikosti',
      'cs',
      analyzers,
    );
    expect(accented.find(t => t.token === 'plne')!.byLang[0].restored).toEqual(
      expect.arrayContaining(['plné', 'plně']),
    );
    expect(
      accented.find(t => t.token === 'velikosti')!.byLang[0].restored,
    ).toEqual([]);
    const never = analyzeQuery('zalozky', 'cs', analyzers, {
      restoreDiacritics: 'never',
    });
    expect(never[0].byLang[0].restored).toEqual([]);
    expect(never[0].lemmas).toEqual(['zalozky']);
  });

  it('analyses an unknown-language question per language and unions the keys', () => {
    const query = analyzeQuery(
      'How do mice find the psa?',
      ['en', 'cs'],
      analyzers,
      { includeStopwords: true },
    );
    const mice = query.find(t => t.token === 'mice')!;
    expect(mice.byLang.map(k => k.lang)).toEqual(['en', 'cs']);
    expect(mice.byLang[0].lemmas).toContain('mouse');
    expect(mice.byLang[1].lemmas).not.toContain('mouse');
    expect(mice.lemmas).toContain('mouse');
    expect(query.find(t => t.token === 'psa')!.byLang[1].lemmas).toContain(
      'pes',
    );
    expect(query.find(t => t.token === 'the')!.stopword).toBe(true);
    expect(query.find(t => t.token === 'find')!.stopword).toBe(false);
    // English function words are not "restored" into Czech words.
    expect(query.find(t => t.token === 'how')!.byLang[1].restored).toEqual([]);
  });

  it('leaves stopwords out unless the question has nothing else', () => {
    const tokens = (q: string) => analyzeQuery(q, analyzers).map(t => t.token);
    expect(tokens('How do I vacuum the table?')).toEqual(['vacuum', 'table']);
    expect(tokens('to be or not to be')).toEqual(['to', 'be', 'or', 'not']);
  });

  it('analyses with all configured languages when none are given', () => {
    const [token] = analyzeQuery('psa', analyzers);
    expect(token.byLang.map(k => k.lang)).toEqual(analyzers.languages);
    expect(token.lemmas).toContain('pes');
  });

  it('bounds the number of words it restores', () => {
    const question = 'zalozky mrizku krizku prumernou';
    const restoredCount = (max: number) =>
      analyzeQuery(question, 'cs', analyzers, { maxRestoredWords: max }).filter(
        t => t.byLang[0].restored.length > 0,
      ).length;
    expect(restoredCount(16)).toBe(4);
    expect(restoredCount(2)).toBe(2);
  });

  it('returns each distinct token once, in order', () => {
    expect(
      analyzeQuery('vacuum VACUUM full vacuum', 'en', analyzers).map(
        t => t.token,
      ),
    ).toEqual(['vacuum', 'full']);
  });

  it('does not let the Czech dog find the pesto recipe (negative)', () => {
    const doc = documentKeys(
      'Recept na pesto: bazalka, pesta je potřeba hodně.',
      'cs',
    );
    const [dog] = analyzeQuery('psa', 'cs', analyzers);
    expect([...dog.lemmas, ...dog.stems].filter(k => doc.has(k))).toEqual([]);
  });
});
