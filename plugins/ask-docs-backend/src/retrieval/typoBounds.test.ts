import { mockCredentials } from '@backstage/backend-test-utils';
import { resolveVisibility, Visibility } from '../permissions/visibility';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { fakePermissions } from '../testUtils/fakePermissions';
import { queryTokens, seedIndex } from './testUtils/seed';
import { suggestCorrections } from './typo';
import { IndexReader } from '../database/IndexReader';

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
  options: { maxWords?: number; maxWordLength?: number } = {},
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
