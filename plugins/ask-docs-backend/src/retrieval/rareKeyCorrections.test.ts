import { IndexReader } from '../database/IndexReader';
import { fakeVisibility } from '../testUtils/fakeVisibility';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { retrieve } from './retriever';
import { seedIndex } from './testUtils/seed';

/*
 * A word no dictionary knows that the docs have only through another word's rare key
 * ("sessino": the stem "sess" of one chunk's "sessile") is corrected like a word the docs lack,
 * when the correction is a sure slip to a word at least ten times as frequent.
 */
let db: TestDatabase;
const DOCS = 'component:default/docs';

/** A chunk whose second word has the stem `stem` (its other keys are the words themselves). */
function stemmed(chunkId: string, text: string, stem: string) {
  const words = text.split(' ');
  return {
    chunkId,
    text,
    terms: {
      l: words,
      s: words.map((w, i) => (i === 1 ? stem : w)),
      w: words,
    },
  };
}

beforeAll(async () => {
  db = await startTestDatabase();
  await seedIndex(db.knex, {
    entities: [{ entityRef: DOCS }],
    documents: [
      {
        entityRef: DOCS,
        title: 'Sessions',
        chunks: [
          ...Array.from({ length: 12 }, (_, i) => ({
            chunkId: `s${i}`,
            text: `the session state number ${i}`,
          })),
          // A word the typo would also be one slip from, but only three times as frequent.
          ...Array.from({ length: 3 }, (_, i) => ({
            chunkId: `c${i}`,
            text: `the cluster state ${i}`,
          })),
          stemmed('clusterlike', 'a clustering state', 'clust'),
          // Its word's stem is the typo's stem: keyword search finds the typo here.
          stemmed('rare', 'a sessile organism', 'sess'),
        ],
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await db?.stop();
});

const ask = async (
  token: string,
  dictionaryWord = false,
  more: { stem?: string; capitalised?: boolean; scoped?: boolean } = {},
) =>
  retrieve({
    reader: new IndexReader(db.knex, await fakeVisibility({ chunk: 'ALLOW' })),
    modelId: 'none',
    k: 5,
    thresholds: { minSimilarity: -1, minCoverage: 0 },
    mode: 'keyword',
    ...(more.scoped ? { scope: { entityRefs: [DOCS] } } : {}),
    queryTokens: [
      {
        token,
        lemmas: [token],
        stems: [more.stem ?? 'sess'],
        words: [token],
        dictionaryWord,
        capitalised: more.capitalised,
      },
      { token: 'state', lemmas: ['state'], stems: ['state'] },
    ],
  });

describe('corrections of words found only through a rare key', () => {
  it('corrects a slip that another word’s rare stem matched', async () => {
    const result = await ask('sessino');
    expect(result.corrections).toEqual([{ from: 'sessino', to: 'session' }]);
    expect(result.chunks[0].chunkId).toMatch(/^s\d+$/);
  });

  it('leaves a dictionary word, a word the docs have, and a guess alone', async () => {
    // A dictionary word is no misspelling.
    expect((await ask('sessino', true)).corrections).toEqual([]);
    // The docs' own word.
    expect((await ask('sessile')).corrections).toEqual([]);
    // The first letter missed: an unknown name near a docs word, not a slip.
    expect((await ask('zession')).corrections).toEqual([]);
    // Typed capitalised: a name.
    expect(
      (await ask('sessino', false, { capitalised: true })).corrections,
    ).toEqual([]);
  });

  it('needs a word ten times as frequent, and a question over everything visible', async () => {
    // "clustre" is one slip from "cluster", which is in three chunks only.
    expect(
      (await ask('clustre', false, { stem: 'clust' })).corrections,
    ).toEqual([]);
    // Rareness is read over everything visible: a scoped question is left alone.
    expect((await ask('sessino', false, { scoped: true })).corrections).toEqual(
      [],
    );
  });
});
