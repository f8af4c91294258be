import { createHash } from 'crypto';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { ChunkWrite, DocumentRow } from './AskDocsStore';
import { DatabaseAskDocsStore } from './DatabaseAskDocsStore';

/*
 * Migrations 0002 and 0005: postings and vectors carry their chunk's entity (enforced), and the
 * per-entity statistics (key df, the spelling vocabulary, chunk totals) follow the postings and
 * chunks through every write path, in the same transaction.
 */

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const MODEL = { modelId: 'test-model', dimension: 2 };

function entity(ref: string) {
  const [, kind, namespace, name] = /^([^:]+):([^/]+)\/(.+)$/.exec(ref)!;
  return {
    entityRef: ref,
    kind,
    namespace,
    name,
    title: name,
    owners: [],
    tags: [],
    labels: {},
    annotations: {},
    spec: {},
    etag: sha(ref).slice(0, 8),
  };
}

function page(
  entityRef: string,
  path: string,
  texts: string[],
): [DocumentRow, ChunkWrite[]] {
  const documentId = sha(`${entityRef}|${path}`).slice(0, 32);
  const doc: DocumentRow = {
    documentId,
    entityRef,
    sourceKind: 'techdocs',
    pagePath: path,
    title: path,
    url: `/docs/${path}`,
    lang: 'en',
    revision: sha(texts.join('|')).slice(0, 8),
    contentHash: sha(texts.join('|')),
    textLength: texts.join('\n').length,
  };
  const chunks = texts.map((text, i): ChunkWrite => {
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return {
      chunkId: sha(`${documentId}|${i}`).slice(0, 32),
      ordinal: i,
      title: path,
      sectionPath: path,
      anchor: '',
      charStart: 0,
      charEnd: text.length,
      text,
      contentHash: sha(text),
      lang: 'en',
      termCount: words.length,
      terms: [...tf].flatMap(([term, n]) => [
        { kind: 'w', term, tf: n },
        { kind: 'l', term, tf: n },
      ]),
    };
  });
  return [doc, chunks];
}

describe('postings by entity', () => {
  let db: TestDatabase;
  let store: DatabaseAskDocsStore;

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

  /** Statistics as stored, and as they must be: postings and chunks counted per entity. */
  async function statistics() {
    const rows = async (sql: string) =>
      (await db.knex.raw(sql)).rows.map((r: Record<string, unknown>) =>
        Object.values(r).join(' '),
      );
    const stored = [
      ...(await rows(`SELECT kind, term, entity_ref, df FROM ask_docs_key_stats
                       ORDER BY kind, term, entity_ref`)),
      ...(await rows(`SELECT entity_ref, chunks, terms FROM ask_docs_entity_totals
                       ORDER BY entity_ref`)),
    ];
    const derived = [
      ...(await rows(`SELECT kind, term, entity_ref, count(*)::int AS df FROM ask_docs_terms
                       GROUP BY kind, term, entity_ref ORDER BY kind, term, entity_ref`)),
      ...(await rows(`SELECT entity_ref, count(*)::int AS chunks, sum(term_count) AS terms
                       FROM ask_docs_chunks GROUP BY entity_ref ORDER BY entity_ref`)),
    ];
    return { stored, derived };
  }

  const dfOf = async (entityRef: string, term: string) =>
    (
      await db
        .knex('ask_docs_vocabulary')
        .where({ entity_ref: entityRef, term })
        .first()
    )?.df;

  it('keeps the statistics equal to the postings and chunks through writes, rewrites and deletions', async () => {
    const a = 'component:default/a';
    const b = 'component:default/b';
    for (const ref of [a, b]) await store.upsertEntity(entity(ref));

    await store.replaceDocument(
      ...page(a, 'one', ['rollback the release', 'release notes']),
      new Map(),
      MODEL,
    );
    await store.replaceDocument(
      ...page(b, 'two', ['release train']),
      new Map(),
      MODEL,
    );
    expect(await dfOf(a, 'release')).toBe(2);
    expect(await dfOf(b, 'release')).toBe(1);
    expect(await dfOf(a, 'train')).toBeUndefined();

    // A rewritten page: a word that left the page leaves the vocabulary.
    await store.replaceDocument(
      ...page(a, 'one', ['roll forward instead', 'release notes']),
      new Map(),
      MODEL,
    );
    expect(await dfOf(a, 'rollback')).toBeUndefined();
    expect(await dfOf(a, 'forward')).toBe(1);
    expect(await dfOf(a, 'release')).toBe(1);
    let v = await statistics();
    expect(v.stored).toEqual(v.derived);

    // Deleting a document, then an entity (cascades through chunks to postings).
    await store.replaceDocument(
      ...page(a, 'three', ['release checklist']),
      new Map(),
      MODEL,
    );
    const [docThree] = page(a, 'three', []);
    await store.deleteDocuments([docThree.documentId]);
    expect(await dfOf(a, 'checklist')).toBeUndefined();
    await store.deleteEntities([b]);
    expect(await dfOf(b, 'release')).toBeUndefined();
    v = await statistics();
    expect(v.stored).toEqual(v.derived);
    expect(v.stored.length).toBeGreaterThan(0);
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

  it('refuses a posting whose entity is not its chunk entity', async () => {
    const a = 'component:default/a';
    const b = 'component:default/b';
    for (const ref of [a, b]) await store.upsertEntity(entity(ref));
    const [doc, chunks] = page(a, 'one', ['visible text']);
    await store.replaceDocument(doc, chunks, new Map(), MODEL);
    await expect(
      db.knex('ask_docs_terms').insert({
        chunk_id: chunks[0].chunkId,
        entity_ref: b,
        lang: 'en',
        kind: 'l',
        term: 'smuggled',
        tf: 1,
      }),
    ).rejects.toThrow(/foreign key/);
    await expect(
      db
        .knex('ask_docs_terms')
        .where('chunk_id', chunks[0].chunkId)
        .update({ entity_ref: b }),
    ).rejects.toThrow(/foreign key/);
  });

  it("refuses a vector whose entity is not its chunk's, and deletes vectors with the entity", async () => {
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
    await store.replaceDocument(
      ...page(ref, 'one', ['some words here']),
      new Map(),
      MODEL,
    );
    await expect(store.refreshIndexStatistics()).resolves.toBeUndefined();
    const { rows } = await db.knex.raw(
      `SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE relname = 'ask_docs_terms' AND last_vacuum IS NOT NULL`,
    );
    expect(rows[0].n).toBe(1);
  });
});
