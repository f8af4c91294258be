import { mockCredentials } from '@backstage/backend-test-utils';
import { resolveVisibility, Visibility } from '../permissions/visibility';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { fakePermissions } from '../testUtils/fakePermissions';
import { queryTokens, seedIndex } from './testUtils/seed';
import { boundedDamerauLevenshtein, suggestCorrections } from './typo';
import { IndexReader } from '../database/IndexReader';
import { foldDiacritics } from '../language/tokenize';

/** The typo path does bounded work however many misspelled words a question has. */

const WORDS = [
  'ledger',
  'payment',
  'settlement',
  'invoice',
  'refund',
  'acquirer',
  'chargeback',
  'merchant',
  'currency',
  'balance',
  'transfer',
  'account',
];
/** Words around "kolace" (Czech letters too): every one-edit variant and some two and three. */
const BASE = 'kolace';
const ALPHABET = ['a', 'c', 'č', 'e', 'k', 'l', 'o', 'x', 'z'];
const variants = (w: string): string[] => {
  const out: string[] = [];
  for (let i = 0; i <= w.length; i++) {
    for (const a of ALPHABET) out.push(w.slice(0, i) + a + w.slice(i));
    if (i < w.length) {
      out.push(w.slice(0, i) + w.slice(i + 1));
      for (const a of ALPHABET) out.push(w.slice(0, i) + a + w.slice(i + 1));
    }
    if (i + 1 < w.length)
      out.push(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
  }
  return out;
};
const oneEdit = variants(BASE);
const twoEdits = oneEdit.filter((_, i) => i % 7 === 0).flatMap(variants);
const NEAR = Array.from(
  new Set([
    ...oneEdit,
    ...twoEdits,
    ...twoEdits.filter((_, i) => i % 23 === 0).flatMap(variants),
    'kxzxcx', // three letters foreign to the word, its length
    'kolxzx',
  ]),
).filter(w => w !== BASE);
// One substitution in the middle of each word.
const typo = (w: string) => `${w.slice(0, 3)}x${w.slice(4)}`;
const q = queryTokens;

let db: TestDatabase;
let everyone: Visibility;

beforeAll(async () => {
  db = await startTestDatabase();
  await seedIndex(db.knex, {
    entities: [{ entityRef: 'component:default/payments' }],
    documents: [
      {
        entityRef: 'component:default/payments',
        title: 'Payments',
        chunks: [{ text: WORDS.join(' ') }],
      },
      {
        entityRef: 'component:default/payments',
        title: 'Spelling',
        chunks: [{ text: NEAR.join(' ') }],
      },
      {
        entityRef: 'component:default/payments',
        title: 'Neighbours',
        // "ledge" is one slip from "ledgr" too: the only near word no longer.
        chunks: [{ text: 'ledger ledge' }],
      },
      {
        entityRef: 'component:default/payments',
        title: 'Czech',
        // "šablon" typed without its accent in another page: still one word.
        chunks: [{ text: 'vyhlazování sponzorskými šablona šablon poděkovat' }],
      },
      {
        entityRef: 'component:default/payments',
        title: 'Czech typed plain',
        chunks: [{ text: 'sablon podekovat' }, { text: 'podekovat' }],
      },
    ],
  });
  everyone = await resolveVisibility({
    permissions: fakePermissions({ chunk: 'ALLOW' }),
    credentials: mockCredentials.user('user:default/someone'),
  });
});

afterAll(async () => {
  await db?.stop();
});

const suggest = (
  ws: string[],
  options: {
    maxWords?: number;
    maxWordLength?: number;
    maxCandidates?: number;
  } = {},
) =>
  suggestCorrections({
    reader: new IndexReader(db.knex, everyone),
    queryTokens: q(...ws),
    ...options,
  });

describe('suggestCorrections bounds', () => {
  it('tries at most maxWords words (default 8), in question order', async () => {
    const misspelled = WORDS.map(typo);
    const all = await suggest(misspelled, { maxWords: 100 });
    expect(all.map(c => c.to)).toEqual(WORDS); // every word is correctable...

    const byDefault = await suggest(misspelled);
    expect(byDefault.map(c => c.to)).toEqual(WORDS.slice(0, 8)); // ...but only 8 are tried
    expect((await suggest(misspelled, { maxWords: 2 })).map(c => c.to)).toEqual(
      WORDS.slice(0, 2),
    );
  });

  it('does not count known, short or numeric words against the cap', async () => {
    const res = await suggest(
      ['ledger', 'abc', 'v2x1', typo('payment'), typo('invoice')],
      { maxWords: 2 },
    );
    expect(res.map(c => c.to)).toEqual(['payment', 'invoice']);
  });

  it('never tries to correct words longer than maxWordLength', async () => {
    const long = `${typo('settlement')}${'s'.repeat(40)}`;
    expect(await suggest([long, typo('refund')])).toEqual([
      expect.objectContaining({ from: typo('refund'), to: 'refund' }),
    ]);
    expect(await suggest([typo('settlement')], { maxWordLength: 9 })).toEqual(
      [],
    );
  });
});

describe('a letter left out of a six-letter word', () => {
  it('is a sure slip only when no other visible word is one slip away', async () => {
    expect(await suggest(['refnd', 'ledgr'])).toEqual([
      { from: 'refnd', to: 'refund', distance: 1, df: 1, confident: true },
      { from: 'ledgr', to: 'ledger', distance: 1, df: 2, confident: false },
    ]);
    // One word with and without its accents is one neighbour.
    expect(await suggest(['sablo'])).toEqual([
      expect.objectContaining({ distance: 1, confident: true }),
    ]);
    // Past the candidate cap another neighbour may not have been read: a guess.
    expect(await suggest(['refnd'], { maxCandidates: 1 })).toEqual([
      { from: 'refnd', to: 'refund', distance: 1, df: 1, confident: false },
    ]);
  });
});

describe('a word typed without diacritics and with a slip', () => {
  it('is one slip from the docs word, compared without diacritics', async () => {
    expect(await suggest(['vthlazovani', 'sponzorakymi', 'sablna'])).toEqual([
      {
        from: 'vthlazovani',
        to: 'vyhlazování',
        distance: 1,
        df: 1,
        confident: true,
      },
      {
        from: 'sponzorakymi',
        to: 'sponzorskými',
        distance: 1,
        df: 1,
        confident: true,
      },
      // Its first letter is "š" in the docs: the same letter, found by the letter index.
      { from: 'sablna', to: 'šablona', distance: 1, df: 1, confident: true },
    ]);
    // Of one word with and without accents, the form nearer as typed: the accents typed are
    // the docs word's ("podekovat" is the more frequent here).
    expect(await suggest(['podějovat', 'podejovat'])).toEqual([
      expect.objectContaining({ from: 'podějovat', to: 'poděkovat' }),
      expect.objectContaining({ from: 'podejovat', to: 'podekovat' }),
    ]);
    // Unaccented but otherwise as the docs write it, where no key matched it (another
    // language's analysis): the same word.
    expect(await suggest(['vyhlazovani'])).toEqual([
      {
        from: 'vyhlazovani',
        to: 'vyhlazování',
        distance: 0,
        df: 1,
        confident: true,
      },
    ]);
  });
});

describe('spelling candidates', () => {
  it('keeps every visible word within two edits, and reads no word out of reach', async () => {
    const reader = new IndexReader(db.knex, everyone);
    const heads = [BASE[0], BASE[1]];
    const candidates = await reader.spellingCandidates({
      word: BASE,
      maxEdits: 2,
      limit: 100_000,
    });
    // Without diacritics, as words are compared: "č" is "c".
    const distance = (w: string) =>
      boundedDamerauLevenshtein(BASE, foldDiacritics(w), 2);
    const head = (w: string, i: number) => heads.includes(foldDiacritics(w[i]));
    const inReach = NEAR.filter(
      w => distance(w) <= 2 && (head(w, 0) || head(w, 1)),
    );
    expect(inReach.length).toBeGreaterThan(500);
    expect(candidates.filter(w => distance(w) <= 2).sort()).toEqual(
      inReach.sort(),
    );
    // The letter bounds drop words before their lists are probed; the length alone would not.
    const foreign = (a: string, b: string) =>
      Array.from(foldDiacritics(a)).filter(c => !b.includes(c)).length;
    const outOfReach = NEAR.filter(
      w =>
        (head(w, 0) || head(w, 1)) &&
        Math.abs(w.length - BASE.length) <= 2 &&
        Math.max(foreign(w, BASE), foreign(BASE, foldDiacritics(w))) > 2,
    );
    expect(outOfReach).toEqual(expect.arrayContaining(['kxzxcx', 'kolxzx']));
    expect(outOfReach.length).toBeGreaterThan(50);
    expect(candidates.filter(w => outOfReach.includes(w))).toEqual([]);
  });
});
