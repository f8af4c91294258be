import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { czechLanguage } from './czechAnalyzer';
import { DictionaryUnavailableError, loadHunspell } from './hunspell';

/*
 * Loading: a dictionary that is missing, not UTF-8 or uses hunspell features the reader does
 * not implement is refused with DictionaryUnavailableError (which callers turn into the
 * stem-only mode) rather than loaded to give wrong answers.
 */

const AFF = `SET UTF-8
FORBIDDENWORD q
SFX A Y 1
SFX A   a     y      a
`;
const DIC = `2
ryba/A
ryby/q
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'hunspell-load-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function write(aff: string | Buffer, dic: string | Buffer = DIC) {
  fileCount++;
  const affPath = path.join(dir, `t${fileCount}.aff`);
  const dicPath = path.join(dir, `t${fileCount}.dic`);
  writeFileSync(affPath, aff);
  writeFileSync(dicPath, dic);
  return { affPath, dicPath };
}

describe('loadHunspell', () => {
  it('loads a dictionary and fingerprints its content', async () => {
    const first = await loadHunspell(write(AFF));
    expect(first.dictionary.stemSync('ryby')).toEqual(['ryba']);
    expect(first.dictionary.spellSync('ryby')).toBe(false); // forbidden
    expect(first.fingerprint).toMatch(/^[0-9a-f]{12}$/);
    const same = await loadHunspell(write(AFF));
    const other = await loadHunspell(write(AFF, `${DIC}pes\n`));
    expect(same.fingerprint).toBe(first.fingerprint);
    expect(other.fingerprint).not.toBe(first.fingerprint);
  });

  it('throws DictionaryUnavailableError naming the path when a file is missing', async () => {
    const paths = {
      affPath: path.join(dir, 'none.aff'),
      dicPath: path.join(dir, 'none.dic'),
    };
    const loading = loadHunspell(paths);
    await expect(loading).rejects.toBeInstanceOf(DictionaryUnavailableError);
    await expect(loadHunspell(paths)).rejects.toThrow(/none\.aff/);
    const onlyDicMissing = { ...write(AFF), dicPath: paths.dicPath };
    await expect(loadHunspell(onlyDicMissing)).rejects.toBeInstanceOf(
      DictionaryUnavailableError,
    );
  });

  it.each([
    [
      'compounding',
      `${AFF}COMPOUNDFLAG X\n`,
      /COMPOUNDFLAG is not implemented/,
    ],
    ['NEEDAFFIX', `${AFF}NEEDAFFIX X\n`, /NEEDAFFIX is not implemented/],
    ['ONLYINCOMPOUND', `${AFF}ONLYINCOMPOUND X\n`, /ONLYINCOMPOUND/],
    ['IGNORE', `${AFF}IGNORE ́\n`, /IGNORE is not implemented/],
    ['ICONV', `${AFF}ICONV 1\nICONV ' ’\n`, /ICONV is not implemented/],
    ['long flags', `FLAG long\n${AFF}`, /FLAG is not implemented/],
    ['another encoding', AFF.replace('UTF-8', 'ISO8859-2'), /only UTF-8/],
    ['Hungarian rules', `${AFF}LANG hu_HU\n`, /LANG hu_HU/],
    [
      'affix morphology',
      `${AFF}SFX B Y 1\nSFX B 0 s . is:plural\n`,
      /morphological/,
    ],
    ['a short affix class', `${AFF}SFX B Y 2\nSFX B 0 s .\n`, /entry 2 of 2/],
    ['a bad condition', `${AFF}SFX B Y 1\nSFX B 0 s [ab\n`, /missing \]/],
  ])('refuses an affix file with %s', async (_name, aff, message) => {
    const loading = loadHunspell(write(aff));
    await expect(loading).rejects.toBeInstanceOf(DictionaryUnavailableError);
    await expect(loadHunspell(write(aff))).rejects.toThrow(message);
  });

  it.each([
    ['no word count', 'ryba/A\n', /word count/],
    ['morphological fields', '1\nryba/A po:noun\n', /morphological fields/],
    ['tab-separated fields', '1\nryba/A\tpo:noun\n', /morphological fields/],
  ])('refuses a dictionary file with %s', async (_name, dic, message) => {
    await expect(loadHunspell(write(AFF, dic))).rejects.toThrow(message);
  });

  it('refuses files that are not UTF-8', async () => {
    const latin2 = Buffer.from([0x31, 0x0a, 0x72, 0xe8, 0x0a]); // "1\nrč" in ISO 8859-2
    await expect(loadHunspell(write(AFF, latin2))).rejects.toThrow(/not UTF-8/);
  });

  it('lets the Czech analyzer fall back to stem-only on an unusable dictionary', async () => {
    const warn = jest.fn();
    const analyzer = await czechLanguage.createAnalyzer({
      hunspell: write(`${AFF}COMPOUNDFLAG X\n`),
      onMissingDictionary: 'stem-only',
      warn,
      cacheSize: 100,
    });
    expect(analyzer.signature).toMatch(/stem-only/);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/COMPOUNDFLAG/));
    await expect(
      czechLanguage.createAnalyzer({
        hunspell: write(`${AFF}COMPOUNDFLAG X\n`),
        onMissingDictionary: 'error',
        warn,
        cacheSize: 100,
      }),
    ).rejects.toThrow(/COMPOUNDFLAG/);
  });
});
