import { czechDerivationVerb } from './czechDerivation';

// A stand-in dictionary: the rules only keep candidates it knows.
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
  });
});
