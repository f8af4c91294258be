import { czechLightStem, MIN_STEM_LENGTH } from './czechLightStemmer';

const stemsOf = (forms: string[]) => new Set(forms.map(czechLightStem));

describe('czechLightStem', () => {
  it('conflates the case forms of a regular noun', () => {
    const forms = [
      'záložka',
      'záložky',
      'záložce',
      'záložku',
      'záložkou',
      'záložek',
      'záložkám',
      'záložkách',
      'záložkami',
    ];
    expect(stemsOf(forms)).toEqual(new Set(['záložk']));
  });

  it('normalises palatalised endings: lišce and liška share a stem', () => {
    expect(czechLightStem('lišce')).toBe(czechLightStem('liška'));
    expect(czechLightStem('noze')).toBe(czechLightStem('noha'));
  });

  it('handles the mobile e and ů/o alternation', () => {
    expect(stemsOf(['pavel', 'pavla', 'pavlovi', 'pavlem', 'pavlové'])).toEqual(
      new Set(['pavl']),
    );
    expect(czechLightStem('dům')).toBe(czechLightStem('domu'));
  });

  it('keeps adjective endings apart from stems', () => {
    expect(
      stemsOf([
        'průměrný',
        'průměrná',
        'průměrné',
        'průměrnou',
        'průměrných',
        'průměrnému',
      ]),
    ).toEqual(new Set(['průměrn']));
  });

  it('never strips the dog "pes" down to an ambiguous two-letter stem', () => {
    expect(czechLightStem('pes')).toBe('pes');
    for (const word of ['pes', 'den', 'psa', 'oko', 'ucho', 'a', 'je']) {
      expect(czechLightStem(word).length).toBeGreaterThanOrEqual(
        Math.min(MIN_STEM_LENGTH, word.length),
      );
    }
  });

  it('does not conflate unrelated words (negative cases)', () => {
    const pavlac = stemsOf([
      'pavlač',
      'pavlače',
      'pavlači',
      'pavlačí',
      'pavlačemi',
      'pavlačích',
    ]);
    const pavel = stemsOf(['pavel', 'pavla', 'pavlovi', 'pavlem']);
    expect([...pavlac].filter(s => pavel.has(s))).toEqual([]);
    const pesto = stemsOf(['pesto', 'pesta', 'pestem', 'pestu']);
    expect(pesto.has(czechLightStem('pes'))).toBe(false);
    // ASCII words keep endings that only exist with diacritics ("-ám", "-ům").
    expect(czechLightStem('program')).toBe('program');
    expect(czechLightStem('album')).toBe('album');
  });

  it('leaves words with digits and very short words alone', () => {
    expect(czechLightStem('mp3ky')).toBe('mp3ky');
    expect(czechLightStem('ty')).toBe('ty');
  });
});
