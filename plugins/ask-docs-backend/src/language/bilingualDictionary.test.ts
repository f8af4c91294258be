import fs from 'fs';
import os from 'os';
import path from 'path';
import {
  decodeDictdNumber,
  MAX_TRANSLATIONS,
  parseEntry,
  readBilingualDictionary,
  translationKeys,
} from './bilingualDictionary';
import { createLanguageAnalyzers } from './createLanguageAnalyzers';
import { writeDictd } from '../testUtils/dictd';

const ENTRIES = [
  'page <n>\nstránka',
  'page <n>\n [hist] páže (mladý šlechtic)',
  'layer <n>\nvrstva',
  'lock <v>\nzamknout, uzamknout',
  'treasurer <n>\npokladník',
  'New York\nhory ve státu New York',
  'tally <n>\ntabulka',
  'chart <n>\ntabulka; graf',
  // Filed under "well" in the index: a contraction is no headword.
  "we'll <v>\nbudeme",
  'braid <n>\ncop',
  'male <n>\nsamec',
  'own <adj>\nvlastní',
  'proprietary <adj>\nvlastní',
  'bytes <n>\nbyt',
  // A word with more translations than the limit is left untranslated.
  ...Array.from(
    { length: MAX_TRANSLATIONS + 1 },
    (_, i) => `set <n>\nslovo${'abcdefghijklmnopqrstuvwxyz'[i]}`,
  ),
];

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bilingual-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const dictionaryFiles = (entries = ENTRIES, compressed = true) => ({
  path: writeDictd(fs.mkdtempSync(path.join(dir, 'd-')), entries, compressed),
  from: 'en',
  to: 'cs',
});

describe('dictd format', () => {
  it('decodes base-64 offsets and lengths', () => {
    expect(decodeDictdNumber('A')).toBe(0);
    expect(decodeDictdNumber('U')).toBe(20);
    expect(decodeDictdNumber('BA')).toBe(64);
    expect(decodeDictdNumber('BhWh')).toBe(((1 * 64 + 33) * 64 + 22) * 64 + 33);
    expect(() => decodeDictdNumber('A*')).toThrow(/not a dictd number/);
  });

  it('reads the headword from the entry and keeps single-word translations', () => {
    expect(parseEntry('ADP <n>\n [chem] adenosindifosfát')).toEqual({
      headword: 'adp',
      translations: ['adenosindifosfát'],
    });
    expect(
      parseEntry('Aesop <n>\n [jmén] Ezop (řecký otrok, autor bajek)'),
    ).toMatchObject({ headword: 'aesop', translations: ['ezop'] });
    expect(
      parseEntry('lock <v>\nzamknout, uzamknout; zamykat').translations,
    ).toEqual(['zamknout', 'uzamknout', 'zamykat']);
    // Nested and unclosed explanations go; "Note:" lines quote inflected forms.
    expect(
      parseEntry('air conditioning <n>\nklimatizace ((air conditioning))')
        .translations,
    ).toEqual(['klimatizace']);
    expect(parseEntry('handful <n>\nhrst (něčeho').translations).toEqual([
      'hrst',
    ]);
    expect(parseEntry('lip <n>\nret\nNote: úst, rtu').translations).toEqual([
      'ret',
    ]);
    // Phrases are no keys.
    expect(
      parseEntry('Adirondacks\nhory ve státu New York').translations,
    ).toEqual([]);
  });
});

describe('readBilingualDictionary', () => {
  it('translates both ways by folded lemma, compressed or not', () => {
    for (const compressed of [true, false]) {
      const d = readBilingualDictionary({
        ...dictionaryFiles(ENTRIES, compressed),
        to: 'cs-CZ',
      });
      expect(d.languages).toEqual(['en', 'cs']);
      expect(d.translate('en', 'page')).toEqual(['páže', 'stránka']);
      expect(d.translate('cs', 'stranka')).toEqual(['page']);
      expect(d.translate('cs', 'pokladnik')).toEqual(['treasurer']);
      expect(d.translate('cs', 'tabulka')).toEqual(['chart', 'tally']);
      // Not a headword, a phrase, or a contraction filed under another word: nothing.
      expect(d.translate('en', 'vacuum')).toEqual([]);
      expect(d.translate('en', 'new york')).toEqual([]);
      expect(d.translate('en', 'well')).toEqual([]);
      expect(d.translate('cs', 'budeme')).toEqual([]);
      // Unfolded keys are not keys, and a third language has no translations.
      expect(d.translate('cs', 'stránka')).toEqual([]);
      expect(d.translate('de', 'page')).toEqual([]);
    }
  });

  it('fails with a clear error on missing files, one language, or no entries', () => {
    expect(() =>
      readBilingualDictionary({
        path: path.join(dir, 'absent'),
        from: 'en',
        to: 'cs',
      }),
    ).toThrow(/absent\.index does not exist .*dict-freedict-eng-ces/);
    const files = dictionaryFiles();
    fs.rmSync(`${files.path}.dict.dz`);
    expect(() => readBilingualDictionary(files)).toThrow(
      /neither .*\.dict\.dz nor .*\.dict exists/,
    );
    expect(() =>
      readBilingualDictionary({ ...dictionaryFiles(), to: 'EN' }),
    ).toThrow(/from and to are both 'en'/);
    expect(() => readBilingualDictionary(dictionaryFiles([]))).toThrow(
      /no entries read/,
    );
  });
});

describe('translationKeys', () => {
  let analyzers: Awaited<ReturnType<typeof createLanguageAnalyzers>>;
  beforeAll(async () => {
    analyzers = await createLanguageAnalyzers({
      languages: ['en', 'cs'],
      bilingualDictionary: dictionaryFiles(),
    });
  });
  /** The translation keys of a word as analyzeQuery reads it (in both languages). */
  const keys = (token: string, questionLang?: string) => {
    const byLang = analyzers.languages.map(lang => ({
      lang,
      lemmas: [...analyzers.get(lang).keysForWord(token).lemmas],
    }));
    return translationKeys({ token, byLang }, analyzers, questionLang);
  };

  it("gives a word the other language's lemma keys of its translations", () => {
    // Czech "stránku" (lemma stránka) → page; English "layers" (lemma layer) → vrstva.
    expect(keys('stránku')).toEqual(['page']);
    expect(keys('layers')).toEqual(['vrstva']);
    expect(keys('pages')).toEqual(expect.arrayContaining(['stranka', 'paze']));
    // No translation, too many senses: no keys.
    expect(keys('vacuum')).toEqual([]);
    expect(keys('set')).toEqual([]);
  });

  it('translates only the reading in the language the question is in', () => {
    // "copy" read as Czech is a form of "cop" (braid): not in an English question.
    expect(keys('copy')).toContain('braid');
    expect(keys('copy', 'en')).toEqual([]);
    expect(keys('stránku', 'cs')).toEqual(['page']);
    expect(keys('stránku', 'en')).toEqual([]);
  });

  it('never reads a word with diacritics as English', () => {
    expect(keys('malé')).not.toContain('samec');
    expect(keys('male', 'en')).toContain('samec');
  });

  it('drops translations that are function words or share their keys', () => {
    // "own" is an English stopword; "byt" (flat) folds to the key of "být", to be.
    expect(keys('vlastní')).toEqual(['proprietary']);
    expect(keys('bytes', 'en')).toEqual([]);
  });

  it('is empty without a dictionary, and needs both of its languages configured', async () => {
    const plain = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
    expect(
      translationKeys(
        { token: 'stranka', byLang: [{ lang: 'cs', lemmas: ['stranka'] }] },
        plain,
      ),
    ).toEqual([]);
    await expect(
      createLanguageAnalyzers({
        languages: ['en'],
        bilingualDictionary: dictionaryFiles(),
      }),
    ).rejects.toThrow(/en and cs must both be configured languages/);
  });
});
