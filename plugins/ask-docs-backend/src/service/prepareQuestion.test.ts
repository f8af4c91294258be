import { createLanguageAnalyzers } from '../language';
import { prepareQuestion, rewriteWords } from './prepareQuestion';

describe('prepareQuestion', () => {
  it('gives the vector side the restored spelling of words typed without diacritics', async () => {
    const analyzers = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
    const p = prepareQuestion('Jak ulozit zalozky?', analyzers);
    expect(p.vectorText).toBe('Jak uložit záložky?');
    // Keyword side: stopwords out, the typed word is the only surface key.
    expect(p.queryTokens.map(t => t.token)).toEqual(['ulozit', 'zalozky']);
    expect(p.queryTokens[1].words).toEqual(['zalozky']);
    expect(p.queryTokens[1].lemmas).toContain('zalozka');
    // Text with its diacritics, or English, is left as typed.
    expect(prepareQuestion('Jak uložit záložky?', analyzers).vectorText).toBe('Jak uložit záložky?');
    expect(prepareQuestion('How do I roll back?', analyzers).vectorText).toBe('How do I roll back?');
  });
});

describe('rewriteWords', () => {
  it('replaces whole words only, case-insensitively, keeping punctuation', () => {
    const map = new Map([['ledgr', 'ledger']]);
    expect(rewriteWords('Ledgr: where is the ledgr? ledgrs stay.', map)).toBe('ledger: where is the ledger? ledgrs stay.');
    expect(rewriteWords('nothing to do', new Map())).toBe('nothing to do');
  });
});
