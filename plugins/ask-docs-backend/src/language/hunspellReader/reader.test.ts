import { createHunspellReader, HunspellReader } from '.';
import { matchesEnd, matchesStart, parseCondition } from './condition';

/*
 * The affix logic on a small hand-written dictionary. Each rule is commented with what it
 * exercises; the expectations are hunspell's (checked against nodehun when written).
 */

const AFF = `SET UTF-8
TRY abc
FORBIDDENWORD q
NOSUGGEST w

# prefix, cross product allowed
PFX N Y 1
PFX N   0     ne     .

# prefix without cross product
PFX R N 1
PFX R   0     re     .

# superlative prefix, only combinable through the suffix's continuation class
PFX E Y 1
PFX E   0     nej    .

# suffix with strip and a negated class; not combinable with prefixes
SFX B N 2
SFX B   y     ies    [^aeiou]y
SFX B   0     s      [aeiou]y

# suffixes with cross product; a class with multi-byte letters
SFX C Y 3
SFX C   a     y      [^čřš]a
SFX C   a     i      [čřš]a
SFX C   0     ch     [aeiouy]

# two-level: "-ův" continues with the adjective endings of Y
SFX P Y 1
SFX P   0     ův/Y   .
SFX Y Y 2
SFX Y   ův    ova    ův
SFX Y   ův    ovo    ův

# continuation with a prefix flag: nej- allowed before -ější whatever the root says
SFX K Y 1
SFX K   ý     ější/E  [nv]ý

# two flags sharing their first UTF-8 byte (0xC3): one class for hunspell
SFX é Y 1
SFX é   y     ého    y
SFX í Y 1
SFX í   0     mu     i
`;

const DIC = `20
pony/B
toy/B
ryba/CN
duša/C
kočka/C
lead/R
play/BR
pila/C
pila/N
ponies/q
Novák/P
nový/K
Kowalski/é
Kowalsky/í
iPod
NATO/C
atd.
pes
kočkách/w
`;

let reader: HunspellReader;
beforeAll(() => {
  reader = createHunspellReader(AFF, DIC);
});

const stems = (word: string) => [...reader.stemSync(word)].sort();

describe('hunspell reader: affixes', () => {
  it('strips suffixes with their strip string and condition', () => {
    expect(stems('ponies')).toEqual(['pony']);
    expect(stems('toys')).toEqual(['toy']);
    // The condition decides: "toy" ends in a vowel + y, "pony" does not.
    expect(reader.spellSync('toies')).toBe(false);
    expect(reader.spellSync('ponys')).toBe(false);
    expect(stems('toies')).toEqual([]);
  });

  it('matches classes of multi-byte letters, negated or not', () => {
    expect(stems('ryby')).toEqual(['ryba']);
    expect(stems('duši')).toEqual(['duša']);
    expect(reader.spellSync('dušy')).toBe(false);
    expect(reader.spellSync('kočky')).toBe(true);
    expect(reader.spellSync('kočki')).toBe(false);
  });

  it('applies prefixes, and prefix + suffix only where both allow the cross product', () => {
    expect(stems('neryba')).toEqual(['ryba']);
    expect(stems('neryby')).toEqual(['ryba']);
    expect(stems('relead')).toEqual(['lead']);
    expect(reader.spellSync('replay')).toBe(true);
    expect(reader.spellSync('plays')).toBe(true);
    // R does not allow the cross product.
    expect(reader.spellSync('replays')).toBe(false);
    expect(reader.spellSync('nekočky')).toBe(false); // kočka lacks N
  });

  it('keeps homonyms apart: each line with its own flags', () => {
    expect(reader.spellSync('pily')).toBe(true); // pila/C
    expect(reader.spellSync('nepila')).toBe(true); // pila/N
    // Neither line has both N and C: the flags of homonyms are not merged.
    expect(reader.spellSync('nepily')).toBe(false);
    expect(stems('pily')).toEqual(['pila']);
  });

  it('rejects forbidden words in spell() but stem() still derives them', () => {
    expect(reader.spellSync('ponies')).toBe(false);
    expect(reader.spellSync('Ponies')).toBe(false);
    expect(stems('ponies')).toEqual(['pony']);
  });

  it('follows continuation classes (two suffixes) and prefix flags in them', () => {
    expect(stems('Novákova')).toEqual(['Novák']);
    expect(stems('Novákův')).toEqual(['Novák']);
    expect(reader.spellSync('Novákovo')).toBe(true);
    expect(reader.spellSync('Novákovy')).toBe(false);
    expect(stems('novější')).toEqual(['nový']);
    expect(stems('nejnovější')).toEqual(['nový']); // nový has no E: -ější/E allows it
    expect(reader.spellSync('nejnový')).toBe(false);
  });

  it('treats flags as bytes, so é and í rules apply to both (as hunspell does)', () => {
    expect(reader.spellSync('Kowalskimu')).toBe(true); // í rule on a word flagged é
    expect(reader.spellSync('Kowalského')).toBe(true); // é rule on a word flagged í
    expect(reader.spellSync('Kowalskiho')).toBe(false);
  });
});

describe('hunspell reader: case, dots, numbers, breaks', () => {
  it('stems lower-case and capitalised forms of a capitalised input', () => {
    expect(stems('Ryby')).toEqual(['ryba']);
    expect(stems('RYBY')).toEqual(['ryba']);
    expect(stems('novákova')).toEqual([]); // names only capitalised
    expect(stems('NOVÁKOVA')).toEqual(['Novák']);
  });

  it('keeps the hidden capitalised form of mixed-case words for all-caps input only', () => {
    expect(reader.spellSync('iPod')).toBe(true);
    expect(reader.spellSync('IPOD')).toBe(true);
    expect(reader.spellSync('Ipod')).toBe(false);
    expect(reader.spellSync('ipod')).toBe(false);
    expect(stems('IPOD')).toEqual(['Ipod']);
    // NATO/C: the hidden "Nato" takes the suffix for all-caps input, not for "Natoch".
    expect(reader.spellSync('Nato')).toBe(false);
    expect(reader.spellSync('NATOCH')).toBe(true);
    expect(reader.spellSync('Natoch')).toBe(false);
  });

  it('handles abbreviations, numbers and hyphens like hunspell', () => {
    expect(reader.spellSync('atd.')).toBe(true);
    expect(reader.spellSync('atd')).toBe(false);
    expect(reader.spellSync('pes.')).toBe(true);
    expect(reader.spellSync('1.5')).toBe(true);
    expect(reader.spellSync('1..5')).toBe(false);
    expect(reader.spellSync('pes-ryba')).toBe(true);
    expect(reader.spellSync('pes-rybx')).toBe(false);
    expect(reader.spellSync('-pes')).toBe(true);
    expect(stems('pes-ryba')).toEqual([]);
    expect(reader.spellSync('')).toBe(true);
    expect(stems('')).toEqual([]);
  });

  it('ignores suggestion-only flags (NOSUGGEST)', () => {
    expect(reader.spellSync('kočkách')).toBe(true);
    expect(stems('kočkách')).toEqual(['kočkách']);
  });
});

describe('affix conditions', () => {
  it('matches the end or start, position by position', () => {
    const condition = parseCondition('[^aeiou]y');
    expect(matchesEnd(condition, 'pony')).toBe(true);
    expect(matchesEnd(condition, 'toy')).toBe(false);
    expect(matchesEnd(condition, 'y')).toBe(false); // shorter than the condition
    expect(matchesStart(parseCondition('[čř].'), 'řeka')).toBe(true);
    expect(matchesStart(parseCondition('[čř].'), 'ř')).toBe(false);
    expect(matchesEnd(parseCondition('.'), '')).toBe(true);
    expect(matchesEnd(parseCondition('[.]'), 'a.')).toBe(true);
    expect(matchesEnd(parseCondition('[.]'), 'ab')).toBe(false);
  });

  it('rejects malformed conditions', () => {
    expect(() => parseCondition('[ab')).toThrow(/missing \]/);
    expect(() => parseCondition('a]')).toThrow(/stray/);
  });
});
