import {
  entityRowOf,
  pageWriteOf,
  TEST_MODEL,
} from '../testUtils/indexFixtures';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { ChunkWrite, DocumentRow } from './AskDocsStore';
import { DatabaseAskDocsStore } from './DatabaseAskDocsStore';
import { decodeKeyIds, decodePostings } from './postingList';

/*
 * Migrations 0005 and 0006: the posting lists per (key, entity), their counts, the chunks' key
 * lists and the per-entity chunk totals follow the chunks through every write path, in the same
 * transaction; vectors carry their chunk's entity (enforced). Migration 0008: a current text is
 * stored once, and a replaced or deleted one is kept as a superseded version.
 */

const MODEL = TEST_MODEL;
const entity = entityRowOf;

function page(
  entityRef: string,
  path: string,
  texts: string[],
): [DocumentRow, ChunkWrite[]] {
  const { doc, chunks } = pageWriteOf(entityRef, path, texts);
  return [doc, chunks];
}

describe('postings by entity', () => {
  let db: TestDatabase;
  let store: DatabaseAskDocsStore;
  /** Writes `page(entityRef, path, texts)` without vectors. */
  const writePage = (entityRef: string, path: string, texts: string[]) =>
    store.replaceDocument(...page(entityRef, path, texts), new Map(), MODEL);

  beforeAll(async () => {
    db = await startTestDatabase();
    store = new DatabaseAskDocsStore(db.knex);
  }, 120_000);
  afterAll(async () => {
    await db?.stop();
  });
  beforeEach(async () => {
    await db.knex('ask_docs_entities').delete();
  });

  const rows = async (sql: string, bindings: unknown[] = []) =>
    (await db.knex.raw(sql, bindings as any)).rows as Array<
      Record<string, any>
    >;

  /**
   * The index as stored (lists decoded, with their counts and the chunks' key lists checked),
   * and as it must be: derived from the chunk texts the way page() analyses them.
   */
  async function statistics() {
    const line = (r: Record<string, unknown>) => Object.values(r).join(' ');
    const chunks = await rows(
      `SELECT c.chunk_id, c.chunk_no, c.entity_ref, c.text, c.term_count, c.key_ids
         FROM ask_docs_chunks c ORDER BY c.chunk_no`,
    );
    const byNo = new Map(chunks.map(c => [c.chunk_no, c]));
    const stored: string[] = [];
    const keysOf = new Map<string, number[]>();
    for (const r of await rows(
      `SELECT e.entity_ref, k.key_id, k.kind, k.term, p.df, p.postings FROM ask_docs_postings p
         JOIN ask_docs_keys k USING (key_id) JOIN ask_docs_entities e USING (entity_no)`,
    )) {
      const list = decodePostings(r.postings);
      stored.push(
        `df ${r.entity_ref} ${r.kind} ${r.term} ${r.df === list.length}`,
      );
      for (const p of list) {
        const c = byNo.get(p.chunkNo);
        stored.push(
          line({
            e: r.entity_ref,
            k: r.kind,
            t: r.term,
            c: c?.chunk_id,
            tf: p.tf,
            len: p.length,
          }),
        );
        if (c)
          keysOf.set(c.chunk_id, [...(keysOf.get(c.chunk_id) ?? []), r.key_id]);
      }
    }
    const derived: string[] = [];
    for (const c of chunks) {
      const tf = new Map<string, number>();
      for (const w of c.text.toLowerCase().split(/\s+/).filter(Boolean)) {
        tf.set(w, (tf.get(w) ?? 0) + 1);
      }
      for (const kind of ['l', 'w'])
        for (const [t, n] of tf)
          derived.push(
            line({
              e: c.entity_ref,
              k: kind,
              t,
              c: c.chunk_id,
              tf: n,
              len: c.term_count,
            }),
          );
      const listed = (keysOf.get(c.chunk_id) ?? []).sort((x, y) => x - y);
      expect(decodeKeyIds(c.key_ids)).toEqual(listed);
    }
    for (const r of await rows(
      `SELECT e.entity_ref, k.kind, k.term FROM ask_docs_postings p
         JOIN ask_docs_keys k USING (key_id) JOIN ask_docs_entities e USING (entity_no)`,
    ))
      derived.push(`df ${r.entity_ref} ${r.kind} ${r.term} true`);
    const totals = await rows(
      'SELECT entity_ref, chunks, terms FROM ask_docs_entity_totals ORDER BY entity_ref',
    );
    const counted = await rows(
      `SELECT entity_ref, count(*)::int AS chunks, sum(term_count) AS terms
         FROM ask_docs_chunks GROUP BY entity_ref ORDER BY entity_ref`,
    );
    return {
      stored: [...stored.sort(), ...totals.map(line)],
      derived: [...derived.sort(), ...counted.map(line)],
    };
  }

  const dfOf = async (entityRef: string, term: string) =>
    (
      await rows(
        `SELECT p.df FROM ask_docs_postings p JOIN ask_docs_keys k USING (key_id)
           JOIN ask_docs_entities e USING (entity_no)
          WHERE e.entity_ref = ? AND k.kind = 'w' AND k.term = ?`,
        [entityRef, term],
      )
    )[0]?.df;

  it('keeps statistics equal to postings and chunks through writes and deletions', async () => {
    const a = 'component:default/a';
    const b = 'component:default/b';
    for (const ref of [a, b]) await store.upsertEntity(entity(ref));

    await writePage(a, 'one', ['rollback the release', 'release notes']);
    await writePage(b, 'two', ['release train']);
    expect(await dfOf(a, 'release')).toBe(2);
    expect(await dfOf(b, 'release')).toBe(1);
    expect(await dfOf(a, 'train')).toBeUndefined();

    // A rewritten page: a word that left the page leaves the vocabulary.
    await writePage(a, 'one', ['roll forward instead', 'release notes']);
    expect(await dfOf(a, 'rollback')).toBeUndefined();
    expect(await dfOf(a, 'forward')).toBe(1);
    expect(await dfOf(a, 'release')).toBe(1);
    let v = await statistics();
    expect(v.stored).toEqual(v.derived);

    // Deleting a document, then an entity (cascades through chunks to postings).
    await writePage(a, 'three', ['release checklist']);
    const [docThree] = page(a, 'three', []);
    await store.deleteDocuments([docThree.documentId]);
    expect(await dfOf(a, 'checklist')).toBeUndefined();
    await store.deleteEntities([b]);
    expect(await dfOf(b, 'release')).toBeUndefined();
    v = await statistics();
    expect(v.stored).toEqual(v.derived);
    expect(v.stored.length).toBeGreaterThan(0);
  });

  it('moves a page whose entity ref changed case out of the old entity, postings too', async () => {
    // Entity refs compare case-insensitively, so the page keeps its ids (identity.ts).
    const before = 'component:default/Payments';
    const after = 'component:default/payments';
    for (const ref of [before, after]) await store.upsertEntity(entity(ref));
    const [doc, chunks] = page(before, 'one', [
      'rollback the ledger',
      'notes',
      'obsolete paragraph',
    ]);
    await store.replaceDocument(
      doc,
      chunks,
      new Map([[chunks[0].chunkId, [1, 0]]]),
      MODEL,
    );
    expect(await dfOf(before, 'ledger')).toBe(1);
    // The same page from the renamed entity, one chunk unchanged and one new.
    const [, next] = page(before, 'one', ['rollback the ledger', 'new notes']);
    await store.replaceDocument(
      { ...doc, entityRef: after, revision: 'r2', contentHash: 'h2' },
      next,
      new Map(),
      MODEL,
    );
    // The old entity's lists hold nothing of the page: its readers get no df, no typo fix.
    expect(await dfOf(before, 'ledger')).toBeUndefined();
    expect(await dfOf(before, 'notes')).toBeUndefined();
    expect(await dfOf(before, 'obsolete')).toBeUndefined();
    expect(await dfOf(after, 'obsolete')).toBeUndefined();
    expect(await dfOf(after, 'ledger')).toBe(1);
    expect(await dfOf(after, 'new')).toBe(1);
    // The unchanged chunk's vector follows it (read through the new entity's visibility).
    expect(await db.knex('ask_docs_embeddings').pluck('entity_ref')).toEqual([
      after,
    ]);
    const v = await statistics();
    expect(v.stored).toEqual(v.derived);
  });

  it('stores a current text once, keeps each replaced or deleted one as a version', async () => {
    const a = 'component:default/a';
    await store.upsertEntity(entity(a));
    await db.knex('ask_docs_chunk_versions').delete(); // earlier tests' deletions
    const versions = async () =>
      (
        await rows(
          `SELECT text, superseded_at IS NOT NULL AS superseded
             FROM ask_docs_chunk_versions ORDER BY text`,
        )
      ).map(r => `${r.text}${r.superseded ? '' : ' (current)'}`);
    const texts = async () =>
      (await rows('SELECT text FROM ask_docs_chunks ORDER BY text')).map(
        r => r.text,
      );

    await writePage(a, 'one', ['alpha text', 'beta text']);
    // Nothing is written twice: the new texts are only in the chunk rows.
    expect(await versions()).toEqual([]);
    // A rewrite with the same texts archives nothing.
    await writePage(a, 'one', ['alpha text', 'beta text']);
    expect(await versions()).toEqual([]);

    // The second chunk's text changes: its old text becomes a superseded version.
    await writePage(a, 'one', ['alpha text', 'gamma text']);
    expect(await versions()).toEqual(['beta text']);
    expect(await texts()).toEqual(['alpha text', 'gamma text']);
    // Back to the old text: the version stays addressable, and so does the one replaced now.
    await writePage(a, 'one', ['alpha text', 'beta text']);
    expect(await versions()).toEqual(['beta text', 'gamma text']);
    // A page that loses a chunk, then a deleted document: their texts are archived too.
    await writePage(a, 'one', ['alpha text']);
    expect(await versions()).toEqual(['beta text', 'gamma text']);
    await writePage(a, 'two', ['delta text']);
    await store.deleteDocuments([page(a, 'two', [])[0].documentId]);
    await store.deleteEntities([a]);
    expect(await texts()).toEqual([]);
    expect(await versions()).toEqual([
      'alpha text',
      'beta text',
      'delta text',
      'gamma text',
    ]);
    // Each archived version keeps its chunk's identity and the time its text was first seen.
    const kept = await rows(
      `SELECT chunk_id, content_hash, first_seen <= superseded_at AS ordered
         FROM ask_docs_chunk_versions`,
    );
    expect(kept.every(r => r.ordered)).toBe(true);
    expect(new Set(kept.map(r => r.content_hash)).size).toBe(4);
  });

  it('writes a batch of pages as page-by-page writes would, shared keys included', async () => {
    const a = 'component:default/a';
    await store.upsertEntity(entity(a));
    const batch = (texts: string[][]) =>
      store.replaceDocuments(
        texts.map((t, i) => {
          const [doc, chunks] = page(a, `p${i}`, t);
          return { doc, chunks, vectors: new Map() };
        }),
        MODEL,
      );
    const first = await batch([
      ['shared release words', 'more shared words'],
      ['shared words again'],
      ['alone here'],
    ]);
    expect(first.map(r => r.chunksWritten)).toEqual([2, 1, 1]);
    expect(await dfOf(a, 'shared')).toBe(3);
    // Rewrite: a chunk leaves p0, p1 changes, p2 stays; the shared key's list is one list.
    const second = await batch([
      ['shared release words'],
      ['other words now'],
      ['alone here'],
    ]);
    expect(second).toEqual([
      { chunksWritten: 0, chunksDeleted: 1, chunksReanalysed: 0 },
      { chunksWritten: 1, chunksDeleted: 0, chunksReanalysed: 0 },
      { chunksWritten: 0, chunksDeleted: 0, chunksReanalysed: 0 },
    ]);
    expect(await dfOf(a, 'shared')).toBe(1);
    expect(await dfOf(a, 'again')).toBeUndefined();
    const v = await statistics();
    expect(v.stored).toEqual(v.derived);
  });

  it('stays consistent when pages of one entity are written concurrently', async () => {
    const ref = 'component:default/busy';
    await store.upsertEntity(entity(ref));
    // Every page shares most words, so the transactions contend for the same vocabulary rows.
    const pages = Array.from({ length: 12 }, (_, i) =>
      page(ref, `p${i}`, [
        `shared words alpha beta gamma delta page${i}`,
        `more shared words epsilon ${i % 3}`,
      ]),
    );
    await Promise.all(
      pages.map(([doc, chunks]) =>
        store.replaceDocument(doc, chunks, new Map(), MODEL),
      ),
    );
    expect(await dfOf(ref, 'shared')).toBe(24);
    expect(await dfOf(ref, 'alpha')).toBe(12);
    const v = await statistics();
    expect(v.stored).toEqual(v.derived);
  }, 60_000);

  it('deletes the lists of a deleted entity, and keeps the others', async () => {
    const a = 'component:default/a';
    const b = 'component:default/b';
    for (const ref of [a, b]) await store.upsertEntity(entity(ref));
    await writePage(a, 'one', ['shared word']);
    await writePage(b, 'two', ['shared word']);
    await store.deleteEntities([a]);
    expect(await dfOf(a, 'shared')).toBeUndefined();
    expect(await dfOf(b, 'shared')).toBe(1);
    const v = await statistics();
    expect(v.stored).toEqual(v.derived);
  });

  it('refuses a vector of another entity; deletes vectors with the entity', async () => {
    const a = 'component:default/a';
    const b = 'component:default/b';
    for (const ref of [a, b]) await store.upsertEntity(entity(ref));
    const [doc, chunks] = page(a, 'one', ['visible text']);
    await store.replaceDocument(
      doc,
      chunks,
      new Map([[chunks[0].chunkId, [1, 0]]]),
      MODEL,
    );
    const vectorsOf = (ref: string) =>
      db
        .knex('ask_docs_embeddings')
        .where('entity_ref', ref)
        .count<[{ n: string }]>('* as n');
    expect(Number((await vectorsOf(a))[0].n)).toBe(1);
    const row = {
      chunk_id: chunks[0].chunkId,
      model_id: 'other',
      content_hash: 'h',
      dimension: 2,
    };
    await expect(
      db
        .knex('ask_docs_embeddings')
        .insert({ ...row, entity_ref: b, embedding: '[0,1]' }),
    ).rejects.toThrow(/foreign key/);
    await expect(
      db
        .knex('ask_docs_embeddings')
        .where('chunk_id', chunks[0].chunkId)
        .update({ entity_ref: b }),
    ).rejects.toThrow(/foreign key/);
    expect(Number((await vectorsOf(b))[0].n)).toBe(0);
    await store.deleteEntities([a]);
    expect(Number((await vectorsOf(a))[0].n)).toBe(0);
  });

  it('refreshes index statistics outside a transaction', async () => {
    const ref = 'component:default/a';
    await store.upsertEntity(entity(ref));
    await writePage(ref, 'one', ['some words here']);
    await expect(store.refreshIndexStatistics()).resolves.toBeUndefined();
    const { rows } = await db.knex.raw(
      `SELECT count(*)::int AS n FROM pg_stat_user_tables
        WHERE relname = 'ask_docs_postings' AND last_vacuum IS NOT NULL`,
    );
    expect(rows[0].n).toBe(1);
  });
});
