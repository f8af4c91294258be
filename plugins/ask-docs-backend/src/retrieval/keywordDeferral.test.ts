/*
 * Frequent tokens' lists are read late (keywordSearch.ts, MaxScore): ranking must stay exactly
 * the BM25 of every token over the visible texts, while those lists are read only for the
 * entities of chunks that can still rank.
 */
import { Visibility } from '../permissions';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { ownerVisibility } from '../testUtils/fakePermissions';
import {
  deferredTiers,
  idf,
  keywordLists,
  keywordSearch,
} from './keywordSearch';
import { queryTokens, seedIndex, words } from './testUtils/seed';
import { IndexReader } from '../database/IndexReader';

const q = queryTokens;

/** Deterministic texts: "alpha" everywhere, "beta" in about half, "gamma" in a few. */
function corpus(n: number, seed: number): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: n }, () => {
    const out = Array.from({ length: 1 + (next() % 3) }, () => 'alpha');
    if (next() % 100 < 45)
      out.push(...(next() % 3 === 0 ? ['beta', 'beta'] : ['beta']));
    if (next() % 100 < 8) out.push('gamma');
    const filler = 3 + (next() % 12);
    for (let i = 0; i < filler; i++) out.push(`w${next() % 40}`);
    return out.join(' ');
  });
}

describe('deferred reading of frequent tokens', () => {
  let db: TestDatabase;
  let owner: Visibility;
  const texts = new Map<string, string>();
  const sizes = [180, 110, 30];

  beforeAll(async () => {
    db = await startTestDatabase();
    const visible = sizes.map((n, e) => corpus(n, e + 1));
    const ids = await seedIndex(db.knex, {
      entities: [
        ...sizes.map((_, e) => ({
          entityRef: `component:default/e${e}`,
          owners: ['group:default/a'],
        })),
        { entityRef: 'component:default/hidden', owners: ['group:default/b'] },
      ],
      documents: [
        ...visible.map((chunks, e) => ({
          documentId: `d${e}`,
          entityRef: `component:default/e${e}`,
          title: `Doc ${e}`,
          chunks: chunks.map(text => ({ text })),
        })),
        {
          documentId: 'hidden',
          entityRef: 'component:default/hidden',
          title: 'Hidden',
          chunks: Array.from({ length: 40 }, () => ({
            text: 'gamma gamma beta beta alpha',
          })),
        },
      ],
    });
    visible.forEach((chunks, e) =>
      chunks.forEach((text, i) => texts.set(ids[`d${e}`][i], text)),
    );
    owner = await ownerVisibility(['group:default/a']);
  }, 120_000);
  afterAll(async () => {
    await db?.stop();
  });

  /** BM25 (k1 1.2, b 0.75) of every visible chunk from its text, best first. */
  const reference = (query: string[]) => {
    const all = [...texts.entries()].map(
      ([id, t]) => [id, words(t) as string[]] as const,
    );
    const avg = all.reduce((s, [, w]) => s + w.length, 0) / all.length;
    const scored = all.map(([id, ws]) => {
      const score = query.reduce((sum, term) => {
        const tf = ws.filter(x => x === term).length;
        if (tf === 0) return sum;
        const df = all.filter(([, w]) => w.includes(term)).length;
        const norm = 1.2 * (1 - 0.75 + (0.75 * ws.length) / avg);
        return sum + (idf(all.length, df) * tf * 2.2) / (tf + norm);
      }, 0);
      return { id, score };
    });
    return new Map(
      scored.filter(s => s.score > 0).map(s => [s.id, s.score] as const),
    );
  };

  /** Runs `fn` and counts its posting list reads, by whether they named entities. */
  const listReads = async (fn: () => Promise<unknown>) => {
    const reads: string[] = [];
    const record = (query: { sql: string }) => {
      if (query.sql.includes("'base64') AS postings")) reads.push(query.sql);
    };
    db.knex.on('query', record);
    try {
      await fn();
    } finally {
      db.knex.removeListener('query', record);
    }
    return {
      all: reads.filter(sql => !sql.includes('vp.entity_no = ANY')).length,
      some: reads.filter(sql => sql.includes('vp.entity_no = ANY')).length,
    };
  };

  it.each([
    [['beta', 'alpha'], 40],
    [['beta', 'alpha'], 90],
    [['gamma', 'beta', 'alpha'], 8],
    [['gamma', 'alpha'], 40],
  ])(
    'ranks %j (limit %i) exactly as BM25 over every token',
    async (query, limit) => {
      const expected = reference(query);
      let hits: Awaited<ReturnType<typeof keywordSearch>>['hits'] = [];
      await listReads(async () => {
        ({ hits } = await keywordSearch({
          reader: new IndexReader(db.knex, owner),
          queryTokens: q(...query),
          limit,
        }));
      });
      const best = [...expected.values()].sort((x, y) => y - x).slice(0, limit);
      expect(hits).toHaveLength(best.length);
      hits.forEach((h, i) => {
        expect(h.score).toBeCloseTo(expected.get(h.chunkId)!, 9);
        expect(h.score).toBeCloseTo(best[i], 9);
      });
      // The hidden entity's chunks match every word, and still never come back.
      expect(hits.every(h => texts.has(h.chunkId))).toBe(true);
    },
  );

  it('reads a frequent token late, for the entities of chunks that can still rank', async () => {
    const reads = (query: string[]) =>
      listReads(() =>
        keywordSearch({
          reader: new IndexReader(db.knex, owner),
          queryTokens: q(...query),
          limit: 3,
        }),
      );
    // beta's lists for every visible entity, then alpha's for the candidates' entities.
    expect(await reads(['beta', 'alpha'])).toEqual({ all: 1, some: 1 });
    // gamma matches fewer chunks than the window: nothing to prune, alpha is read for all.
    expect(await reads(['gamma', 'alpha'])).toEqual({ all: 2, some: 0 });
  });

  it('scores other candidates from the same lists, as a fresh search would', async () => {
    const query = q('gamma', 'beta', 'alpha');
    const lists = await keywordLists({
      reader: new IndexReader(db.knex, owner),
      queryTokens: query,
    });
    const top = await lists.best(3);
    const others = [...texts.keys()]
      .filter(id => !top.some(h => h.chunkId === id))
      .slice(-25);
    const reused = await lists.score(others);
    const fresh = await keywordSearch({
      reader: new IndexReader(db.knex, owner),
      queryTokens: query,
      selection: { chunkIds: others },
      limit: others.length,
    });
    expect(reused).toEqual(fresh.hits);
    const expected = reference(['gamma', 'beta', 'alpha']);
    for (const h of reused) {
      expect(h.score).toBeCloseTo(expected.get(h.chunkId)!, 9);
    }
    // A chunk id the asker cannot see is not scored.
    const hidden: string[] = await db
      .knex('ask_docs_chunks')
      .where('entity_ref', 'component:default/hidden')
      .pluck('chunk_id');
    expect(await lists.score(hidden)).toEqual([]);
    // Released, the lists' memory belongs to other questions: no more scores from them.
    lists.release();
    await expect(lists.best(3)).rejects.toThrow(/after release/);
    await expect(lists.score(others)).rejects.toThrow(/after release/);
  });

  it("sends a token's identical key lists once, and different lists apart", async () => {
    const reader = new IndexReader(db.knex, owner);
    const alpha = (tok: number, kind: 'l' | 's' | 'w') => ({
      tok,
      kind,
      term: 'alpha',
    });
    // The same words made the lemma, stem and word keys: one list per visible entity.
    const same = await reader.postingLists(
      [alpha(0, 'l'), alpha(0, 's'), alpha(0, 'w')],
      [],
    );
    expect(same).toHaveLength(sizes.length);
    expect(new Set(same.map(r => r.entityNo)).size).toBe(sizes.length);
    // Another token's copy, and another key's list, still come (the hidden entity's never).
    const apart = await reader.postingLists(
      [alpha(0, 'l'), alpha(1, 'l'), { tok: 0, kind: 'l', term: 'beta' }],
      [],
    );
    expect(apart).toHaveLength(3 * sizes.length);
  });

  describe('deferredTiers', () => {
    const token = (df: number, bound: number) => ({ df, bound, read: true });

    it('defers frequent, low-bound tokens and keeps one to rank on', () => {
      expect(
        deferredTiers([token(5, 4), token(900, 0.2), token(600, 0.5)], 1000),
      ).toEqual([0, 1, 1]);
      // All frequent: the rarest of them stays.
      expect(deferredTiers([token(900, 0.1), token(950, 0.05)], 1000)).toEqual([
        0, 1,
      ]);
    });

    it('does not defer a rare token, a high bound or a token it cannot read', () => {
      // df below 2 % of the visible chunks.
      expect(deferredTiers([token(5, 4), token(10, 0.1)], 1000)).toEqual([
        0, 0,
      ]);
      // Its bound is more than half the largest remaining one.
      expect(deferredTiers([token(5, 1), token(900, 0.6)], 1000)).toEqual([
        0, 0,
      ]);
      expect(
        deferredTiers(
          [token(5, 4), { df: 900, bound: 0.1, read: false }],
          1000,
        ),
      ).toEqual([0, 0]);
    });
  });
});
