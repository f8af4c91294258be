import { useTestDatabase } from '../testUtils/testDatabase';
import {
  applyDatabaseMigrations,
  migrationsDirectory,
  rollbackDatabaseMigrations,
} from './migrations';
import { indexedChunkKeys } from './keywordIndex';
import { decodePostings } from './postingList';

const config = {
  directory: migrationsDirectory(),
  tableName: 'ask_docs_knex_migrations',
  loadExtensions: ['.js'],
};

describe('migrations', () => {
  const db = useTestDatabase({ migrate: false });
  /** Rolls back every migration from the one whose file starts with `version` on. */
  const downThrough = async (version: string) => {
    while ((await db.knex.migrate.currentVersion(config)) >= version)
      await db.knex.migrate.down(config);
  };

  it('applies up, rolls back down and up again', async () => {
    await applyDatabaseMigrations(db.knex);
    expect(await db.knex.schema.hasTable('ask_docs_chunks')).toBe(true);
    expect(await db.knex.schema.hasTable('ask_docs_answers')).toBe(true);
    // pgvector is really there: a cosine distance can be computed.
    const { rows } = await db.knex.raw(
      `SELECT '[1,0]'::vector <=> '[0,1]'::vector AS d`,
    );
    expect(Number(rows[0].d)).toBeCloseTo(1);

    await rollbackDatabaseMigrations(db.knex);
    for (const t of [
      'ask_docs_chunks',
      'ask_docs_postings',
      'ask_docs_keys',
      'ask_docs_embeddings',
      'ask_docs_answers',
      'ask_docs_entities',
    ]) {
      expect(await db.knex.schema.hasTable(t)).toBe(false);
    }

    await applyDatabaseMigrations(db.knex);
    expect(await db.knex.schema.hasTable('ask_docs_postings')).toBe(true);
    expect(await db.knex.schema.hasTable('ask_docs_terms')).toBe(false);
    // Vectors are stored as halfvec (migration 0007).
    const type = await db.knex.raw(
      `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute
        WHERE attrelid = 'ask_docs_embeddings'::regclass AND attname = 'embedding'`,
    );
    expect(type.rows[0].t).toBe('halfvec');
  });

  it('backfills statistics, posting lists and vector entities of a pre-0005 index', async () => {
    await rollbackDatabaseMigrations(db.knex);
    // Up to 0004, then rows as the store wrote them then (vectors without an entity).
    while (
      !(await db.knex.migrate.currentVersion(config)).startsWith('20261205')
    ) {
      await db.knex.migrate.up(config);
    }
    const k = db.knex;
    const entity = (ref: string) => ({
      entity_ref: ref,
      kind: 'component',
      namespace: 'default',
      name: ref.split('/')[1],
      title: ref,
      etag: 'e',
    });
    await k('ask_docs_entities').insert([
      entity('component:default/a'),
      entity('component:default/b'),
    ]);
    const doc = (id: string, ref: string) => ({
      document_id: id,
      entity_ref: ref,
      source_kind: 'techdocs',
      page_path: id,
      title: id,
      url: `/${id}`,
      lang: 'en',
      revision: 'r',
      content_hash: id,
      text_length: 1,
    });
    await k('ask_docs_documents').insert([
      doc('d1', 'component:default/a'),
      doc('d2', 'component:default/b'),
    ]);
    const chunk = (
      id: string,
      docId: string,
      ref: string,
      termCount: number,
    ) => ({
      chunk_id: id,
      document_id: docId,
      entity_ref: ref,
      ordinal: 0,
      title: id,
      section_path: id,
      anchor: '',
      char_start: 0,
      char_end: 1,
      text: id,
      content_hash: id,
      revision: 'r',
      lang: 'en',
      term_count: termCount,
    });
    await k('ask_docs_chunks').insert([
      chunk('c1', 'd1', 'component:default/a', 3),
      chunk('c2', 'd1', 'component:default/a', 5),
      chunk('c3', 'd2', 'component:default/b', 7),
    ]);
    const term = (
      id: string,
      ref: string,
      kind: string,
      t: string,
      tf = 1,
    ) => ({
      chunk_id: id,
      entity_ref: ref,
      lang: 'en',
      kind,
      term: t,
      tf,
    });
    await k('ask_docs_terms').insert([
      term('c1', 'component:default/a', 'l', 'release'),
      term('c2', 'component:default/a', 'l', 'release', 2),
      term('c2', 'component:default/a', 'w', 'releases'),
      term('c3', 'component:default/b', 'l', 'release'),
    ]);
    await k('ask_docs_embeddings').insert(
      ['c1', 'c3'].map(id => ({
        chunk_id: id,
        model_id: 'm',
        content_hash: id,
        dimension: 2,
        embedding: '[1,0]',
      })),
    );

    await applyDatabaseMigrations(k);
    const rows = async (sql: string) =>
      (await k.raw(sql)).rows.map((r: Record<string, unknown>) =>
        Object.values(r).join(' '),
      );
    // Posting lists per (key, entity), in the backfill's int4 format, with tf and length.
    expect(
      await rows(
        `SELECT k.kind, k.term, e.entity_ref, p.df FROM ask_docs_postings p
           JOIN ask_docs_keys k USING (key_id) JOIN ask_docs_entities e USING (entity_no)
          ORDER BY 1, 2, 3`,
      ),
    ).toEqual([
      'l release component:default/a 2',
      'l release component:default/b 1',
      'w releases component:default/a 1',
    ]);
    const list = await k.raw(
      `SELECT p.postings FROM ask_docs_postings p JOIN ask_docs_keys k USING (key_id)
         JOIN ask_docs_entities e USING (entity_no)
        WHERE k.term = 'release' AND e.entity_ref = 'component:default/a'`,
    );
    const numbers = Object.fromEntries(
      (await k('ask_docs_chunks').select('chunk_id', 'chunk_no')).map(r => [
        r.chunk_id,
        r.chunk_no,
      ]),
    );
    expect(list.rows[0].postings[0]).toBe(0);
    expect(decodePostings(list.rows[0].postings)).toEqual([
      { chunkNo: numbers.c1, tf: 1, length: 3 },
      { chunkNo: numbers.c2, tf: 2, length: 5 },
    ]);
    expect(await indexedChunkKeys(k, 'c2')).toEqual([
      { kind: 'l', term: 'release', tf: 2 },
      { kind: 'w', term: 'releases', tf: 1 },
    ]);
    for (const t of ['ask_docs_terms', 'ask_docs_key_stats']) {
      expect(await k.schema.hasTable(t)).toBe(false);
    }
    expect(
      await rows(
        'SELECT entity_ref, chunks, terms FROM ask_docs_entity_totals ORDER BY 1',
      ),
    ).toEqual(['component:default/a 2 8', 'component:default/b 1 7']);
    expect(
      await rows(
        'SELECT chunk_id, entity_ref FROM ask_docs_embeddings ORDER BY 1',
      ),
    ).toEqual(['c1 component:default/a', 'c3 component:default/b']);
  });

  it('0009 leaves one running run, the latest, and lets the database refuse a second', async () => {
    await applyDatabaseMigrations(db.knex);
    await downThrough('20261210'); // 0009
    const runs = () => db.knex('ask_docs_ingestion_runs');
    // As two instances left them before 0009: overlapping runs, one of a stopped backend.
    const ids = await runs()
      .insert([
        { trigger: 'schedule', status: 'running' },
        { trigger: 'manual', status: 'running' },
        { trigger: 'manual', status: 'succeeded', finished_at: new Date() },
      ])
      .returning('id')
      .then(r => r.map(x => x.id));
    await db.knex.migrate.up(config); // 0009
    const after = await runs().whereIn('id', ids).orderBy('id');
    expect(after.map(r => r.status)).toEqual([
      'failed',
      'running',
      'succeeded',
    ]);
    expect(JSON.stringify(after[0].errors)).toMatch(/abandoned/);
    expect(after.every(r => r.heartbeat_at instanceof Date)).toBe(true);
    await expect(
      runs().insert({ trigger: 'manual', status: 'running' }),
    ).rejects.toThrow(/one_running/);
    await runs().whereIn('id', ids).delete();
    await db.knex.migrate.down(config); // 0009 back
    expect(
      await db.knex.schema.hasColumn('ask_docs_ingestion_runs', 'heartbeat_at'),
    ).toBe(false);
    await applyDatabaseMigrations(db.knex);
  });

  it('0010 records when each model was last in use, from the migration on', async () => {
    await applyDatabaseMigrations(db.knex);
    await downThrough('20261211'); // 0010
    await db.knex('ask_docs_models').insert({
      model_id: 'before-0010',
      dimension: 2,
      kind: 'hashing-fallback',
      created_at: new Date('2026-01-01T00:00:00Z'),
    });
    const before = Date.now();
    await db.knex.migrate.up(config); // 0010
    const row = await db
      .knex('ask_docs_models')
      .where({ model_id: 'before-0010' })
      .first();
    expect(row.last_used_at.getTime()).toBeGreaterThanOrEqual(before - 60_000);
    await db.knex.migrate.down(config); // 0010 back
    expect(
      await db.knex.schema.hasColumn('ask_docs_models', 'last_used_at'),
    ).toBe(false);
    await db
      .knex('ask_docs_models')
      .where({ model_id: 'before-0010' })
      .delete();
    await applyDatabaseMigrations(db.knex);
  });

  it('0008 keeps each current text once, with when it was first seen, and back', async () => {
    await applyDatabaseMigrations(db.knex);
    await downThrough('20261209'); // 0008
    const at = (iso: string) => new Date(iso);
    await db.knex('ask_docs_entities').insert({
      entity_ref: 'component:default/v0008',
      kind: 'component',
      namespace: 'default',
      name: 'v',
      title: 'V',
      etag: 'e1',
    });
    await db.knex('ask_docs_documents').insert({
      document_id: 'doc-0008',
      entity_ref: 'component:default/v0008',
      source_kind: 'techdocs',
      page_path: 'index.html',
      title: 'V',
      url: '/docs/v',
      lang: 'en',
      revision: 'r2',
      content_hash: 'page',
      text_length: 10,
    });
    const columns = {
      document_id: 'doc-0008',
      entity_ref: 'component:default/v0008',
      title: 'V',
      section_path: 'V',
      anchor: '',
    };
    await db.knex('ask_docs_chunks').insert({
      ...columns,
      chunk_id: 'c-0008',
      ordinal: 0,
      char_start: 0,
      char_end: 3,
      text: 'new',
      content_hash: 'h-new',
      revision: 'r2',
      lang: 'en',
    });
    // As the store wrote them before 0008: the current text also as a version.
    await db.knex('ask_docs_chunk_versions').insert([
      {
        ...columns,
        chunk_id: 'c-0008',
        content_hash: 'h-old',
        revision: 'r1',
        text: 'old',
        first_seen: at('2026-01-01T00:00:00Z'),
        superseded_at: at('2026-02-01T00:00:00Z'),
      },
      {
        ...columns,
        chunk_id: 'c-0008',
        content_hash: 'h-new',
        revision: 'r2',
        text: 'new',
        first_seen: at('2026-02-01T00:00:00Z'),
        superseded_at: null,
      },
    ]);

    await db.knex.migrate.up(config); // 0008
    const mine = { chunk_id: 'c-0008' };
    expect(
      await db
        .knex('ask_docs_chunk_versions')
        .where(mine)
        .pluck('content_hash'),
    ).toEqual(['h-old']);
    const chunk = await db
      .knex('ask_docs_chunks')
      .where(mine)
      .first('first_seen');
    expect(new Date(chunk.first_seen).toISOString()).toBe(
      '2026-02-01T00:00:00.000Z',
    );

    await db.knex.migrate.down(config); // 0008 back: the current text is a version again
    const back = await db
      .knex('ask_docs_chunk_versions')
      .where(mine)
      .orderBy('content_hash')
      .select('content_hash', 'text', 'first_seen', 'superseded_at');
    expect(back.map(v => [v.content_hash, v.text, v.superseded_at])).toEqual([
      ['h-new', 'new', null],
      ['h-old', 'old', at('2026-02-01T00:00:00Z')],
    ]);
    expect(new Date(back[0].first_seen).toISOString()).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    expect(
      await db.knex.schema.hasColumn('ask_docs_chunks', 'first_seen'),
    ).toBe(false);
    await db
      .knex('ask_docs_entities')
      .where('entity_ref', 'component:default/v0008')
      .delete();
    await db.knex('ask_docs_chunk_versions').where(mine).delete();
    await applyDatabaseMigrations(db.knex);
  });

  it('migrates 0006 down to row postings and marks every document for re-analysis', async () => {
    await applyDatabaseMigrations(db.knex);
    await db.knex('ask_docs_documents').update({ analysis_signature: 'sig' });
    await downThrough('20261208'); // 0007: vectors back to the vector type
    await db.knex.migrate.down(config); // 0006
    expect(await db.knex.schema.hasTable('ask_docs_terms')).toBe(true);
    expect(await db.knex.schema.hasTable('ask_docs_postings')).toBe(false);
    expect(await db.knex.schema.hasColumn('ask_docs_chunks', 'chunk_no')).toBe(
      false,
    );
    const signatures = await db
      .knex('ask_docs_documents')
      .pluck('analysis_signature');
    expect(signatures.length).toBeGreaterThan(0);
    expect(signatures.every(x => x === null)).toBe(true);
    await applyDatabaseMigrations(db.knex);
  });
});
