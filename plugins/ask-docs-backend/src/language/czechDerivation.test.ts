import { czechDerivationVerb } from './czechDerivation';

// A stand-in dictionary: the rules only keep candidates it has as lemmas.
const words = new Set([
  'nasadit',
  'vozit',
  'vodit',
  'spustit',
  'platit',
  'otevřít',
  'přinést',
  'zapnout',
  'dělat',
  'použít',
  'budit',
  'budovat',
  'nahradit',
  'zobrazit',
  'přidat',
  'přidávat',
  'nahrát',
  'použít',
  'přepnout',
  'nastavit',
  'převést',
  'přenést',
  'uvést',
  'navést',
  'dat',
  'uložit',
  'vytvořit',
  'vybrat',
  'zavřít',
  'spustit',
  'odstranit',
  'přesunout',
  'vrátit',
  'připomenout',
  'přichytit',
  'ukázat',
  'obrat',
  'vypadat',
]);
const derive = (lemma: string) => czechDerivationVerb(lemma, w => words.has(w));

describe('czechDerivationVerb', () => {
  it('undoes the suffix and the consonant alternation', () => {
    expect(derive('nasazení')).toBe('nasadit');
    expect(derive('nasazený')).toBe('nasadit');
    expect(derive('spuštění')).toBe('spustit');
    expect(derive('placení')).toBe('platit');
    expect(derive('otevření')).toBe('otevřít');
    expect(derive('přinesení')).toBe('přinést');
    expect(derive('zapnutí')).toBe('zapnout');
    expect(derive('dělání')).toBe('dělat');
    expect(derive('použitý')).toBe('použít');
    expect(derive('nahrazovat')).toBe('nahradit');
    expect(derive('zobrazovat')).toBe('zobrazit');
  });

  it('leads secondary imperfectives and suffixless nouns to their verb', () => {
    expect(derive('přidávat')).toBe('přidat');
    expect(derive('přidávání')).toBe('přidat'); // noun → imperfective → perfective
    expect(derive('nahrávat')).toBe('nahrát');
    expect(derive('používat')).toBe('použít');
    expect(derive('přepínat')).toBe('přepnout');
    expect(derive('nastavovat')).toBe('nastavit');
    expect(derive('převod')).toBe('převést');
    expect(derive('přenos')).toBe('přenést');
    // Endings that carry the root's vowel change, and n/ň.
    expect(derive('ukládat')).toBe('uložit');
    expect(derive('vytvářet')).toBe('vytvořit');
    expect(derive('vybírat')).toBe('vybrat');
    expect(derive('zavírat')).toBe('zavřít');
    expect(derive('spouštět')).toBe('spustit');
    expect(derive('odstraňovat')).toBe('odstranit');
    expect(derive('přesouvat')).toBe('přesunout');
    expect(derive('vracet')).toBe('vrátit');
    expect(derive('připomínat')).toBe('připomenout');
    expect(derive('přichytávat')).toBe('přichytit');
    expect(derive('ukazovat')).toBe('ukázat');
  });

  it('prefers the unchanged consonant, so vození stays with vozit', () => {
    expect(derive('vození')).toBe('vozit');
    expect(derive('vodění')).toBe('vodit');
  });

  it('derives nothing the dictionary does not confirm, nor from short or plain words', () => {
    expect(derive('zelený')).toBeUndefined(); // "zelit" is not a word
    expect(derive('budovat')).toBeUndefined(); // -ovat after d is not an alternation
    expect(derive('nasadit')).toBeUndefined(); // already a verb
    expect(czechDerivationVerb('dání', () => true)).toBeUndefined(); // stem too short
    expect(derive('')).toBeUndefined();
    expect(derive('dávat')).toBeUndefined(); // stem too short, although "dat" is a word
    expect(derive('úvod')).toBeUndefined(); // lengthened prefix: an introduction, not uvést
    expect(derive('návod')).toBeUndefined();
    // Verbs the endings misread, although the dictionary has their candidate: "obrat" is a
    // noun (turnover), "vypadat" another verb (to look like).
    expect(derive('obírat')).toBeUndefined();
    expect(derive('vypadávat')).toBeUndefined();
  });
});
