import fs from 'fs';
import os from 'os';
import path from 'path';
import {
  decodeDictdNumber,
  entryTranslations,
  MAX_TRANSLATIONS,
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

describe('dictd format', () => {
  it('decodes base-64 offsets and lengths', () => {
    expect(decodeDictdNumber('A')).toBe(0);
    expect(decodeDictdNumber('U')).toBe(20);
    expect(decodeDictdNumber('BA')).toBe(64);
    expect(decodeDictdNumber('BhWh')).toBe(((1 * 64 + 33) * 64 + 22) * 64 + 33);
    expect(() => decodeDictdNumber('A*')).toThrow(/not a dictd number/);
  });

  it('keeps single-word translations without labels and explanations', () => {
    expect(entryTranslations('ADP <n>\n [chem] adenosindifosfát')).toEqual([
      'adenosindifosfát',
    ]);
    expect(
      entryTranslations('Aesop <n>\n [jmén] Ezop (řecký otrok, autor bajek)'),
    ).toEqual(['ezop']);
    expect(entryTranslations('lock <v>\nzamknout, uzamknout; zamykat')).toEqual(
      ['zamknout', 'uzamknout', 'zamykat'],
    );
    // Phrases are no keys.
    expect(entryTranslations('Adirondacks\nhory ve státu New York')).toEqual(
      [],
    );
  });
});

describe('readBilingualDictionary', () => {
  it('translates both ways by folded lemma, compressed or not', () => {
    for (const compressed of [true, false]) {
      const sub = fs.mkdtempSync(path.join(dir, 'd-'));
      const d = readBilingualDictionary({
        path: writeDictd(sub, ENTRIES, compressed),
        from: 'en',
        to: 'cs-CZ',
      });
      expect(d.languages).toEqual(['en', 'cs']);
      expect(d.translate('en', 'page')).toEqual(['páže', 'stránka']);
      expect(d.translate('cs', 'stranka')).toEqual(['page']);
      expect(d.translate('cs', 'pokladnik')).toEqual(['treasurer']);
      expect(d.translate('cs', 'tabulka')).toEqual(['chart', 'tally']);
      // Not a headword, a phrase, or a word with too many senses: nothing.
      expect(d.translate('en', 'vacuum')).toEqual([]);
      expect(d.translate('en', 'new york')).toEqual([]);
      expect(d.translate('en', 'set')).toEqual([]);
      expect(d.translate('cs', 'slovoa')).toEqual(['set']);
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
    const base = writeDictd(fs.mkdtempSync(path.join(dir, 'e-')), ENTRIES);
    fs.rmSync(`${base}.dict.dz`);
    expect(() =>
      readBilingualDictionary({ path: base, from: 'en', to: 'cs' }),
    ).toThrow(/neither .*\.dict\.dz nor .*\.dict exists/);
    const one = writeDictd(fs.mkdtempSync(path.join(dir, 'f-')), ENTRIES);
    expect(() =>
      readBilingualDictionary({ path: one, from: 'en', to: 'EN' }),
    ).toThrow(/from and to are both 'en'/);
    const empty = writeDictd(fs.mkdtempSync(path.join(dir, 'g-')), []);
    expect(() =>
      readBilingualDictionary({ path: empty, from: 'en', to: 'cs' }),
    ).toThrow(/no entries read/);
  });
});

describe('translationKeys', () => {
  it("gives a word the other language's lemma keys of its translations", async () => {
    const files = {
      path: writeDictd(fs.mkdtempSync(path.join(dir, 'h-')), ENTRIES),
      from: 'en',
      to: 'cs',
    };
    const analyzers = await createLanguageAnalyzers({
      languages: ['en', 'cs'],
      bilingualDictionary: files,
    });
    const keys = (word: string) => {
      const byLang = analyzers.languages.map(lang => ({
        lang,
        lemmas: [...analyzers.get(lang).keysForWord(word).lemmas],
      }));
      return translationKeys(byLang, analyzers);
    };
    // Czech "stránku" (lemma stránka) → page; English "layers" (lemma layer) → vrstva.
    expect(keys('stránku')).toEqual(['page']);
    expect(keys('layers')).toEqual(['vrstva']);
    expect(keys('pages')).toEqual(expect.arrayContaining(['stranka', 'paze']));
    // No translation, too many senses: no keys.
    expect(keys('vacuum')).toEqual([]);
    expect(keys('set')).toEqual([]);
    // Without a dictionary nothing is translated.
    const plain = await createLanguageAnalyzers({ languages: ['en', 'cs'] });
    expect(
      translationKeys([{ lang: 'cs', lemmas: ['stranka'] }], plain),
    ).toEqual([]);
  });

  it('needs both of its languages configured', async () => {
    const files = {
      path: writeDictd(fs.mkdtempSync(path.join(dir, 'i-')), ENTRIES),
      from: 'en',
      to: 'cs',
    };
    await expect(
      createLanguageAnalyzers({
        languages: ['en'],
        bilingualDictionary: files,
      }),
    ).rejects.toThrow(/en and cs must both be configured languages/);
  });
});
