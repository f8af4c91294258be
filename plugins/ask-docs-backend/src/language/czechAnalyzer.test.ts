import {
  createCzechAnalyzer,
  czechLanguage,
  DEFAULT_CZECH_DICTIONARY,
} from './czechAnalyzer';
import { LanguageAnalyzer } from './types';

// The real Debian dictionary (scripts/install-system-deps.sh installs hunspell-cs).
let cs: LanguageAnalyzer;
beforeAll(async () => {
  cs = await czechLanguage.createAnalyzer({
    hunspell: DEFAULT_CZECH_DICTIONARY,
    onMissingDictionary: 'error',
    warn: message => {
      throw new Error(`unexpected warning: ${message}`);
    },
    cacheSize: 1000,
  });
});

const allKeys = (word: string) => {
  const keys = cs.keysForWord(word);
  return new Set([...keys.lemmas.map(l => `l:${l}`), `s:${keys.stem}`]);
};
const shared = (a: string, b: string) => {
  const other = allKeys(b);
  return [...allKeys(a)].filter(k => other.has(k));
};
// The forms, as "form → verb", that lack the verb's lemma key ([verb, ...forms] per family).
const withoutVerbKey = (families: string[][]) =>
  families.flatMap(([verb, ...forms]) => {
    const key = `l:${cs.keysForWord(verb).lemmas[0]}`;
    return forms
      .filter(form => !shared(verb, form).includes(key))
      .map(form => `${form} → ${verb}`);
  });

describe('Czech analyzer with hunspell', () => {
  it('is not degraded and signs its keys with the dictionary hash', () => {
    expect(cs.degraded).toBeUndefined();
    expect(cs.signature).toMatch(/^cs:\d+:hunspell-[0-9a-f]{12}$/);
  });

  it(`lemmatises irregular forms: psa → pes, dne → den, lidé → člověk, oči → \
oko`, () => {
    expect(cs.keysForWord('psa').lemmas).toContain('pes');
    expect(cs.keysForWord('psovi').lemmas).toContain('pes');
    expect(cs.keysForWord('dne').lemmas).toContain('den');
    expect(cs.keysForWord('dnech').lemmas).toEqual(
      expect.arrayContaining(['den', 'dno']),
    );
    expect(cs.keysForWord('lidé').lemmas).toContain('clovek');
    expect(cs.keysForWord('oči').lemmas).toContain('oko');
    expect(cs.keysForWord('psa').known).toBe(true);
  });

  it('lemmatises regular inflection through hunspell: lišce → liška', () => {
    expect(cs.keysForWord('lišce').lemmas).toContain('liska');
    expect(cs.keysForWord('záložky').lemmas).toEqual(['zalozka']);
    expect(cs.keysForWord('vitráží').lemmas).toContain('vitraz');
    expect(cs.keysForWord('schůzích').lemmas).toContain('schuze');
  });

  it('finds names that hunspell only knows capitalised', () => {
    expect(cs.keysForWord('pavlovi').lemmas).toContain('pavel');
  });

  it('does not relate Pavlovi to pavlač (no shared lemma or stem)', () => {
    for (const form of ['pavlač', 'pavlače', 'pavlačemi']) {
      expect(shared('pavlovi', form)).toEqual([]);
      expect(shared('pavel', form)).toEqual([]);
    }
  });

  it('does not relate pes to pesto (no shared key)', () => {
    for (const dog of ['pes', 'psa', 'psem']) {
      for (const sauce of ['pesto', 'pesta', 'pestem'])
        expect(shared(dog, sauce)).toEqual([]);
    }
  });

  it('gives verbs, their verbal nouns and participles one derivation key', () => {
    const families = [
      ['nasadit', 'nasazení', 'nasazením', 'nasazený', 'nasazuje'],
      ['nastavit', 'nastavení', 'nastavená'],
      ['spustit', 'spuštění', 'spuštěný'],
      ['vytvořit', 'vytvoření', 'vytvořený'],
      ['uložit', 'uložení', 'uloženo'],
      ['platit', 'placení'],
      ['použít', 'použití', 'použitý'],
      ['zapnout', 'zapnutí'],
      ['zpracovat', 'zpracování'],
      ['převést', 'převedení', 'převod', 'převodu'],
      ['přenést', 'přenos'],
      // Secondary imperfectives: their perfective is the key.
      ['přidat', 'přidává', 'přidávání'],
      ['použít', 'používá', 'používat'],
      ['přepnout', 'přepíná'],
      ['nastavit', 'nastavuje', 'nastavování'],
      ['odstranit', 'odstraňuje', 'odstraňování'],
      ['uložit', 'ukládá', 'ukládání'],
      ['vložit', 'vkládá'],
      ['vytvořit', 'vytváří', 'vytváření'],
      ['vybrat', 'vybírá'],
      ['otevřít', 'otevírá'],
      ['spustit', 'spouští', 'spouštění'],
      ['přesunout', 'přesouvá'],
      ['vrátit', 'vrací'],
      ['připomenout', 'připomíná'],
      ['přichytit', 'přichytává'],
      ['ukázat', 'ukazuje', 'ukazování'],
      ['zavázat', 'zavazuje'],
    ];
    expect(withoutVerbKey(families)).toEqual([]);
  });

  it('gives the irregular verb classes their infinitive at any prefix', () => {
    // hunspell-cs files these under a present form or the participle ("najde" → najdu).
    const families = [
      ['najít', 'najdete', 'najde', 'našel', 'našli'],
      ['přijít', 'přijde', 'přišel'],
      ['převést', 'převede', 'převedl', 'převedla'],
      ['vést', 'vede', 'vedl'],
      ['napsat', 'napíše', 'napsal'],
      ['přepsat', 'přepíše', 'přepsal'],
      ['poslat', 'pošle', 'poslal'],
      ['odeslat', 'odešle', 'odeslal'],
      ['převzít', 'převezme', 'převzal'],
      ['vzít', 'vezme', 'vzal'],
      ['přijmout', 'přijme', 'přijal'],
      ['vyjmout', 'vyjme', 'vyjmul'],
      ['přijet', 'přijede', 'přijel'],
    ];
    expect(withoutVerbKey(families)).toEqual([]);
  });

  it('does not give unrelated words a derivation key in common', () => {
    // Lengthened prefixes name things of their own: úvod (introduction) is not uvést,
    // návod (guide) not navést, výnos (yield) not vynést.
    expect(shared('úvod', 'uvést')).toEqual([]);
    expect(shared('návod', 'navést')).toEqual([]);
    expect(shared('výnos', 'vynést')).toEqual([]);
    // kašel (cough) only looks like a past of jít.
    expect(cs.keysForWord('kašel').lemmas).toEqual(['kasel']);
    // Homographs the rules leave alone: pojmu is also a form of pojem (concept), vypadává
    // (keeps dropping out) is not vypadat (to look like), obírat not the noun obrat.
    expect(cs.keysForWord('pojmu').lemmas).not.toContain('pojmout');
    expect(shared('vypadává', 'vypadá')).toEqual([]);
    expect(shared('obírá', 'obratu')).toEqual([]);
    // -kazovat pairs with -kázat, never with -kazit (spoil).
    expect(cs.keysForWord('ukazuje').lemmas).toContain('ukazat');
    expect(cs.keysForWord('dokazuje').lemmas).not.toContain('dokazit');
    // A candidate must be a lemma: "aktivit" is a form of aktivita, not aktivovat's verb.
    expect(cs.keysForWord('aktivovat').lemmas).toEqual(['aktivovat']);
    // d/z: vození is from vozit (carry), not vodit (lead); vodění is from vodit.
    expect(shared('vodit', 'vození')).toEqual([]);
    expect(shared('vozit', 'vodění')).toEqual([]);
    // -ovat does not strip: budovat (build) is not budit (wake), varovat (warn) not vařit.
    expect(shared('budit', 'budování')).toEqual([]);
    expect(shared('budit', 'budovat')).toEqual([]);
    expect(shared('vaření', 'varovat')).toEqual([]);
    // vedení is from vést, vědění from vědět.
    expect(shared('vedení', 'vědět')).toEqual([]);
    expect(shared('vědění', 'vést')).toEqual([]);
    // Adjectives in -ený that are not participles gain nothing.
    expect(cs.keysForWord('zelený').lemmas).toEqual(['zeleny']);
    expect(cs.keysForWord('červený').lemmas).toEqual(['cerveny']);
  });

  it('folds keys so text without diacritics meets them', () => {
    const keys = cs.keysForWord('záložky');
    expect(keys.stem).toBe('zalozk');
    expect(cs.keysForWord('zalozky').stem).toBe(keys.stem);
    // Unknown to the dictionary: its own lemma, not known.
    expect(cs.keysForWord('zalozky')).toEqual({
      lemmas: ['zalozky'],
      stem: 'zalozk',
      known: false,
    });
  });

  it('restores diacritics of words typed without them', () => {
    expect(cs.restoreDiacritics!('zalozky')).toEqual(['záložky']);
    expect(cs.restoreDiacritics!('prumernou')).toContain('průměrnou');
    expect(cs.restoreDiacritics!('mrizku')).toContain('mřížku');
    // ň, ť, ď before a, o, u are written with their caron (plain only before e, i).
    expect(cs.restoreDiacritics!('odstranovani')).toContain('odstraňování');
    expect(cs.restoreDiacritics!('tukat')).toContain('ťukat');
    // Longer than any word worth the lookups: not tried, no lookup spent.
    const budget = { lookups: 10_000 };
    expect(
      cs.restoreDiacritics!('nejneobhospodarovavatelnejsimi', budget),
    ).toEqual([]);
    expect(budget.lookups).toBe(10_000);
    // A word costs its lookups, cached or not; one the budget cannot pay gives nothing.
    const first = { lookups: 10_000 };
    expect(cs.restoreDiacritics!('prohlizeci', first)).toContain('prohlížeči');
    const spent = 10_000 - first.lookups;
    expect(spent).toBeGreaterThan(0);
    const again = { lookups: 10_000 };
    cs.restoreDiacritics!('prohlizeci', again);
    expect(again.lookups).toBe(first.lookups);
    const short = { lookups: spent - 1 };
    expect(cs.restoreDiacritics!('prohlizeci', short)).toEqual([]);
    expect(short.lookups).toBe(0);
    // Already accented, nonsense, or too short: nothing to restore.
    expect(cs.restoreDiacritics!('záložky')).toEqual([]);
    expect(cs.restoreDiacritics!('qbsit')).toEqual([]);
    expect(cs.restoreDiacritics!('ab')).toEqual([]);
  });

  it('keeps numbers as they are and recognises stopwords typed either way', () => {
    expect(cs.keysForWord('2011')).toEqual({
      lemmas: ['2011'],
      stem: '2011',
      known: false,
    });
    for (const word of ['jak', 'je', 'při', 'pri', 'že'])
      expect(cs.isStopword(word)).toBe(true);
    // Function words in their other cases and persons count too, as "which", "all", "must" do.
    for (const word of [
      'kterých',
      'kterych',
      'všech',
      'musí',
      'nějaké',
      'lze',
      'nelze',
    ])
      expect(cs.isStopword(word)).toBe(true);
    for (const word of ['záložka', 'pes', 'vrstva', 'výbor', 'musli'])
      expect(cs.isStopword(word)).toBe(false);
  });

  it('returns frozen cached keys', () => {
    const first = cs.keysForWord('vrstvy');
    expect(cs.keysForWord('vrstvy')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.lemmas)).toBe(true);
  });
});

describe('Czech analyzer without a dictionary', () => {
  const missing = {
    affPath: '/nonexistent/cs_CZ.aff',
    dicPath: '/nonexistent/cs_CZ.dic',
  };

  it('fails with a clear error by default', async () => {
    await expect(
      czechLanguage.createAnalyzer({
        hunspell: missing,
        onMissingDictionary: 'error',
        warn: () => {},
        cacheSize: 10,
      }),
    ).rejects.toThrow(
      /hunspell dictionary.*\/nonexistent\/cs_CZ\.aff.*hunspell-cs/s,
    );
  });

  it('runs stem-only when allowed, and says so', async () => {
    const warnings: string[] = [];
    const degraded = await czechLanguage.createAnalyzer({
      hunspell: missing,
      onMissingDictionary: 'stem-only',
      warn: m => warnings.push(m),
      cacheSize: 10,
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/stem-only/);
    expect(degraded.degraded).toBe(warnings[0]);
    expect(degraded.signature).toMatch(/stem-only/);
    expect(degraded.signature).not.toBe(cs.signature);
    // Stems still conflate inflection; lemmas fall back to the word except for the table.
    expect(degraded.keysForWord('lišce').stem).toBe(
      degraded.keysForWord('liška').stem,
    );
    expect(degraded.keysForWord('lišce')).toMatchObject({
      lemmas: ['lisce'],
      known: false,
    });
    expect(degraded.keysForWord('psa').lemmas).toEqual(['pes']);
    expect(degraded.restoreDiacritics!('zalozky')).toEqual([]);
  });

  it('works with an injected dictionary', () => {
    const fake = createCzechAnalyzer({
      dictionary: {
        stemSync: w => (w === 'kočky' ? ['kočka'] : []),
        spellSync: w => w === 'kočky',
      },
      fingerprint: 'test',
    });
    expect(fake.keysForWord('kočky')).toEqual({
      lemmas: ['kocka'],
      stem: 'kock',
      known: true,
    });
    expect(fake.restoreDiacritics!('kocky')).toEqual(['kočky']);
    expect(fake.signature).toBe('cs:4:hunspell-test');
  });
});
