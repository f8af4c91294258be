import { promises as fs, readFileSync } from 'fs';
import * as path from 'path';
import { DEFAULT_CZECH_DICTIONARY } from '../czechAnalyzer';
import {
  listFiles,
  unpackCorpus,
} from '../../ingestion/parsing/testUtils/unpackCorpus';
import { createHunspellReader } from '.';

/*
 * Our reader against hunspell itself (nodehun, a devDependency of the test workspace only)
 * on the Debian cs_CZ dictionary: every distinct word of the Czech corpora, in the case it
 * was written and lower-cased, capitalised and upper-cased, plus odd inputs. stem() and
 * spell() must give the same answers. Fails, never skips, when nodehun, the dictionary or
 * the corpora are missing.
 */

jest.setTimeout(600_000);

interface Speller {
  stemSync(word: string): string[];
  spellSync(word: string): boolean;
}

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’\-.][\p{L}\p{M}\p{N}]+)*\.?/gu;

async function corpusWords(): Promise<Set<string>> {
  const words = new Set<string>();
  const sources: Array<[string, (file: string) => boolean]> = [
    ['pyvec-docs-cs', f => f.startsWith('docs/') && f.endsWith('.md')],
    ['gimp-help-cs', f => f.endsWith('.html')],
  ];
  for (const [name, accept] of sources) {
    const root = await unpackCorpus(name);
    const files = await listFiles(root, accept);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const raw = await fs.readFile(path.join(root, file), 'utf8');
      const text = raw
        .replace(/<[^>]*>/g, ' ')
        .replace(/&nbsp;/g, ' ')
        .normalize('NFC');
      for (const match of text.matchAll(WORD)) words.add(match[0]);
    }
  }
  return words;
}

function variants(words: Iterable<string>): string[] {
  const all = new Set<string>();
  for (const word of words) {
    const lower = word.toLowerCase();
    all.add(word);
    all.add(lower);
    all.add(lower.charAt(0).toUpperCase() + lower.slice(1));
    all.add(word.toUpperCase());
  }
  return [...all];
}

// Inputs at the edges of hunspell's input handling.
const ODD_INPUTS = [
  '',
  ' ',
  '   ',
  '.',
  '...',
  '-',
  '--',
  "'",
  '0',
  '123',
  '1.5',
  '1,5',
  '1-2',
  '1..2',
  '-1',
  '12.',
  '3D',
  'x86_64',
  'pes',
  ' pes',
  'pes ',
  'pes.',
  'pes..',
  'PES.',
  'Pes.',
  'pEs',
  'PeS',
  'pES',
  'peS',
  'atd.',
  'Atd.',
  'ATD.',
  'atd',
  'apod.',
  'pes-pes',
  'PES-PES',
  'Pes-pes',
  '-pes',
  'pes-',
  '-pes-',
  'pes--pes',
  'a-b-c-d-e-f-g-h-i-j-k-l',
  'ne-pes',
  'nejnovější',
  'Nejnovější',
  'NEJNOVĚJŠÍ',
  'nejnejnovější',
  'nenový',
  'huleme',
  'Huleme',
  'HULEME',
  'idee',
  'IDEE',
  'Jiříma',
  'JIŘÍMA',
  'jiříma',
  "SANT'ELIA",
  "O'NEIL",
  "d'Artagnan",
  "D'ARTAGNAN",
  'iPhone',
  'Iphone',
  'IPHONE',
  'iphone',
  'IPHONU',
  'Iphonu',
  'dBm',
  'DBM',
  'Dbm',
  'DNA',
  'Dna',
  'dna',
  'DNY',
  'Dny',
  'ČSAD',
  'Čsad',
  'Abramowskimu',
  'Abramowského',
  'Aleca',
  'Alecého',
  'Adrie',
  'Adriího',
  'Straße',
  'STRASSE',
  'İstanbul',
  'ıi',
  'Ελλάδα',
  'ΕΛΛΆΔΑ',
  'москва',
  'МОСКВА',
  'Москва',
  'ǅemal',
  'ǄEMAL',
  'ǆemal',
  'café',
  'naïve',
  'Ångström',
  'ﬁle',
  'psa😀',
  '😀',
  'pes\u0000kočka',
  'pes\ud800',
  '\ud800',
  'e\u0301',
  'c\u030c',
  'x'.repeat(99),
  'x'.repeat(100),
  `${'a'.repeat(99)}.`,
  `${'a'.repeat(100)}.`,
  'ž'.repeat(127),
  'ž'.repeat(128),
  `${'ž'.repeat(99)}😀`,
  `😀${'ž'.repeat(99)}`,
  '<?xml?>',
  'pes/kočka',
  'pes\tkočka',
  'pes\nkočka',
  'PSA',
  'Psa',
  'psa',
  'Pavlovi',
  'pavlovi',
  'PAVLOVI',
  'lišce',
  'LIŠCE',
];

describe('hunspell reader ≡ hunspell (nodehun) on cs_CZ', () => {
  let ours: Speller;
  let theirs: Speller;

  beforeAll(() => {
    const aff = readFileSync(DEFAULT_CZECH_DICTIONARY.affPath);
    const dic = readFileSync(DEFAULT_CZECH_DICTIONARY.dicPath);
    // nodehun hands the buffers' bytes to hunspell as C strings: without a NUL at the end,
    // hunspell reads on into whatever lies after them in memory and takes it for dictionary
    // lines ("Si", "Typed" appeared as words in two gates). Each buffer ends in a NUL here.
    const terminated = (bytes: Buffer) =>
      Buffer.concat([bytes, Buffer.alloc(1)]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Nodehun } = require('nodehun');
    theirs = new Nodehun(terminated(aff), terminated(dic));
    ours = createHunspellReader(aff.toString('utf8'), dic.toString('utf8'));
  });

  it('gives the same stems and spelling verdicts for every corpus word and odd input', async () => {
    const corpus = await corpusWords();
    const words = [...variants(corpus), ...ODD_INPUTS];
    expect(corpus.size).toBeGreaterThan(20_000);

    const mismatches: string[] = [];
    let accepted = 0;
    let stemmed = 0;
    for (const word of words) {
      const stems = ours.stemSync(word);
      const expectedStems = theirs.stemSync(word);
      const spelled = ours.spellSync(word);
      const expectedSpelled = theirs.spellSync(word);
      if (expectedSpelled) accepted++;
      if (expectedStems.length > 0) stemmed++;
      if (!sameSet(stems, expectedStems) || spelled !== expectedSpelled) {
        mismatches.push(
          `${JSON.stringify(word)}: stem ${JSON.stringify(
            stems,
          )} vs ${JSON.stringify(
            expectedStems,
          )}, spell ${spelled} vs ${expectedSpelled}`,
        );
      }
    }
    // eslint-disable-next-line no-console
    console.log(
      `hunspell equivalence: ${words.length} inputs (${corpus.size} distinct corpus words ` +
        `and their case variants, ${ODD_INPUTS.length} odd inputs); hunspell accepts ` +
        `${accepted} and stems ${stemmed}; mismatches: ${mismatches.length}`,
    );
    expect(mismatches.slice(0, 50)).toEqual([]);
    // Both sides really answered: a silent empty reader would not pass.
    expect(accepted).toBeGreaterThan(words.length / 4);
    expect(stemmed).toBeGreaterThan(words.length / 4);
  });
});

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every(x => right.has(x));
}
