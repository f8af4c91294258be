// @ts-check
/*
 * Knowledge index schema. Everything that reads chunks joins ask_docs_entities through
 * entity_ref, because that is where the permission predicate (decision record 0001) applies.
 */

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS vector');

  // Visibility attributes of each source entity: the only columns permission rules query.
  await knex.schema.createTable('ask_docs_entities', t => {
    t.text('entity_ref').primary();
    t.text('kind').notNullable();
    t.text('namespace').notNullable();
    t.text('name').notNullable();
    t.text('title').notNullable();
    t.specificType('owners', 'text[]').notNullable().defaultTo('{}');
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('labels').notNullable().defaultTo('{}');
    t.jsonb('annotations').notNullable().defaultTo('{}');
    t.jsonb('spec').notNullable().defaultTo('{}');
    t.text('etag').notNullable();
    t.timestamp('updated_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now());
  });

  // One row per ingested page (TechDocs) or per entity description (catalog).
  await knex.schema.createTable('ask_docs_documents', t => {
    t.text('document_id').primary();
    t.text('entity_ref')
      .notNullable()
      .references('entity_ref')
      .inTable('ask_docs_entities')
      .onDelete('CASCADE');
    t.text('source_kind').notNullable(); // 'techdocs' | 'catalog'
    t.text('page_path').notNullable(); // '' for catalog documents
    t.text('title').notNullable();
    t.text('url').notNullable();
    t.text('lang').notNullable();
    t.text('revision').notNullable(); // TechDocs etag or entity etag
    t.text('content_hash').notNullable(); // hash of the page text: unchanged pages are skipped
    t.integer('text_length').notNullable();
    t.text('note'); // e.g. truncated huge page, duplicate title
    t.timestamp('updated_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now());
    t.index(['entity_ref']);
  });

  await knex.schema.createTable('ask_docs_chunks', t => {
    t.text('chunk_id').primary(); // hash(document_id, anchor, ordinal): stable across runs
    t.text('document_id')
      .notNullable()
      .references('document_id')
      .inTable('ask_docs_documents')
      .onDelete('CASCADE');
    t.text('entity_ref').notNullable(); // denormalised so the visibility join needs no document hop
    t.integer('ordinal').notNullable(); // position in the page
    t.text('title').notNullable(); // document title
    t.text('section_path').notNullable(); // 'Title › Section › Subsection'
    t.text('anchor').notNullable(); // '' = top of page
    t.integer('char_start').notNullable(); // offsets into the page text
    t.integer('char_end').notNullable();
    t.text('text').notNullable();
    t.text('content_hash').notNullable(); // sha256 of text + section_path
    t.text('revision').notNullable();
    t.text('lang').notNullable();
    t.integer('term_count').notNullable().defaultTo(0); // length in keyword tokens, for scoring
    t.index(['entity_ref']);
    t.index(['document_id']);
  });

  // Every text a chunk has ever had, so an answer can be replayed against what was sent.
  await knex.schema.createTable('ask_docs_chunk_versions', t => {
    // The chunk's columns as they were in this version.
    const chunkColumns =
      'chunk_id content_hash revision document_id entity_ref title section_path anchor text';
    for (const column of chunkColumns.split(' ')) t.text(column).notNullable();
    t.timestamp('first_seen', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now());
    t.timestamp('superseded_at', { useTz: true });
    t.primary(['chunk_id', 'content_hash']);
  });

  // Vectors of any dimension; each model gets its own partial HNSW index over a typed cast
  // (created by the store when the model is first used), so models can change without a migration.
  await knex.schema.createTable('ask_docs_embeddings', t => {
    t.text('chunk_id')
      .notNullable()
      .references('chunk_id')
      .inTable('ask_docs_chunks')
      .onDelete('CASCADE');
    t.text('model_id').notNullable();
    t.text('content_hash').notNullable(); // what was embedded: a changed chunk is re-embedded
    t.integer('dimension').notNullable();
    t.specificType('embedding', 'vector').notNullable();
    t.primary(['chunk_id', 'model_id']);
  });

  await knex.schema.createTable('ask_docs_models', t => {
    t.text('model_id').primary();
    t.integer('dimension').notNullable();
    t.text('kind').notNullable(); // 'transformers' | 'hashing-fallback'
    t.timestamp('created_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now());
  });

  // Keyword postings: kind 'l' lemma, 's' stem, 'w' surface word (typo vocabulary).
  await knex.schema.createTable('ask_docs_terms', t => {
    t.text('chunk_id')
      .notNullable()
      .references('chunk_id')
      .inTable('ask_docs_chunks')
      .onDelete('CASCADE');
    t.text('entity_ref').notNullable();
    t.text('lang').notNullable();
    t.string('kind', 1).notNullable();
    t.text('term').notNullable();
    t.integer('tf').notNullable();
    t.primary(['chunk_id', 'kind', 'term']);
  });
  await knex.raw(
    'CREATE INDEX ask_docs_terms_lookup ON ask_docs_terms (kind, term)',
  );
  await knex.raw(
    'CREATE INDEX ask_docs_terms_prefix ON ask_docs_terms (kind, term text_pattern_ops)',
  );

  await knex.schema.createTable('ask_docs_ingestion_runs', t => {
    t.increments('id');
    t.text('trigger').notNullable(); // 'schedule' | 'manual'
    t.text('status').notNullable(); // 'running' | 'succeeded' | 'failed'
    t.timestamp('started_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.integer('entities_done').notNullable().defaultTo(0);
    t.integer('pages_done').notNullable().defaultTo(0);
    t.integer('pages_skipped').notNullable().defaultTo(0);
    t.integer('chunks_written').notNullable().defaultTo(0);
    t.integer('chunks_embedded').notNullable().defaultTo(0);
    t.integer('chunks_deleted').notNullable().defaultTo(0);
    t.jsonb('errors').notNullable().defaultTo('[]');
  });

  await knex.schema.createTable('ask_docs_answers', t => {
    t.uuid('id').primary();
    t.timestamp('created_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now());
    t.text('user_ref').notNullable();
    t.text('question').notNullable();
    t.text('status').notNullable(); // 'answered' | 'not_in_knowledge_base' | 'evidence_only'
    t.boolean('grounded').notNullable();
    t.jsonb('scope').notNullable().defaultTo('{}');
    t.jsonb('policy').notNullable(); // summary of the permission decisions applied
    t.jsonb('retrieved').notNullable(); // every retrieved chunk: id, revision, hash, scores, sent
    t.text('embedding_model').notNullable();
    t.text('llm_model');
    t.text('raw_output');
    t.text('answer').notNullable();
    t.jsonb('sources').notNullable();
    t.jsonb('feedback');
    t.index(['user_ref', 'created_at']);
    t.index(['created_at']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  for (const table of [
    'ask_docs_answers',
    'ask_docs_ingestion_runs',
    'ask_docs_terms',
    'ask_docs_models',
    'ask_docs_embeddings',
    'ask_docs_chunk_versions',
    'ask_docs_chunks',
    'ask_docs_documents',
    'ask_docs_entities',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  // The vector extension may be shared with other plugins; it is left in place.
};
