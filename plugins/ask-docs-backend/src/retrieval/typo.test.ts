import { boundedDamerauLevenshtein, isConfidentCorrection } from './typo';

describe('boundedDamerauLevenshtein', () => {
  it.each([
    ['ledger', 'ledger', 0],
    ['ledgr', 'ledger', 1], // insertion
    ['ledgeer', 'ledger', 1], // deletion
    ['ledjer', 'ledger', 1], // substitution
    ['legder', 'ledger', 1], // adjacent transposition counts once
    ['kubernetse', 'kubernetes', 1],
    ['kuberentes', 'kubernetes', 1],
    ['kbernets', 'kubernetes', 2],
    ['straße', 'strasse', 2],
    ['café', 'cafe', 1],
  ])('%s → %s = %d', (a, b, d) => {
    expect(boundedDamerauLevenshtein(a, b, 3)).toBe(d);
    expect(boundedDamerauLevenshtein(b, a, 3)).toBe(d);
  });

  it('stops at the bound', () => {
    expect(boundedDamerauLevenshtein('payments', 'pipeline', 1)).toBe(2);
    expect(boundedDamerauLevenshtein('a', 'abcdef', 2)).toBe(3);
    expect(boundedDamerauLevenshtein('abc', 'xyz', 2)).toBe(3);
  });
});

describe('isConfidentCorrection', () => {
  it.each([
    ['replicate', 'repllicate', 1],
    ['constraint', 'costraint', 1],
    ['optimizer', 'optimzier', 1],
    ['minimize', 'minimise', 1],
    ['colour', 'color', 1],
    // Six letters is enough.
    ['session', 'sesion', 1],
    // Accents aside: the same word, or one slip.
    ['šablony', 'sablony', 0],
    ['vyhlazování', 'vthlazovani', 1],
    // Slips that only look British ("vers…", "-lled", "-ised") are slips.
    ['version', 'versoin', 1],
    ['installed', 'isntalled', 1],
    ['surprised', 'surpised', 1],
  ])('%s typed as %s is a slip', (to, from, distance) => {
    expect(isConfidentCorrection(from, to, distance)).toBe(true);
  });

  it.each([
    // The first letter differs: an unknown name near a docs word, not a slip.
    ['Procreate', 'recreate', 1],
    ['kedger', 'ledger', 1],
    // Short words have many neighbours one slip away.
    ['ledgr', 'ledger', 1],
    ['fomr', 'form', 1],
    // Two slips are a guess.
    ['paymnest', 'payments', 2],
  ])('%s → %s is a guess', (from, to, distance) => {
    expect(isConfidentCorrection(from, to, distance)).toBe(false);
  });

  it('takes a six-letter word with a letter left out when nothing else is that near', () => {
    const only = { onlyNeighbour: true };
    expect(isConfidentCorrection('vauum', 'vacuum', 1, only)).toBe(true);
    expect(isConfidentCorrection('seral', 'serial', 1, only)).toBe(true);
    // Another visible word one slip away ("jedna", "jedno" for "jednm"): a guess.
    expect(isConfidentCorrection('jednm', 'jednom', 1)).toBe(false);
    // Only a letter left out of six: a mistyped or added letter in five, a shorter word, a
    // first letter, a capital or two slips stay guesses.
    for (const [from, to, distance, capitalised] of [
      ['fomrs', 'forms', 1],
      ['ledgr', 'ledge', 1],
      ['fomr', 'form', 1],
      ['kedgr', 'ledger', 2],
      ['edger', 'ledger', 1],
      ['Vauum', 'vacuum', 1, true],
      ['vaum', 'vacuum', 2],
    ] as const)
      expect(
        isConfidentCorrection(from, to, distance, { ...only, capitalised }),
      ).toBe(false);
  });

  it('takes a word typed capitalised for a name: Gradle is no slip of grade', () => {
    expect(isConfidentCorrection('gradle', 'grade', 1)).toBe(true);
    expect(
      isConfidentCorrection('gradle', 'grade', 1, { capitalised: true }),
    ).toBe(false);
    expect(
      isConfidentCorrection('postgrest', 'postgres', 1, { capitalised: true }),
    ).toBe(false);
  });

  it('takes a British spelling as sure only of its American one', () => {
    const british = { britishSpelling: true };
    expect(
      isConfidentCorrection('parallelise', 'parallelism', 1, british),
    ).toBe(false);
    expect(
      isConfidentCorrection('parallelise', 'parallelize', 1, british),
    ).toBe(true);
  });
});
