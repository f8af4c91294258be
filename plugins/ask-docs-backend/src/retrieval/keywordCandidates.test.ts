/*
 * Keyword scoring reads the postings of the rarest tokens whole and looks up the common ones
 * only for those candidates (issue 15), with statistics from per-entity tables (migration 0005).
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import { resolveVisibility, Visibility } from '../permissions';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import {
  essentialTokens,
  keywordSearch,
  keywordStatistics,
  QueryToken,
} from './keywordSearch';
import { cond, fakePermissions } from '../testUtils/fakePermissions';
import { seedIndex } from './testUtils/seed';
import {
  ChunkSelection,
  visibleChunks,
  visibleTerms,
  visibleVocabulary,
} from './visibleChunks';

const q = (...ws: string[]): QueryToken[] =>
  ws.map(w => ({ token: w, lemmas: [w], stems: [w] }));

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
    owner = await resolveVisibility({
      permissions: fakePermissions({
        chunk: {
          conditions: cond('ask-docs-chunk', 'IS_ENTITY_OWNER', {
            claims: ['group:default/pay'],
          }),
        },
      }),
      credentials: mockCredentials.user('user:default/someone'),
    });
  }, 120_000);
  afterAll(async () => {
    await db?.stop();
  });

  const search = (candidateBudget?: number) =>
    keywordSearch({
      knex: db.knex,
      visibility: owner,
      queryTokens: q('rollback', 'release'),
      limit: 40,
      candidateBudget,
    });

  it("counts N, length and df over the asker's visible entities only", async () => {
    const stats = await keywordStatistics({
      knex: db.knex,
      visibility: owner,
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

  it('ranks the rare token’s chunks exactly as exhaustive scoring does, and says it was not exhaustive', async () => {
    const budgeted = await search(5);
    const exhaustive = await search(Infinity);
    expect(budgeted.exhaustive).toBe(false);
    expect(exhaustive.exhaustive).toBe(true);
    // Candidates come from "rollback" only; "release" adds its tf to them.
    expect(budgeted.hits.map(h => h.chunkId).sort()).toEqual(
      [...ids.rare].sort(),
    );
    expect(budgeted.hits).toEqual(exhaustive.hits.slice(0, 2));
    expect(
      budgeted.hits.find(h => h.chunkId === ids.rare[0])?.matchedTokens,
    ).toEqual(['rollback', 'release']);
    // Exhaustive scoring also ranks the chunks matching "release" alone, after them.
    expect(exhaustive.hits).toHaveLength(22);
  });

  it('never returns a hidden chunk, however the candidates are drawn', async () => {
    for (const budget of [1, 5, 100, Infinity]) {
      const { hits } = await search(budget);
      expect(hits.map(h => h.chunkId)).not.toContain(ids.hidden[0]);
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
        ...(await visibleTerms(db.knex, v, s)
          .select('t.chunk_id', 't.kind', 't.term')
          .orderBy(['t.chunk_id', 't.kind', 't.term'])),
        ...(await visibleVocabulary(db.knex, v, s)
          .select('v.entity_ref', 'v.term')
          .orderBy(['v.entity_ref', 'v.term'])),
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

  it('uses the default budget: this small corpus is scored exhaustively', async () => {
    const result = await search();
    expect(result.exhaustive).toBe(true);
    expect(result.hits).toEqual((await search(Infinity)).hits);
  });
});

describe('essentialTokens', () => {
  const stat = (
    df: number,
    match: 'exact' | 'prefix' | 'none' = 'exact',
    weight = 1,
  ) => ({
    token: 't',
    match,
    df,
    idf: 1,
    weight,
  });

  it('takes the rarest tokens while their df fits, and always at least one', () => {
    expect(
      [...essentialTokens([stat(300), stat(20), stat(50)], 100)].sort(),
    ).toEqual([1, 2]);
    expect([...essentialTokens([stat(300), stat(900)], 100)]).toEqual([0]);
    expect(
      [...essentialTokens([stat(300), stat(900)], Infinity)].sort(),
    ).toEqual([0, 1]);
  });

  it('leaves out tokens that match nothing or weigh nothing', () => {
    expect([
      ...essentialTokens(
        [stat(0, 'none'), stat(5, 'exact', 0), stat(7, 'prefix')],
        100,
      ),
    ]).toEqual([2]);
    expect(essentialTokens([stat(0, 'none'), undefined], 100).size).toBe(0);
  });
});
