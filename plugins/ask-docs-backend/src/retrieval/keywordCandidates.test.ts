/*
 * Keyword scoring reads the visible posting lists of the query's keys (migration 0006) and
 * scores every matching chunk in memory, with statistics from the lists' counts and the
 * per-entity totals (migration 0005).
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import { resolveVisibility, Visibility } from '../permissions';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { idf, keywordSearch, keywordStatistics } from './keywordSearch';
import { fakePermissions, ownerVisibility } from '../testUtils/fakePermissions';
import { queryTokens, seedIndex } from './testUtils/seed';
import { decodePostings, encodePostings } from '../database/postingList';
import {
  ChunkSelection,
  visibleChunks,
  visiblePostings,
} from '../database/visibilityPredicate';
import { IndexReader } from '../database/IndexReader';

const q = queryTokens;

describe('keyword candidates and statistics', () => {
  let db: TestDatabase;
  let ids: Record<string, string[]>;
  let owner: Visibility;

  beforeAll(async () => {
    db = await startTestDatabase();
    const chunks = (n: number, text: (i: number) => string) =>
      Array.from({ length: n }, (_, i) => ({ text: text(i) }));
    ids = await seedIndex(db.knex, {
      entities: [
        { entityRef: 'component:default/pay', owners: ['group:default/pay'] },
        { entityRef: 'component:default/sec', owners: ['group:default/sec'] },
      ],
      documents: [
        {
          documentId: 'common',
          entityRef: 'component:default/pay',
          title: 'Common',
          chunks: chunks(20, i => `release note number n${i} of the train`),
        },
        {
          documentId: 'rare',
          entityRef: 'component:default/pay',
          title: 'Rare',
          chunks: [
            { text: 'rollback the release' },
            { text: 'rollback twice' },
          ],
        },
        {
          documentId: 'hidden',
          entityRef: 'component:default/sec',
          title: 'Hidden',
          chunks: [{ text: 'rollback rollback rollback release secret' }],
        },
      ],
    });
    owner = await ownerVisibility(['group:default/pay']);
  }, 120_000);
  afterAll(async () => {
    await db?.stop();
  });

  const search = (limit = 40, ...words: string[]) =>
    keywordSearch({
      reader: new IndexReader(db.knex, owner),
      queryTokens: q(...(words.length ? words : ['rollback', 'release'])),
      limit,
    });

  it("counts N, length and df over the asker's visible entities only", async () => {
    const stats = await keywordStatistics({
      reader: new IndexReader(db.knex, owner),
      queryTokens: q('rollback', 'release', 'secret'),
    });
    expect(stats.visibleChunks).toBe(22);
    // 20 chunks of 7 words, 3 and 2 words: the hidden chunk's 5 words do not count.
    expect(stats.averageLength).toBeCloseTo((20 * 7 + 3 + 2) / 22, 6);
    expect(stats.tokens.map(t => [t.token, t.match, t.df])).toEqual([
      ['rollback', 'exact', 2],
      ['release', 'exact', 21],
      ['secret', 'none', 0],
    ]);
  });

  it('scores every matching visible chunk with BM25 as computed from the texts', async () => {
    const texts = [
      ...Array.from(
        { length: 20 },
        (_, i) => `release note number n${i} of the train`,
      ),
      'rollback the release',
      'rollback twice',
    ];
    const n = texts.length;
    const avg = texts.reduce((s, t) => s + t.split(' ').length, 0) / n;
    const bm25 = (text: string) =>
      ['rollback', 'release'].reduce((sum, w) => {
        const words = text.split(' ');
        const tf = words.filter(x => x === w).length;
        const df = texts.filter(t => t.split(' ').includes(w)).length;
        if (tf === 0) return sum;
        const norm = 1.2 * (1 - 0.75 + (0.75 * words.length) / avg);
        return sum + (idf(n, df) * tf * 2.2) / (tf + norm);
      }, 0);
    const { hits } = await search();
    const byId = new Map(
      [...ids.common, ...ids.rare].map((id, i) => [id, texts[i]]),
    );
    expect(hits).toHaveLength(22);
    for (const h of hits)
      expect(h.score).toBeCloseTo(bm25(byId.get(h.chunkId)!), 9);
    // The two chunks with the rare word first; then those with the common word alone.
    expect(
      hits
        .slice(0, 2)
        .map(h => h.chunkId)
        .sort(),
    ).toEqual([...ids.rare].sort());
    expect(hits.find(h => h.chunkId === ids.rare[0])?.matchedTokens).toEqual([
      'rollback',
      'release',
    ]);
    expect(hits.map(h => h.rank)).toEqual(hits.map((_, i) => i + 1));
    const scores = hits.map(h => h.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
  });

  it('cuts at the limit after ordering ties by chunk id', async () => {
    const all = (await search(40, 'train')).hits;
    expect(all).toHaveLength(20);
    const ordered = [...all].sort((x, y) => (x.chunkId < y.chunkId ? -1 : 1));
    expect(all.map(h => h.chunkId)).toEqual(ordered.map(h => h.chunkId));
    expect((await search(3, 'train')).hits).toEqual(all.slice(0, 3));
  });

  it('never returns a hidden chunk, not even for words only it contains', async () => {
    for (const words of [['rollback', 'release'], ['secret'], ['rollback']]) {
      const { hits } = await search(40, ...words);
      expect(hits.map(h => h.chunkId)).not.toContain(ids.hidden[0]);
    }
    expect((await search(40, 'secret')).hits).toEqual([]);
    // Control: to its owners the same word finds it, so the empty lists above are the filter's.
    const control = await keywordSearch({
      reader: new IndexReader(
        db.knex,
        await ownerVisibility(['group:default/sec']),
      ),
      queryTokens: q('secret'),
      limit: 40,
    });
    expect(control.hits.map(h => h.chunkId)).toEqual([ids.hidden[0]]);
  });

  it('a hidden chunk number smuggled into a visible list is never returned', async () => {
    // Lists cannot have a foreign key per entry; the chunk lookup applies visibility again.
    const hidden = await db
      .knex('ask_docs_chunks')
      .where('chunk_id', ids.hidden[0])
      .first('chunk_no', 'term_count');
    const list = await db
      .knex('ask_docs_postings as p')
      .join('ask_docs_keys as k', 'k.key_id', 'p.key_id')
      .join('ask_docs_entities as e', 'e.entity_no', 'p.entity_no')
      .where({ 'k.kind': 'l', 'k.term': 'rollback' })
      .where('e.entity_ref', 'component:default/pay')
      .first('p.key_id', 'p.entity_no', 'p.postings');
    const forged = encodePostings([
      ...decodePostings(list.postings),
      { chunkNo: hidden.chunk_no, tf: 9, length: hidden.term_count },
    ]);
    const where = { key_id: list.key_id, entity_no: list.entity_no };
    await db
      .knex('ask_docs_postings')
      .where(where)
      .update({ postings: forged });
    try {
      const { hits } = await search(40, 'rollback');
      expect(hits.map(h => h.chunkId).sort()).toEqual([...ids.rare].sort());
    } finally {
      await db
        .knex('ask_docs_postings')
        .where(where)
        .update({ postings: list.postings });
    }
  });

  it('selects the same rows with either shape of the visibility predicate', async () => {
    const everyone = await resolveVisibility({
      permissions: fakePermissions({}),
      credentials: mockCredentials.user('user:default/someone'),
    });
    const nobody = await resolveVisibility({
      permissions: fakePermissions({ chunk: 'DENY' }),
      credentials: mockCredentials.user('user:default/someone'),
    });
    const rows = async (v: Visibility, fewVisible: boolean) => {
      const s: ChunkSelection = { fewVisible };
      return [
        ...(await visibleChunks(db.knex, v, s)
          .select('c.chunk_id')
          .orderBy('c.chunk_id')),
        ...(await visiblePostings(db.knex, v, s)
          .join('ask_docs_keys as k', 'k.key_id', 'p.key_id')
          .join('ask_docs_entities as e', 'e.entity_no', 'p.entity_no')
          .select('e.entity_ref', 'k.kind', 'k.term', 'p.df')
          .orderBy(['e.entity_ref', 'k.kind', 'k.term'])),
      ].map(r => Object.values(r).join(' '));
    };
    for (const v of [owner, everyone, nobody]) {
      expect(await rows(v, true)).toEqual(await rows(v, false));
    }
    expect((await rows(owner, true)).join('\n')).not.toMatch(
      /secret|component:default\/sec/,
    );
    expect(await rows(nobody, true)).toEqual([]);
    expect((await rows(everyone, true)).join('\n')).toMatch(/secret/);
  });
});
