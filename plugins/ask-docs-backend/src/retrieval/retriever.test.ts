import { indexedChunkKeys } from '../database/keywordIndex';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { Visibility } from '../permissions/visibility';
import { cond, FakeDecision } from '../testUtils/fakePermissions';
import { fakeVisibility } from '../testUtils/fakeVisibility';
import {
  SeedDocument,
  queryTokens,
  randomUnitVector,
  seedIndex,
  seededRandom,
  words,
} from './testUtils/seed';
import {
  correctedStatistics,
  idf,
  keywordSearch,
  keywordStatistics,
  QueryToken,
  SITUATION_WEIGHT,
} from './keywordSearch';
import { suggestCorrections } from './typo';
import { EXACT_SEARCH_UP_TO, vectorSearch } from './vectorSearch';
import { ensureVectorIndex, vectorIndexName } from '../database/vectorIndex';
import {
  CORRECTION_WEIGHT,
  correctedTokens,
  retrieve,
  RetrieveOptions,
} from './retriever';
import { fetchVisibleChunks } from './fetchChunks';
import {
  DEFAULT_RRF_K,
  DEFAULT_SCORE_FUSION_WEIGHTS,
  maxFusedScore,
} from './fusion';
import { visibleChunkDetails } from '../database/visibilityPredicate';
import {
  IndexReader,
  searchSettingsGate,
  vectorQuery,
} from '../database/IndexReader';

const MODEL = 'test-model/v1.0';
const PAY = 'component:default/payments';
const LEDGER = 'component:default/ledger';
const SECRET = 'component:default/secret';
const SECRET_API = 'api:default/secret-api';
const SEARCH = 'component:default/search';

let db: TestDatabase;
let alice: Visibility; // owns payments + ledger
let bob: Visibility; // owns secret + secret-api, sees public docs; the catalog hides APIs from him
let everyone: Visibility;
let nobody: Visibility;
const chunkOf: Record<string, string> = {};

/** Query tokens as the language module would give them for plain English words in these tests. */
const q = queryTokens;

const visibilityFor = (chunk: FakeDecision, catalog?: FakeDecision) =>
  fakeVisibility({ chunk, catalog });

beforeAll(async () => {
  db = await startTestDatabase();
  const v = (...xs: number[]) => ({ [MODEL]: xs });
  const ids = await seedIndex(db.knex, {
    entities: [
      { entityRef: PAY, owners: ['group:default/team-pay'], tags: ['public'] },
      { entityRef: LEDGER, owners: ['group:default/team-pay'] },
      {
        entityRef: SECRET,
        owners: ['group:default/team-sec'],
        tags: ['secret'],
      },
      { entityRef: SECRET_API, owners: ['group:default/team-sec'] },
      { entityRef: SEARCH, owners: ['group:default/team-search'] },
    ],
    documents: [
      {
        entityRef: PAY,
        title: 'Payments',
        url: '/docs/default/component/payments',
        chunks: [
          {
            chunkId: 'p1',
            text: 'refunds are processed by the payments ledger service',
            anchor: 'refunds',
            embeddings: v(1, 0, 0, 0),
          },
          {
            chunkId: 'p2',
            text: 'card authorisation and capture flow',
            embeddings: v(0.9, 0.3, 0, 0),
          },
        ],
      },
      {
        entityRef: LEDGER,
        title: 'Ledger',
        chunks: [
          {
            chunkId: 'l1',
            text: 'the ledger stores double entry bookkeeping records',
            embeddings: v(0.6, 0.8, 0, 0),
          },
        ],
      },
      {
        entityRef: SECRET,
        title: 'Secret runbook',
        chunks: [
          // Nearly the same vector as p1: a leaking kNN would put it first.
          {
            chunkId: 's1',
            text: 'zanzibar quarantine procedure for credentials rotation ledgers',
            embeddings: v(1, 0.01, 0, 0),
          },
          {
            chunkId: 's2',
            text: 'payments fraud escalation to the zanzibar team',
            embeddings: v(0.95, 0, 0.1, 0),
          },
        ],
      },
      {
        entityRef: SECRET_API,
        title: 'Secret API',
        chunks: [
          {
            chunkId: 'a1',
            text: 'zanzibar api payments endpoints',
            embeddings: v(1, 0, 0.05, 0),
          },
        ],
      },
      {
        entityRef: SEARCH,
        title: 'Search',
        chunks: [
          {
            chunkId: 'q1',
            text: 'search ranking uses bm25 and vectors',
            embeddings: v(0, 0, 1, 0),
          },
        ],
      },
    ],
  });
  for (const list of Object.values(ids))
    for (const id of list) chunkOf[id] = id;
  await ensureVectorIndex(db.knex, MODEL, 4);

  alice = await visibilityFor({
    conditions: cond('ask-docs-chunk', 'IS_ENTITY_OWNER', {
      claims: ['group:default/team-pay'],
    }),
  });
  bob = await visibilityFor(
    {
      conditions: {
        anyOf: [
          cond('ask-docs-chunk', 'IS_ENTITY_OWNER', {
            claims: ['group:default/team-sec'],
          }),
          cond('ask-docs-chunk', 'HAS_TAG', { tag: 'public' }),
        ],
      },
    },
    {
      conditions: cond('catalog-entity', 'IS_ENTITY_KIND', {
        kinds: ['component'],
      }),
    },
  );
  everyone = await visibilityFor('ALLOW');
  nobody = await visibilityFor('DENY');
}, 120_000);

afterAll(async () => {
  await db?.stop();
});

type VectorSearchOptions = Parameters<typeof vectorSearch>[0];

/** vectorSearch over the test model's vectors, 10 nearest unless `more` says otherwise. */
const nearest = (
  visibility: Visibility,
  queryVector: number[],
  more: Partial<VectorSearchOptions> = {},
) =>
  vectorSearch({
    reader: new IndexReader(db.knex, visibility),
    modelId: MODEL,
    queryVector,
    k: 10,
    ...more,
  });

/** The plan of a vector query, with sequential scans discouraged so an index would be used. */
async function explainVectorQuery(
  visibility: Visibility,
  options: Parameters<typeof vectorQuery>[2],
): Promise<string> {
  const plan = (await db.knex.transaction(async trx => {
    await trx.raw('SET LOCAL enable_seqscan = off');
    const { sql, bindings } = vectorQuery(trx, visibility, options).toSQL();
    return trx.raw(`EXPLAIN ${sql}`, bindings as any[]);
  })) as { rows: Array<Record<string, string>> };
  return plan.rows.map(r => r['QUERY PLAN']).join('\n');
}

const ALICE_CHUNKS = ['l1', 'p1', 'p2'];
const BOB_CHUNKS = ['p1', 'p2', 's1', 's2']; // a1 is his, but the catalog decision hides APIs

describe('vectorSearch', () => {
  it('returns only visible chunks, nearest first, with raw cosine similarity', async () => {
    const hits = await nearest(alice, [1, 0, 0, 0]);
    expect(hits.map(h => h.chunkId)).toEqual(['p1', 'p2', 'l1']);
    expect(hits[0].similarity).toBeCloseTo(1, 6);
    // Vectors are halfvec (16-bit floats): similarities hold to about three decimals.
    expect(hits[2].similarity).toBeCloseTo(0.6, 3);
    expect(hits.map(h => h.rank)).toEqual([1, 2, 3]);
  });

  it('gives another user their own neighbours, never the catalog-hidden API', async () => {
    const hits = await nearest(bob, [1, 0, 0, 0]);
    expect(hits.map(h => h.chunkId).sort()).toEqual(BOB_CHUNKS);
    expect(hits[0].chunkId).toBe('p1');
    expect(hits[1].chunkId).toBe('s1');
  });

  it('returns nothing under deny, and everything under allow', async () => {
    expect(await nearest(nobody, [1, 0, 0, 0])).toEqual([]);
    expect((await nearest(everyone, [1, 0, 0, 0])).length).toBe(7);
  });

  it('scope narrows but never widens visibility', async () => {
    const scoped = await nearest(alice, [1, 0, 0, 0], {
      selection: { entityRefs: [LEDGER, SECRET] },
    });
    expect(scoped.map(h => h.chunkId)).toEqual(['l1']);
    expect(
      await nearest(alice, [1, 0, 0, 0], {
        selection: { entityRefs: [SECRET] },
      }),
    ).toEqual([]);
  });

  it('only reads vectors of the requested model and dimension', async () => {
    const hits = await nearest(everyone, [1, 0, 0, 0], {
      modelId: 'other-model',
      k: 5,
    });
    expect(hits).toEqual([]);
    const wrongDim = await nearest(everyone, [1, 0, 0], { k: 5 });
    expect(wrongDim).toEqual([]);
  });

  it('rejects vectors that are not finite numbers', async () => {
    await expect(nearest(everyone, [1, NaN, 0, 0], { k: 5 })).rejects.toThrow(
      /finite/,
    );
  });
});

describe('exact vector search at ties', () => {
  const TIE_MODEL = 'tie-model';
  beforeAll(async () => {
    // The same boilerplate in six entities, written last id first.
    const names = ['t6', 't5', 't4', 't3', 't2', 't1'];
    await seedIndex(db.knex, {
      entities: names.map(n => ({
        entityRef: `component:ties/${n}`,
        owners: ['group:ties/all'],
      })),
      documents: names.map(n => ({
        entityRef: `component:ties/${n}`,
        title: 'Contributing',
        chunks: [
          {
            chunkId: `tie-${n}`,
            text: 'x',
            terms: {},
            embeddings: { [TIE_MODEL]: [0.6, 0.8, 0, 0] },
          },
        ],
      })),
    });
  });
  afterAll(async () => {
    await db.knex('ask_docs_entities').where('namespace', 'ties').delete();
  });

  it('cuts equal distances by chunk id: the same set on every search (and on replay)', async () => {
    const reader = new IndexReader(db.knex, await visibilityFor('ALLOW'));
    const ids = async () =>
      (
        await vectorSearch({
          reader,
          modelId: TIE_MODEL,
          queryVector: [1, 0, 0, 0],
          k: 3,
          strategy: 'exact',
        })
      ).map(h => h.chunkId);
    const first = await ids();
    expect(first).toHaveLength(3);
    expect(first).toEqual([...first].sort());
    const all = (
      await db
        .knex('ask_docs_chunks')
        .where('chunk_id', 'like', 'tie-%')
        .pluck('chunk_id')
    ).sort();
    expect(first).toEqual(all.slice(0, 3));
    expect(await ids()).toEqual(first);
  });
});

describe('ensureVectorIndex', () => {
  it('quotes the model id in the partial index predicate, and queries use the index', async () => {
    const odd = "we'ird?model\\v2 -- ); DROP TABLE ask_docs_chunks; --";
    await db.knex('ask_docs_embeddings').insert(
      ['p1', 'l1', 's1'].map(chunkId => ({
        chunk_id: chunkId,
        entity_ref: db
          .knex('ask_docs_chunks')
          .where('chunk_id', chunkId)
          .select('entity_ref'),
        model_id: odd,
        content_hash: 'h',
        dimension: 3,
        embedding: chunkId === 'p1' ? '[1,0,0]' : '[0,1,0]',
      })),
    );
    try {
      const { indexName, created } = await ensureVectorIndex(db.knex, odd, 3);
      expect(created).toBe(true);
      const [index] = await db
        .knex('pg_indexes')
        .where('indexname', indexName)
        .select('indexdef');
      expect(index.indexdef).toContain('hnsw');
      expect(index.indexdef).toContain('halfvec_cosine_ops');
      expect(await db.knex('ask_docs_chunks').count('* as n')).toEqual([
        { n: '7' },
      ]);

      const plan = await explainVectorQuery(alice, {
        modelId: odd,
        queryVector: [1, 0, 0],
        k: 2,
      });
      expect(plan).toContain(indexName);
      const hits = await nearest(alice, [1, 0, 0], { modelId: odd, k: 5 });
      expect(hits.map(h => h.chunkId)).toEqual(['p1', 'l1']);
    } finally {
      await db.knex('ask_docs_embeddings').where('model_id', odd).delete();
    }
  });

  it(`rejects model ids with control characters and skips dimensions HNSW cannot \
index`, async () => {
    await expect(ensureVectorIndex(db.knex, 'bad\u0000id', 4)).rejects.toThrow(
      /control/,
    );
    // halfvec HNSW indexes up to 4,000 dimensions (a 3,072-dimension model is indexed).
    expect(await ensureVectorIndex(db.knex, MODEL, 4096)).toMatchObject({
      created: false,
    });
    await expect(ensureVectorIndex(db.knex, MODEL, 0)).rejects.toThrow(
      /dimension/,
    );
  });

  it(`builds with its own maintenance_work_mem for that transaction only, and rejects odd \
values`, async () => {
    for (const bad of ['lots', "512MB'; DROP TABLE x; --", '0MB', '512 MB']) {
      await expect(
        ensureVectorIndex(db.knex, 'memory-model', 4, { buildMemory: bad }),
      ).rejects.toThrow(/build memory/);
    }
    const before = (await db.knex.raw('SHOW maintenance_work_mem')).rows[0]
      .maintenance_work_mem;
    expect(
      await ensureVectorIndex(db.knex, 'memory-model', 4, {
        buildMemory: '96MB',
      }),
    ).toMatchObject({ created: true });
    // SET LOCAL ended with the build's transaction: the session setting is untouched.
    expect(
      (await db.knex.raw('SHOW maintenance_work_mem')).rows[0]
        .maintenance_work_mem,
    ).toBe(before);
    expect(before).not.toBe('96MB');
  });
});

describe("keyword statistics are the asker's own", () => {
  it('counts N over visible chunks only', async () => {
    const stats = async (visibility: Visibility) =>
      (
        await keywordStatistics({
          reader: new IndexReader(db.knex, visibility),
          queryTokens: q('payments'),
        })
      ).visibleChunks;
    expect(await stats(alice)).toBe(3);
    expect(await stats(bob)).toBe(4);
    expect(await stats(everyone)).toBe(7);
    expect(await stats(nobody)).toBe(0);
  });

  it('a term that only exists in hidden documents has df 0', async () => {
    const a = await keywordStatistics({
      reader: new IndexReader(db.knex, alice),
      queryTokens: q('zanzibar', 'quarantine'),
    });
    expect(a.tokens).toEqual([
      expect.objectContaining({ token: 'zanzibar', df: 0, match: 'none' }),
      expect.objectContaining({ token: 'quarantine', df: 0, match: 'none' }),
    ]);
    const b = await keywordStatistics({
      reader: new IndexReader(db.knex, bob),
      queryTokens: q('zanzibar'),
    });
    // s1 and s2; a1 also has it but is hidden from bob by the catalog decision.
    expect(b.tokens[0]).toMatchObject({ df: 2, match: 'exact' });
  });

  it('idf differs between users because df and N differ', async () => {
    const a = await keywordStatistics({
      reader: new IndexReader(db.knex, alice),
      queryTokens: q('payments'),
    });
    const b = await keywordStatistics({
      reader: new IndexReader(db.knex, bob),
      queryTokens: q('payments'),
    });
    expect(a.tokens[0]).toMatchObject({ df: 1, idf: idf(3, 1) });
    expect(b.tokens[0]).toMatchObject({ df: 2, idf: idf(4, 2) });
    expect(a.tokens[0].idf).not.toBeCloseTo(b.tokens[0].idf, 3);
  });

  it('prefix document frequencies are visible-only too', async () => {
    const a = await keywordStatistics({
      reader: new IndexReader(db.knex, alice),
      queryTokens: q('quaran', 'bookkeep'),
    });
    expect(a.tokens.map(t => [t.token, t.match, t.df])).toEqual([
      ['quaran', 'none', 0],
      ['bookkeep', 'prefix', 1],
    ]);
    const b = await keywordStatistics({
      reader: new IndexReader(db.knex, bob),
      queryTokens: q('quaran'),
    });
    expect(b.tokens[0]).toMatchObject({ match: 'prefix', df: 1 });
  });
});

describe('keywordSearch', () => {
  const search = (
    visibility: Visibility,
    tokens: QueryToken[],
    extra: object = {},
  ) =>
    keywordSearch({
      reader: new IndexReader(db.knex, visibility),
      queryTokens: tokens,
      limit: 10,
      ...extra,
    });

  it('scores visible chunks by matched tokens and reports coverage', async () => {
    const { hits } = await search(alice, q('ledger', 'refunds'));
    expect(hits.map(h => h.chunkId)).toEqual(['p1', 'l1']);
    expect(hits[0].coverage).toBeCloseTo(1, 6);
    expect(hits[0].matchedTokens.sort()).toEqual(['ledger', 'refunds']);
    // l1 matches only "ledger", the more common of the two words for alice.
    expect(hits[1].coverage).toBeGreaterThan(0);
    expect(hits[1].coverage).toBeLessThan(0.5);
  });

  it('never returns hidden chunks, even for words that only they contain', async () => {
    expect((await search(alice, q('zanzibar'))).hits).toEqual([]);
    expect(
      (await search(alice, q('zanzibar', 'payments'))).hits.map(h => h.chunkId),
    ).toEqual(['p1']);
    const bobHits = (await search(bob, q('zanzibar'))).hits
      .map(h => h.chunkId)
      .sort();
    expect(bobHits).toEqual(['s1', 's2']);
    expect((await search(nobody, q('payments'))).hits).toEqual([]);
  });

  it('an unmatched word still counts against coverage', async () => {
    const { hits } = await search(alice, q('payments', 'zanzibar'));
    expect(hits[0].chunkId).toBe('p1');
    expect(hits[0].coverage).toBeLessThan(0.5);
  });

  it(`ranks by a word of the asker's situation at a lower weight, and never counts it in \
coverage`, async () => {
    const situation = (t: QueryToken): QueryToken => ({
      ...t,
      situation: true,
    });
    const [payments, ledger, zanzibar] = q('payments', 'ledger', 'zanzibar');
    const asked = await search(alice, [payments]);
    // Missing from every visible chunk: no loss of coverage.
    const missing = await search(alice, [payments, situation(zanzibar)]);
    expect(missing.hits[0].chunkId).toBe('p1');
    expect(missing.hits[0].coverage).toBeCloseTo(asked.hits[0].coverage, 6);
    // Matched: it ranks, at SITUATION_WEIGHT, and adds no coverage either.
    const matched = await search(alice, [payments, situation(ledger)]);
    const full = await search(alice, [payments, ledger]);
    const p1 = (r: typeof full) => r.hits.find(h => h.chunkId === 'p1')!;
    expect(p1(matched).coverage).toBeCloseTo(p1(asked).coverage, 6);
    expect(p1(matched).score).toBeGreaterThan(p1(asked).score);
    expect(p1(matched).score).toBeLessThan(p1(full).score);
    expect(matched.statistics.tokens[1].weight).toBe(SITUATION_WEIGHT);
    // Merged with the same word asked, it is asked.
    const both = await search(alice, [payments, situation(ledger), ledger]);
    expect(p1(both).score).toBeCloseTo(p1(full).score, 6);
  });

  it(`falls back to prefix matches at half weight only for tokens without an exact \
match`, async () => {
    const prefix = await search(alice, q('bookkeep'));
    expect(prefix.hits.map(h => h.chunkId)).toEqual(['l1']);
    expect(prefix.statistics.tokens[0]).toMatchObject({
      match: 'prefix',
      weight: 0.5,
    });
    expect(prefix.hits[0].coverage).toBeCloseTo(0.5, 6);
    const exact = await search(alice, q('bookkeeping'));
    expect(exact.hits[0].score).toBeGreaterThan(prefix.hits[0].score);
    // "ledger" has exact matches, so "ledger%" is not expanded.
    expect(
      await search(alice, q('ledger')).then(r => r.statistics.tokens[0].match),
    ).toBe('exact');
    // Hidden words are not reachable by prefix either.
    expect((await search(alice, q('quaran'))).hits).toEqual([]);
    expect((await search(bob, q('quaran'))).hits.map(h => h.chunkId)).toEqual([
      's1',
    ]);
  });

  it('escapes LIKE metacharacters in prefix keys', async () => {
    for (const token of ['%ed', 'l_dger', '__dger', 'led%']) {
      const r = await search(everyone, q(token));
      expect({ token, hits: r.hits }).toEqual({ token, hits: [] });
    }
  });

  it('does not expand short prefixes', async () => {
    expect((await search(everyone, q('re'))).hits).toEqual([]);
  });

  it("respects scope and chunk restrictions without changing the asker's statistics", async () => {
    const all = await search(alice, q('ledger'));
    const scoped = await search(alice, q('ledger'), {
      selection: { entityRefs: [LEDGER] },
    });
    expect(scoped.hits.map(h => h.chunkId)).toEqual(['l1']);
    expect(scoped.statistics).toEqual(all.statistics);
    expect(
      (
        await search(alice, q('zanzibar'), {
          selection: { chunkIds: ['s1', 's2'] },
        })
      ).hits,
    ).toEqual([]);
  });
});

describe('suggestCorrections', () => {
  const suggest = (visibility: Visibility, ...ws: string[]) =>
    suggestCorrections({
      reader: new IndexReader(db.knex, visibility),
      queryTokens: q(...ws),
    });

  it("corrects from the asker's visible vocabulary", async () => {
    expect(await suggest(alice, 'kedger', 'bookeeping')).toEqual([
      { from: 'kedger', to: 'ledger', distance: 1, df: 2, confident: false },
      {
        from: 'bookeeping',
        to: 'bookkeeping',
        distance: 1,
        df: 1,
        confident: true,
      },
    ]);
  });

  it('never suggests a word that exists only in hidden documents', async () => {
    expect(await suggest(alice, 'zanzibr', 'quarantime')).toEqual([]);
    expect(await suggest(bob, 'zanzibr', 'quarantime')).toEqual([
      { from: 'zanzibr', to: 'zanzibar', distance: 1, df: 2, confident: true },
      {
        from: 'quarantime',
        to: 'quarantine',
        distance: 1,
        df: 1,
        confident: true,
      },
    ]);
    expect(await suggest(nobody, 'ledgr')).toEqual([]);
  });

  it('leaves words alone that the asker can find, and short words and numbers', async () => {
    expect(await suggest(alice, 'ledger', 'card')).toEqual([]);
    expect(await suggest(everyone, 'crd', 'bm26')).toEqual([]);
  });

  it('prefers a farther visible word over a closer hidden one', async () => {
    // "ledgers" (1 edit away) is only in a hidden runbook; "ledger" (2 edits) is alice's.
    expect(await suggest(alice, 'ledgerss')).toEqual([
      { from: 'ledgerss', to: 'ledger', distance: 2, df: 2, confident: false },
    ]);
    expect(await suggest(bob, 'ledgerss')).toEqual([
      { from: 'ledgerss', to: 'ledgers', distance: 1, df: 1, confident: true },
    ]);
    // A word visible to nobody but hidden docs is simply unknown: "zanzibar" has no visible
    // neighbour.
    expect(await suggest(alice, 'zanzibar')).toEqual([]);
  });

  it('leaves a dictionary word alone, but not its other spelling or a misspelling', async () => {
    const reader = new IndexReader(db.knex, alice);
    const asWords = (...ws: string[]) =>
      suggestCorrections({
        reader,
        queryTokens: q(...ws).map(t => ({ ...t, dictionaryWord: true })),
      });
    // "hard" and "cart" are words absent from the docs, not a misspelt "card".
    expect(await suggest(alice, 'hard', 'cart')).toEqual([
      { from: 'hard', to: 'card', distance: 1, df: 1, confident: false },
      { from: 'cart', to: 'card', distance: 1, df: 1, confident: false },
    ]);
    expect(await asWords('hard', 'cart')).toEqual([]);
    // The docs write "authorisation": an American asker's word is the same word.
    expect(await asWords('authorization')).toEqual([
      {
        from: 'authorization',
        to: 'authorisation',
        distance: 1,
        df: 1,
        confident: true,
      },
    ]);
  });

  it('allows one edit for short words and two for long ones, preferring fewer edits', async () => {
    expect(await suggest(alice, 'lidgr')).toEqual([]); // 2 edits on a 5-letter word
    expect(await suggest(alice, 'bookeepng')).toEqual([
      {
        from: 'bookeepng',
        to: 'bookkeeping',
        distance: 2,
        df: 1,
        confident: false,
      },
    ]);
    expect(await suggest(alice, 'bokeepng')).toEqual([]); // 3 edits
  });
});

describe('the spelling path reads nothing twice', () => {
  // Tokens as the analyser makes them: the surface form is one of the token's words.
  const typed = (...ws: string[]) =>
    q(...ws).map(t => ({ ...t, words: [t.token] }));

  it('skips the visible-key check for tokens the statistics found unmatched', async () => {
    const reader = new IndexReader(db.knex, alice);
    const check = jest.spyOn(reader, 'tokensWithVisibleKeys');
    const tokens = typed('ledgr', 'bookeeping');
    const read = await suggestCorrections({ reader, queryTokens: tokens });
    expect(check).toHaveBeenCalledTimes(1);
    expect(
      await suggestCorrections({
        reader,
        queryTokens: tokens,
        unmatched: true,
      }),
    ).toEqual(read);
    expect(check).toHaveBeenCalledTimes(1);
    // Without its surface form among its words a token has other keys here: checked again.
    await suggestCorrections({
      reader,
      queryTokens: q('ledgr'),
      unmatched: true,
    });
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('derives the corrected statistics exactly as a second read gives them', async () => {
    let corrected = 0;
    for (const visibility of [alice, bob, everyone, nobody]) {
      const reader = new IndexReader(db.knex, visibility);
      const question = typed(
        'ledgr',
        'payments',
        'bookkeep',
        'quaran',
        'zanzibr',
      );
      const asTyped = await keywordStatistics({
        reader,
        queryTokens: question,
      });
      const corrections = await suggestCorrections({
        reader,
        queryTokens: question.filter(
          (_, i) => asTyped.tokens[i].match === 'none',
        ),
        unmatched: true,
      });
      corrected += corrections.length;
      const tokens = correctedTokens(question, corrections);
      expect(correctedStatistics(asTyped, tokens, corrections)).toEqual(
        await keywordStatistics({ reader, queryTokens: tokens }),
      );
    }
    expect(corrected).toBeGreaterThanOrEqual(4);
  });

  it('gives way to a second read when a correction merges with another token', async () => {
    const reader = new IndexReader(db.knex, alice);
    const question = typed('ledgr', 'ledger');
    const asTyped = await keywordStatistics({ reader, queryTokens: question });
    const corrections = await suggestCorrections({
      reader,
      queryTokens: [question[0]],
      unmatched: true,
    });
    expect(corrections.map(c => c.to)).toEqual(['ledger']);
    const tokens = correctedTokens(question, corrections);
    expect(tokens).toHaveLength(1);
    expect(correctedStatistics(asTyped, tokens, corrections)).toBeUndefined();
  });
});

describe('retrieve', () => {
  const base = {
    modelId: MODEL,
    k: 5,
    thresholds: { minSimilarity: 0.8, minCoverage: 0.5 },
  };
  /** No evidence bar and room for every chunk: for what comes back at all. */
  const unfiltered = {
    k: 10,
    thresholds: { minSimilarity: -1, minCoverage: 0 },
  };
  /** retrieve() for `visibility` with the `base` settings unless `options` override them. */
  const retrieveAs = (
    visibility: Visibility,
    options: Pick<RetrieveOptions, 'queryTokens' | 'mode'> &
      Partial<RetrieveOptions>,
  ) =>
    retrieve({
      ...base,
      reader: new IndexReader(db.knex, visibility),
      ...options,
    });

  it('hybrid: fuses both lists and returns visible chunks with identity and scores', async () => {
    const result = await retrieveAs(alice, {
      queryVector: [1, 0, 0, 0],
      queryTokens: q('refunds', 'ledger'),
      mode: 'hybrid',
    });
    // RRF order is p1, l1, p2; l1 (similarity 0.6, coverage 0.32) fails the evidence filter.
    expect(result.chunks.map(c => c.chunkId)).toEqual(['p1', 'p2']);
    expect(result.chunks[0]).toMatchObject({
      chunkId: 'p1',
      entityRef: PAY,
      title: 'Payments',
      anchor: 'refunds',
      url: '/docs/default/component/payments#refunds',
      text: 'refunds are processed by the payments ledger service',
      revision: 'rev-1',
      rank: 1,
    });
    expect(result.chunks[0].similarity).toBeCloseTo(1, 6);
    expect(result.chunks[0].coverage).toBeCloseTo(1, 6);
    // p2 came from the vector list only; its (zero) coverage was filled in.
    expect(result.chunks[1]).toMatchObject({
      chunkId: 'p2',
      coverage: 0,
      keywordScore: 0,
    });
    expect(result.chunks[1].rank).toBe(2);
    expect(result.candidatesConsidered).toBe(3);
    expect(result.filteredOut).toBe(1);
  });

  it('passes chunks by coverage share only when a question word is covered', async () => {
    // A model that always answers, and thresholds no chunk meets: coverage alone decides.
    const alwaysAnswers = {
      features: ['coverageMax'] as const,
      mean: [0],
      scale: [1],
      weights: [0],
      bias: 10,
      cutoff: 0.5,
      fittedOn: 'unit test',
    };
    const retrieveWith = (...tokens: string[]) =>
      retrieveAs(alice, {
        k: 10,
        thresholds: { minSimilarity: 2, minCoverage: 2 },
        evidenceModel: alwaysAnswers,
        queryVector: [1, 0, 0, 0],
        queryTokens: q(...tokens),
        mode: 'hybrid',
      });
    // No word of the question is in any chunk: half of no coverage lets nothing in.
    expect((await retrieveWith('zanzibar')).chunks).toEqual([]);
    // A covered word: the chunks covering at least half as much as the best one.
    const covered = (await retrieveWith('refunds')).chunks;
    expect(covered.map(c => c.chunkId)).toEqual(['p1']);
  });

  it('never returns a hidden chunk in any mode', async () => {
    for (const mode of ['hybrid', 'vector', 'keyword'] as const) {
      const result = await retrieveAs(alice, {
        ...unfiltered,
        queryVector: [1, 0.01, 0, 0],
        queryTokens: q('zanzibar', 'quarantine', 'payments', 'ledger'),
        mode,
      });
      const ids = result.chunks.map(c => c.chunkId);
      expect({
        mode,
        leaked: ids.filter(id => !ALICE_CHUNKS.includes(id)),
      }).toEqual({ mode, leaked: [] });
      expect(ids.length).toBeGreaterThan(0);
    }
  });

  it('applies corrections from the visible vocabulary and reports them', async () => {
    const result = await retrieveAs(alice, {
      queryTokens: q('kedger'),
      mode: 'keyword',
    });
    expect(result.corrections).toEqual([{ from: 'kedger', to: 'ledger' }]);
    expect(result.chunks.map(c => c.chunkId).sort()).toEqual(['l1', 'p1']);
    // A corrected word counts half (CORRECTION_WEIGHT) in score and coverage.
    const typed = await retrieveAs(alice, {
      queryTokens: q('ledger'),
      mode: 'keyword',
    });
    for (const c of result.chunks) {
      const same = typed.chunks.find(t => t.chunkId === c.chunkId)!;
      expect(c.coverage).toBeCloseTo(CORRECTION_WEIGHT * same.coverage!, 9);
      expect(c.keywordScore).toBeCloseTo(
        CORRECTION_WEIGHT * same.keywordScore!,
        9,
      );
    }
    // So a question resting on a correction alone falls below a stricter coverage bar.
    const strict = await retrieveAs(alice, {
      thresholds: { minSimilarity: 0.8, minCoverage: 0.6 },
      queryTokens: q('kedger'),
      mode: 'keyword',
    });
    expect(strict.chunks).toEqual([]);
    const bobs = await retrieveAs(alice, {
      queryTokens: q('zanzibr'),
      mode: 'keyword',
    });
    expect(bobs).toMatchObject({ chunks: [], corrections: [] });
  });

  it('counts a confident correction (one slip, first letter kept) as the word itself', async () => {
    const typed = await retrieveAs(alice, {
      queryTokens: q('ledger', 'payments'),
      mode: 'keyword',
    });
    const slipped = await retrieveAs(alice, {
      queryTokens: q('ledger', 'paymenst'),
      mode: 'keyword',
    });
    expect(slipped.corrections).toEqual([{ from: 'paymenst', to: 'payments' }]);
    expect(slipped.chunks.length).toBeGreaterThan(0);
    for (const c of slipped.chunks) {
      const same = typed.chunks.find(t => t.chunkId === c.chunkId)!;
      expect(c.coverage).toBeCloseTo(same.coverage!, 9);
    }
    // Nor is the typed word missing from the docs as far as the evidence goes, nor is the
    // question one that needed a guess: its features are the typed question's.
    expect(slipped.evidence?.features.missingShare).toBeCloseTo(
      typed.evidence!.features.missingShare,
      9,
    );
    expect(slipped.evidence!.features.corrected).toBe(0);
    // Two slips in a long word are still a guess: half weight.
    const guessed = await retrieveAs(alice, {
      queryTokens: q('ledger', 'paymnest'),
      mode: 'keyword',
    });
    expect(guessed.corrections).toEqual([{ from: 'paymnest', to: 'payments' }]);
    expect(guessed.evidence!.features.missingShare).toBeGreaterThan(
      typed.evidence!.features.missingShare,
    );
    expect(guessed.evidence!.features.corrected).toBe(1);
    // A capitalised word is a name: its correction stays a guess.
    const named = await retrieveAs(alice, {
      queryTokens: [...q('ledger'), { ...q('paymenst')[0], capitalised: true }],
      mode: 'keyword',
    });
    expect(named.corrections).toEqual([{ from: 'paymenst', to: 'payments' }]);
    expect(named.evidence!.features.missingShare).toBeGreaterThan(
      typed.evidence!.features.missingShare,
    );
  });

  it(`corrects no word only of the asker's situation, and reads an asked correction that \
merges with one as asked`, async () => {
    const situation = (...ws: string[]) =>
      q(...ws).map(t => ({ ...t, situation: true }));
    const typed = await retrieveAs(alice, {
      queryTokens: q('ledger', 'payments'),
      mode: 'keyword',
    });
    // The slip in the situation stays as typed: no correction, nothing counted as corrected.
    const inSituation = await retrieveAs(alice, {
      queryTokens: [...situation('paymenst'), ...q('ledger', 'refunds')],
      mode: 'keyword',
    });
    expect(inSituation.corrections).toEqual([]);
    expect(inSituation.evidence!.features.corrected).toBe(0);
    // The asked slip is corrected to the situation's word: the merged word is asked, and its
    // evidence is the typed question's.
    const merged = await retrieveAs(alice, {
      queryTokens: [...situation('payments'), ...q('ledger', 'paymenst')],
      mode: 'keyword',
    });
    expect(merged.corrections).toEqual([{ from: 'paymenst', to: 'payments' }]);
    const { missingShare, uncoveredShare, coverageMax } =
      typed.evidence!.features;
    expect(merged.evidence!.features).toMatchObject({
      missingShare,
      uncoveredShare,
      coverageMax,
    });
  });

  it('searches a confident correction with the corrected word’s dictionary keys', async () => {
    // Keys of "payments" as an analyzer would give them; here they also name "bookkeeping".
    const correctedWordKeys = jest.fn((word: string) => ({
      lemmas: [word, 'bookkeeping'],
      stems: [],
    }));
    const withKeys = await retrieveAs(alice, {
      ...unfiltered,
      queryTokens: q('paymenst'),
      mode: 'keyword',
      correctedWordKeys,
    });
    expect(correctedWordKeys).toHaveBeenCalledWith('payments');
    const without = await retrieveAs(alice, {
      ...unfiltered,
      queryTokens: q('paymenst'),
      mode: 'keyword',
    });
    // The keys reach chunks the word alone does not (their statistics read again).
    expect(withKeys.chunks.length).toBeGreaterThan(without.chunks.length);
    // A guess gets no keys.
    correctedWordKeys.mockClear();
    await retrieveAs(alice, {
      queryTokens: q('paymnest'),
      mode: 'keyword',
      correctedWordKeys,
    });
    expect(correctedWordKeys).not.toHaveBeenCalled();
  });

  it(`re-embeds the corrected question for the vector side, and only when something was \
corrected`, async () => {
    const reembed = jest.fn(async () => [1, 0, 0, 0]);
    // Vector [0, 0, 0, 1] matches nothing well; the re-embedded one is p1's direction.
    const corrected = await retrieveAs(alice, {
      thresholds: { minSimilarity: 0.99, minCoverage: 1.1 },
      queryVector: [0, 0, 0, 1],
      reembed,
      queryTokens: q('ledgr'),
      mode: 'hybrid',
    });
    expect(reembed).toHaveBeenCalledWith([{ from: 'ledgr', to: 'ledger' }]);
    expect(corrected.chunks[0]).toMatchObject({ chunkId: 'p1' });
    expect(corrected.chunks[0].similarity).toBeCloseTo(1, 6);

    reembed.mockClear();
    await retrieveAs(alice, {
      queryVector: [0, 0, 0, 1],
      reembed,
      queryTokens: q('ledger'),
      mode: 'hybrid',
    });
    await retrieveAs(alice, {
      queryVector: [0, 0, 0, 1],
      reembed,
      queryTokens: q('ledgr'),
      mode: 'keyword',
    });
    expect(reembed).not.toHaveBeenCalled();
  });

  it('weights the lists as told: a zero vector weight leaves the keyword order', async () => {
    const run = (weights: { vector: number; keyword: number }) =>
      retrieveAs(alice, {
        ...unfiltered,
        queryVector: [0, 1, 0, 0],
        queryTokens: q('refunds', 'ledger'),
        mode: 'hybrid',
        weights,
      });
    const keywordOnly = await retrieveAs(alice, {
      ...unfiltered,
      queryTokens: q('refunds', 'ledger'),
      mode: 'keyword',
    });
    const zero = await run({ vector: 0, keyword: 1 });
    const kw = keywordOnly.chunks.map(c => c.chunkId);
    expect(zero.chunks.map(c => c.chunkId).slice(0, kw.length)).toEqual(kw);
    const vectorHeavy = await run({ vector: 1, keyword: 0 });
    expect(vectorHeavy.chunks[0].similarity).toBeGreaterThanOrEqual(
      Math.max(...vectorHeavy.chunks.map(c => c.similarity ?? -1)),
    );
  });

  it('lifts a chunk whose section title names the question, by the title weight', async () => {
    const run = (titleWeight: number) =>
      retrieveAs(alice, {
        ...unfiltered,
        queryTokens: q('ledger', 'refunds'),
        mode: 'keyword',
        titleWeight,
      });
    // p1 ("Payments") has both words in its text; l1 has one, and its section is "Ledger".
    const plain = await run(0);
    expect(plain.chunks.map(c => c.chunkId)).toEqual(['p1', 'l1']);
    const titled = await run(1);
    expect(titled.chunks.map(c => c.chunkId)).toEqual(['l1', 'p1']);
    expect(titled.chunks[0].rrf).toBeGreaterThan(plain.chunks[1].rrf);
    // The title evidence is a feature of the evidence decision either way.
    expect(plain.evidence!.features).toMatchObject({ titleTop: 0 });
    expect(plain.evidence!.features.titleMax5).toBeGreaterThan(0.2);
    expect(titled.evidence!.features.titleTop).toBe(
      plain.evidence!.features.titleMax5,
    );
  });

  it(`judges the evidence by what is asked: words only of the asker's situation, missing or \
not, change none of it`, async () => {
    const run = (queryTokens: QueryToken[]) =>
      retrieveAs(alice, {
        ...unfiltered,
        queryTokens,
        mode: 'keyword',
        titleWeight: 1,
      });
    const situation = (...ws: string[]) =>
      q(...ws).map(t => ({ ...t, situation: true }));
    const asked = await run(q('ledger', 'refunds'));
    // First, so that any evidence read by token position would read the wrong words; one
    // word the docs lack, one they have.
    const framed = await run([
      ...situation('migrating', 'payments'),
      ...q('ledger', 'refunds'),
    ]);
    const keywordEvidence = (r: typeof asked) => {
      const {
        similarityTop,
        similarityMax,
        keywordTopInVector,
        overlap10,
        ...f
      } = r.evidence!.features;
      // The ranking may move (a situation word still ranks); what is judged must not.
      const { keywordMargin, fusedTop, fusedMargin, ...judged } = f;
      return judged;
    };
    expect(asked.evidence!.features.titleMax5).toBeGreaterThan(0);
    expect(asked.evidence!.features.sentenceMax5).toBeGreaterThan(0);
    expect(keywordEvidence(framed)).toEqual(keywordEvidence(asked));
    // Read as asked, the same words are missing and dilute it.
    const plain = await run(q('migrating', 'payments', 'ledger', 'refunds'));
    expect(plain.evidence!.features.missingShare).toBeGreaterThan(0);
    expect(plain.evidence!.features.coverageMax).toBeLessThan(
      asked.evidence!.features.coverageMax,
    );
  });

  it(`lifts a chunk with the question as a phrase by the phrase weight, in order \
only`, async () => {
    const run = (words: string[], phraseWeight: number) =>
      retrieveAs(everyone, {
        ...unfiltered,
        queryTokens: q(...words),
        mode: 'keyword',
        titleWeight: 0,
        phraseWeight,
      });
    const scores = async (words: string[], phraseWeight: number) =>
      new Map(
        (await run(words, phraseWeight)).chunks.map(c => [c.chunkId, c.rrf]),
      );
    // a1 "zanzibar api payments endpoints" has the phrase; s2 "payments fraud escalation to
    // the zanzibar team" has both words, too far apart and in the other order.
    const plain = await scores(['zanzibar', 'payments'], 0);
    const lifted = await scores(['zanzibar', 'payments'], 1);
    const maxFused = 1 / (DEFAULT_RRF_K + 1); // keyword list only, weight 1
    expect(lifted.get('a1')! - plain.get('a1')!).toBeCloseTo(maxFused, 10);
    expect(lifted.get('s2')).toBe(plain.get('s2'));
    // Asked the other way round, a1 has the words reversed and s2 too far apart: no phrase.
    expect(await scores(['payments', 'zanzibar'], 1)).toEqual(
      await scores(['payments', 'zanzibar'], 0),
    );
  });

  it(`fuses by scores when told: the same candidates, ordered by relative retriever scores \
plus coverage, phrase and title evidence`, async () => {
    const run = (visibility: Visibility, fusion: 'rrf' | 'scores') =>
      retrieveAs(visibility, {
        ...unfiltered,
        queryVector: [1, 0, 0, 0],
        queryTokens: q('zanzibar', 'payments'),
        mode: 'hybrid',
        weights: { vector: 0.1, keyword: 1 },
        fusion,
      });
    const byScores = await run(everyone, 'scores');
    const byRanks = await run(everyone, 'rrf');
    const ids = (r: typeof byScores) => r.chunks.map(c => c.chunkId).sort();
    expect(ids(byScores)).toEqual(ids(byRanks));
    const w = DEFAULT_SCORE_FUSION_WEIGHTS;
    const maxKeyword = Math.max(...byScores.chunks.map(c => c.keywordScore!));
    const maxSimilarity = Math.max(...byScores.chunks.map(c => c.similarity!));
    for (const c of byScores.chunks) {
      // Retriever scores and coverage; phrase and title add at most their weights.
      const scores =
        (w.keyword * c.keywordScore!) / maxKeyword +
        (w.vector * Math.max(0, c.similarity!)) / maxSimilarity +
        w.coverage * c.coverage!;
      expect(c.rrf).toBeGreaterThanOrEqual(scores - 1e-9);
      expect(c.rrf).toBeLessThanOrEqual(scores + w.phrase + w.title + 1e-9);
    }
    const fused = byScores.chunks.map(c => c.rrf);
    expect(fused).toEqual([...fused].sort((a, b) => b - a));
    // a1 has both words as a phrase ("zanzibar api payments"): first.
    expect(byScores.chunks[0].chunkId).toBe('a1');
    expect(byScores.evidence!.features.fusedTop).toBeCloseTo(
      fused[0] / maxFusedScore(w),
      10,
    );
    // Visibility holds: Bob gets only his chunks, and the best of them sets his scale.
    const bobs = await run(bob, 'scores');
    expect(bobs.chunks.length).toBeGreaterThan(0);
    expect(bobs.chunks.every(c => BOB_CHUNKS.includes(c.chunkId))).toBe(true);
    expect(bobs.chunks.map(c => c.chunkId)).not.toContain('a1');
  });

  it('reads titles only of visible candidates: a hidden titled chunk changes nothing', async () => {
    // Bob cannot see "Ledger"; a boost for its title must not bring it (or its score) back.
    const result = await retrieveAs(bob, {
      ...unfiltered,
      queryTokens: q('ledger', 'refunds'),
      mode: 'keyword',
      titleWeight: 1,
    });
    expect(result.chunks.map(c => c.chunkId)).not.toContain('l1');
    expect(result.chunks.every(c => BOB_CHUNKS.includes(c.chunkId))).toBe(true);
    expect(result.evidence!.features.titleMax5).toBe(0);
    // Bob's list is the one he gets without the boost: the hidden title moved nothing.
    const unboosted = await retrieveAs(bob, {
      ...unfiltered,
      queryTokens: q('ledger', 'refunds'),
      mode: 'keyword',
      titleWeight: 0,
    });
    expect(result.chunks.map(c => [c.chunkId, c.rrf])).toEqual(
      unboosted.chunks.map(c => [c.chunkId, c.rrf]),
    );
    expect(result.chunks.length).toBeGreaterThan(0);
    // Control: to everyone the titled chunk is there, and its title counts.
    const all = await retrieveAs(everyone, {
      ...unfiltered,
      queryTokens: q('ledger', 'refunds'),
      mode: 'keyword',
      titleWeight: 1,
    });
    expect(all.chunks.map(c => c.chunkId)).toContain('l1');
    expect(all.evidence!.features.titleMax5).toBeGreaterThan(0);
  });

  it('the relevance filter returns nothing for an unrelated question', async () => {
    const result = await retrieveAs(everyone, {
      queryVector: [0, 0, 0, 1],
      queryTokens: q('weather', 'forecast', 'tomorrow'),
      mode: 'hybrid',
    });
    expect(result.chunks).toEqual([]);
    expect(result.candidatesConsidered).toBeGreaterThan(0);
    expect(result.filteredOut).toBe(result.candidatesConsidered);
  });

  it('the relevance filter drops weak candidates but keeps evidence of either kind', async () => {
    const result = await retrieveAs(alice, {
      queryVector: [0.5, 1, 0, 0], // close to l1 only
      queryTokens: q('refunds'), // in p1 only
      mode: 'hybrid',
    });
    expect(result.chunks.map(c => c.chunkId).sort()).toEqual(['l1', 'p1']);
    expect(result.filteredOut).toBe(1); // p2: similarity 0.71, no keyword evidence
  });

  it('keyword mode works without a query vector, vector mode without tokens', async () => {
    const kw = await retrieveAs(bob, {
      queryTokens: q('zanzibar'),
      mode: 'keyword',
    });
    expect(kw.chunks.map(c => c.chunkId).sort()).toEqual(['s1', 's2']);
    expect(kw.chunks[0].similarity).toBeNull();
    const vec = await retrieveAs(bob, {
      queryVector: [0, 0, 1, 0],
      queryTokens: [],
      mode: 'vector',
    });
    expect(vec.chunks.map(c => c.chunkId)).toEqual([]); // q1 is not bob's; s2 is at 0.1
    const vec2 = await retrieveAs(everyone, {
      queryVector: [0, 0, 1, 0],
      queryTokens: [],
      mode: 'vector',
    });
    expect(vec2.chunks.map(c => c.chunkId)).toEqual(['q1']);
    expect(vec2.chunks[0].coverage).toBeNull();
  });

  it('returns nothing under deny or outside scope', async () => {
    const args = {
      queryVector: [1, 0, 0, 0],
      queryTokens: q('payments'),
      mode: 'hybrid' as const,
    };
    expect((await retrieveAs(nobody, args)).chunks).toEqual([]);
    const scope = { entityRefs: [SECRET] };
    expect((await retrieveAs(alice, { ...args, scope })).chunks).toEqual([]);
  });

  it('the chunk fetch applies visibility on its own and keeps the requested order', async () => {
    const rows = await visibleChunkDetails(db.knex, alice, {
      chunkIds: ['s1', 'p1', 'a1'],
    }).select('c.chunk_id');
    expect(rows.map((r: { chunk_id: string }) => r.chunk_id)).toEqual(['p1']);
    const fetched = await fetchVisibleChunks(new IndexReader(db.knex, alice), [
      'p2',
      's1',
      'a1',
      'p1',
      'nope',
    ]);
    expect(fetched.map(c => c.chunkId)).toEqual(['p2', 'p1']);
    expect(
      await fetchVisibleChunks(new IndexReader(db.knex, nobody), ['p1']),
    ).toEqual([]);
    expect(
      await fetchVisibleChunks(new IndexReader(db.knex, bob), ['s1', 'a1']),
    ).toMatchObject([
      { chunkId: 's1', entityRef: SECRET, title: 'Secret runbook' },
    ]);
  });
});

describe('seed fixture', () => {
  it('derives postings from the chunk text', async () => {
    const keys = await indexedChunkKeys(db.knex, 'q1');
    expect(keys.every(k => k.tf > 0)).toBe(true);
    const terms = keys.filter(k => k.kind === 'w').map(k => k.term);
    expect(terms.sort()).toEqual(
      words('search ranking uses bm25 and vectors').sort(),
    );
    expect(Object.keys(chunkOf).length).toBe(7);
  });
});

describe('iterative HNSW scans under a 1%-selective filter', () => {
  const RECALL_MODEL = 'recall-model';
  const DIM = 16;
  const ENTITIES = 100;
  const PER_ENTITY = 20;
  let visible: Visibility;

  beforeAll(async () => {
    const random = seededRandom(42);
    const documents: SeedDocument[] = [];
    for (let e = 0; e < ENTITIES; e++) {
      documents.push({
        entityRef: `component:recall/e${e}`,
        title: `Recall ${e}`,
        chunks: Array.from({ length: PER_ENTITY }, (_, i) => ({
          chunkId: `r${e}-${i}`,
          text: 'x',
          terms: {},
          embeddings: { [RECALL_MODEL]: randomUnitVector(random, DIM) },
        })),
      });
    }
    await seedIndex(db.knex, {
      entities: Array.from({ length: ENTITIES }, (_, e) => ({
        entityRef: `component:recall/e${e}`,
        owners: [`group:recall/o${e}`],
      })),
      documents,
    });
    expect(await ensureVectorIndex(db.knex, RECALL_MODEL, DIM)).toEqual({
      indexName: vectorIndexName(RECALL_MODEL, DIM),
      created: true,
    });
    // Idempotent.
    expect((await ensureVectorIndex(db.knex, RECALL_MODEL, DIM)).created).toBe(
      false,
    );
    visible = await visibilityFor({
      conditions: cond('ask-docs-chunk', 'IS_ENTITY_OWNER', {
        claims: ['group:recall/o7'],
      }),
    });
  }, 120_000);

  afterAll(async () => {
    await db.knex('ask_docs_entities').where('namespace', 'recall').delete();
  });

  it('uses the partial HNSW index for the query expression', async () => {
    const plan = await explainVectorQuery(visible, {
      modelId: RECALL_MODEL,
      queryVector: randomUnitVector(seededRandom(1), DIM),
      k: 10,
    });
    expect(plan).toContain(vectorIndexName(RECALL_MODEL, DIM));
  });

  it(`plans exact search without the HNSW index, even where index scans are \
preferred`, async () => {
    const plan = await explainVectorQuery(visible, {
      modelId: RECALL_MODEL,
      queryVector: randomUnitVector(seededRandom(1), DIM),
      k: 10,
      exact: true,
    });
    expect(plan).not.toContain(vectorIndexName(RECALL_MODEL, DIM));
  });

  /** A search of the recall model's vectors with a fixed query vector. */
  const searchArgs = (k: number) => ({
    reader: new IndexReader(db.knex, visible),
    modelId: RECALL_MODEL,
    queryVector: randomUnitVector(seededRandom(3), DIM),
    k,
  });

  /** The SQL statements `run` sends, and its result. */
  const statementsOf = async <T>(run: () => Promise<T>) => {
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => statements.push(q.sql);
    db.knex.on('query', onQuery);
    try {
      return { result: await run(), statements };
    } finally {
      db.knex.removeListener('query', onQuery);
    }
  };

  it("'auto' searches exactly when few chunks are visible, with the index otherwise", async () => {
    const args = searchArgs(10);
    const few = await statementsOf(() =>
      vectorSearch({ ...args, visibleChunks: PER_ENTITY }),
    );
    const kNN = few.statements.filter(s => s.includes('<=>'));
    expect(kNN).toHaveLength(1);
    expect(kNN[0]).toContain(') + 0');
    expect(few.result.map(h => h.chunkId)).toEqual(
      (await vectorSearch({ ...args, strategy: 'exact' })).map(h => h.chunkId),
    );

    const many = await statementsOf(async () => {
      await vectorSearch({ ...args, visibleChunks: EXACT_SEARCH_UP_TO + 1 });
      await vectorSearch(args); // count unknown: the planner decides
    });
    const indexed = many.statements.filter(s => s.includes('<=>'));
    expect(indexed).toHaveLength(2);
    for (const sql of indexed) expect(sql).not.toContain(') + 0');
  });

  it(`probes for iterative scans once, then searches in one statement with its \
settings`, async () => {
    const args = searchArgs(5);
    await vectorSearch(args);
    const { result, statements } = await statementsOf(() => vectorSearch(args));
    expect(result).toHaveLength(5);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('<=>');
    expect(statements[0]).toContain('set_config');
    expect(statements[0]).not.toMatch(/savepoint|begin/i);
  });

  it('the settings made in the search statement reach the scan, and end with it', async () => {
    const connection = await db.knex.client.acquireConnection();
    try {
      // Session settings under which a plain graph walk starves at ~1% visible.
      await connection.query('SET hnsw.iterative_scan = off');
      await connection.query('SET hnsw.ef_search = 40');
      await connection.query('SET enable_seqscan = off');
      const gate = searchSettingsGate([
        ['hnsw.ef_search', '40'],
        ['hnsw.iterative_scan', 'relaxed_order'],
      ]);
      const random = seededRandom(11);
      let plainRows = 0;
      let gatedRows = 0;
      for (let i = 0; i < 3; i++) {
        const query = vectorQuery(db.knex, visible, {
          modelId: RECALL_MODEL,
          queryVector: randomUnitVector(random, DIM),
          k: 10,
        });
        const plain = query.clone().toSQL().toNative();
        const gated = query
          .clone()
          .whereRaw(gate.sql, gate.bindings)
          .toSQL()
          .toNative();
        plainRows += (await connection.query(plain.sql, plain.bindings)).rows
          .length;
        gatedRows += (await connection.query(gated.sql, gated.bindings)).rows
          .length;
      }
      expect(plainRows).toBeLessThan(25);
      expect(gatedRows).toBe(30);
      // Local to the statement's own transaction: the session's setting is back.
      const after = await connection.query(
        "SELECT current_setting('hnsw.iterative_scan') AS value",
      );
      expect(after.rows[0].value).toBe('off');
    } finally {
      await connection.query('RESET ALL');
      await db.knex.client.releaseConnection(connection);
    }
  });

  it('searches exactly in one statement, without a transaction or HNSW settings', async () => {
    const { result, statements } = await statementsOf(() =>
      vectorSearch({ ...searchArgs(5), strategy: 'exact' }),
    );
    expect(result).toHaveLength(5);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('<=>');
    expect(statements[0]).not.toMatch(/set_config|begin/i);
  });

  it('keeps recall close to exact search, where a plain index scan would starve', async () => {
    const random = seededRandom(7);
    let found = 0;
    let expected = 0;
    let plainScanRows = 0;
    for (let i = 0; i < 5; i++) {
      const queryVector = randomUnitVector(random, DIM);
      const args = {
        reader: new IndexReader(db.knex, visible),
        modelId: RECALL_MODEL,
        queryVector,
        k: 10,
        efSearch: 40,
      };
      const exact = await vectorSearch({ ...args, strategy: 'exact' });
      const approx = await vectorSearch({ ...args, strategy: 'index' });
      expect(exact.map(h => h.chunkId).every(id => id.startsWith('r7-'))).toBe(
        true,
      );
      expect(approx.map(h => h.chunkId).every(id => id.startsWith('r7-'))).toBe(
        true,
      );
      const truth = new Set(exact.map(h => h.chunkId));
      expected += truth.size;
      found += approx.filter(h => truth.has(h.chunkId)).length;

      // The same query without iterative scanning: the graph walk stops after ef_search
      // candidates, of which only ~1% are visible.
      plainScanRows += (
        await db.knex.transaction(async trx => {
          await trx.raw('SET LOCAL hnsw.iterative_scan = off');
          await trx.raw('SET LOCAL hnsw.ef_search = 40');
          await trx.raw('SET LOCAL enable_seqscan = off');
          return vectorQuery(trx, visible, {
            modelId: RECALL_MODEL,
            queryVector,
            k: 10,
          });
        })
      ).length;
    }
    expect(expected).toBe(50);
    expect(found / expected).toBeGreaterThanOrEqual(0.9);
    expect(plainScanRows).toBeLessThan(25);
  });
});
