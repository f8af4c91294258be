import {
  ACCENTED_FORMS,
  foldDiacritics,
  hasDiacritics,
  LETTER_FOLDS,
  MAX_TOKEN_LENGTH,
  tokenize,
} from './tokenize';

/** tokenize gives exactly these (space-separated) tokens for each text; a diff names the text. */
function expectTokens(cases: Record<string, string>) {
  for (const [text, tokens] of Object.entries(cases)) {
    expect({ text, tokens: tokenize(text) }).toEqual({
      text,
      tokens: tokens.split(' '),
    });
  }
}

describe('tokenize', () => {
  it('lowercases Unicode words and splits on punctuation, underscores and dots', () => {
    expectTokens({
      'Příliš žluťoučký KŮŇ úpěl ďábelské ódy.':
        'příliš žluťoučký kůň úpěl ďábelské ódy',
      'SET max_connections = 100; see pyladies.cz/info':
        'set max connections 100 see pyladies cz info',
    });
  });

  it('keeps digits inside words and numbers as tokens', () => {
    expectTokens({
      'Press F1 in GIMP 2.10 (since 1998)': 'press f1 in gimp 2 10 since 1998',
    });
  });

  it('splits hyphenated words but joins a single-letter prefix', () => {
    expectTokens({
      'read-only state-of-the-art Je-li': 'read only state of the art je li',
      'e-mailovou schránku, X-ray': 'emailovou schránku xray',
      // Dashes between words and dangling hyphens are separators, not parts of words.
      'GIMP – editor -- a - b x-': 'gimp editor a b x',
    });
  });

  it('drops the possessive and keeps other internal apostrophes', () => {
    expectTokens({
      "the user's table, don’t O'Reilly 'quoted'":
        "the user table don't o'reilly quoted",
    });
  });

  it('treats decomposed and precomposed Czech alike', () => {
    const decomposed = 'z\u0061\u0301loz\u030Cky'; // z + a + acute + lo + z + caron + ky
    expect(decomposed).not.toBe('záložky');
    expect(tokenize(decomposed)).toEqual(['záložky']);
  });

  it('drops runs longer than MAX_TOKEN_LENGTH and yields nothing for empty text', () => {
    const blob = 'a'.repeat(MAX_TOKEN_LENGTH + 1);
    expect(tokenize(`key ${blob} value`)).toEqual(['key', 'value']);
    expect(tokenize(`${'b'.repeat(MAX_TOKEN_LENGTH)}`)).toHaveLength(1);
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' ,.;— ')).toEqual([]);
  });
});

describe('foldDiacritics', () => {
  it('removes Czech diacritics', () => {
    expect(foldDiacritics('záložky')).toBe('zalozky');
    expect(foldDiacritics('příliš žluťoučký kůň úpěl ďábelské ódy')).toBe(
      'prilis zlutoucky kun upel dabelske ody',
    );
  });

  it('folds letters that do not decompose and leaves ASCII alone', () => {
    expect(foldDiacritics('łódź straße')).toBe('lodz strasse');
    expect(foldDiacritics('plain-ascii 123')).toBe('plain-ascii 123');
  });

  it('gives SQL the letter folds foldDiacritics makes, one letter each', () => {
    const { from, to } = LETTER_FOLDS;
    expect(Array.from(from)).toHaveLength(to.length);
    Array.from(from).forEach((letter, i) =>
      expect([letter, foldDiacritics(letter)]).toEqual([letter, to[i]]),
    );
    // Every Czech accented letter; not "ß", which folds to two.
    for (const letter of 'áčďéěíňóřšťúůýž') expect(from).toContain(letter);
    expect(from).not.toContain('ß');
    expect(ACCENTED_FORMS.get('u')).toEqual(expect.arrayContaining(['ú', 'ů']));
    expect(ACCENTED_FORMS.has('q')).toBe(false);
  });

  it('hasDiacritics tells accented words from plain and non-Latin ones', () => {
    expect(hasDiacritics('průměr')).toBe(true);
    expect(hasDiacritics('prumer')).toBe(false);
    expect(hasDiacritics('数据')).toBe(false);
  });
});

describe('invisible characters', () => {
  it('are dropped before composing: c, soft hyphen, combining caron is č', () => {
    expect(tokenize('c\u00ad\u030cas')).toEqual(['čas']);
  });

  it('do not split a word (soft hyphen, zero-width space and joiners, BOM)', () => {
    for (const c of [
      '\u00ad',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
    ])
      expect(tokenize(`Ná${c}vod k instalaci`)).toEqual([
        'návod',
        'k',
        'instalaci',
      ]);
  });
});
