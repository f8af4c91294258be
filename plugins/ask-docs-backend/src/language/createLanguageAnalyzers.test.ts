import { BoundedCache } from './boundedCache';
import {
  createLanguageAnalyzers,
  genericLanguage,
} from './createLanguageAnalyzers';

describe('createLanguageAnalyzers', () => {
  it('builds the configured languages, default first, with normalised codes', async () => {
    const analyzers = await createLanguageAnalyzers({
      languages: ['cs-CZ', 'EN'],
    });
    expect(analyzers.languages).toEqual(['cs', 'en']);
    expect(analyzers.defaultLanguage).toBe('cs');
    expect(analyzers.degraded).toEqual({});
    expect(analyzers.get('en_US').lang).toBe('en');
    expect(analyzers.has('de')).toBe(false);
    expect(() => analyzers.get('de')).toThrow(/not configured/);
    expect(analyzers.profiles.map(p => p.lang)).toEqual(['cs', 'en']);
  });

  it('uses the configured dictionary path and fails clearly when it is wrong', async () => {
    await expect(
      createLanguageAnalyzers({
        languages: ['en', 'cs'],
        hunspell: {
          cs: { affPath: '/missing/cs.aff', dicPath: '/missing/cs.dic' },
        },
      }),
    ).rejects.toThrow(/\/missing\/cs\.aff/);
  });

  it('reports the stem-only mode through the logger and `degraded`', async () => {
    const warn = jest.fn();
    const analyzers = await createLanguageAnalyzers({
      languages: ['en', 'cs'],
      hunspell: {
        cs: { affPath: '/missing/cs.aff', dicPath: '/missing/cs.dic' },
      },
      onMissingDictionary: 'stem-only',
      logger: { warn },
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(Object.keys(analyzers.degraded)).toEqual(['cs']);
    expect(analyzers.get('cs').keysForWord('lišce').known).toBe(false);
  });

  it('rejects unknown languages and empty configuration', async () => {
    await expect(
      createLanguageAnalyzers({ languages: ['xx'] }),
    ).rejects.toThrow(/No keyword analyzer for language 'xx'/);
    await expect(createLanguageAnalyzers({ languages: [] })).rejects.toThrow(
      /at least one language/,
    );
  });

  it('plugs in further languages', async () => {
    const analyzers = await createLanguageAnalyzers({
      languages: ['de', 'en'],
      modules: [genericLanguage('de', { stopwords: new Set(['der', 'für']) })],
    });
    const de = analyzers.get('de');
    expect(de.keysForWord('größe')).toEqual({
      lemmas: ['grosse'],
      stem: 'grosse',
      known: false,
    });
    expect(de.isStopword('fur')).toBe(true);
    expect(de.isStopword('tabelle')).toBe(false);
  });
});

describe('BoundedCache', () => {
  it('never holds more than its capacity and keeps recently used entries', () => {
    const cache = new BoundedCache<string, number>(10);
    cache.set('hot', 0);
    for (let i = 0; i < 100; i++) {
      cache.set(`k${i}`, i);
      expect(cache.get('hot')).toBe(0);
      expect(cache.size).toBeLessThanOrEqual(10);
    }
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k99')).toBe(99);
  });

  it('rejects a capacity too small to hold two generations', () => {
    expect(() => new BoundedCache(1)).toThrow();
  });
});
