// @ts-check
/*
 * Retrieval reads postings by entity, not by chunk (docs/evaluation.md, findings 3, 4 and 7):
 *
 * - ask_docs_terms.entity_ref is tied to its chunk's entity by a foreign key, so the visibility
 *   predicate can be applied to the postings' own column: a mismatch is impossible, not merely
 *   unlikely. Before this, every postings query joined the visible chunks row by row.
 * - One covering index (kind, term) serves equality and prefix lookups and carries what the
 *   keyword queries read, instead of two indexes that both sent every row to the heap.
 * - ask_docs_vocabulary: the surface words of each entity with their chunk counts, kept in step
 *   with the postings by statement triggers (same transaction, whatever the code path, cascades
 *   included). Spelling suggestions read it, with the same visibility predicate, instead of
 *   aggregating every visible 'w' posting on each query.
 */

/**
 * The vocabulary's statement triggers; migration 0005 calls it again when migrating down.
 * @param {import('knex').Knex} knex
 */
async function createVocabularySync(knex) {
  // Rows are upserted in (entity_ref, term) order, so concurrent page writes of one entity
  // take their row locks in the same order and cannot deadlock each other.
  await knex.raw(`
    CREATE FUNCTION ask_docs_vocabulary_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM ask_docs_vocabulary;
        RETURN NULL;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO ask_docs_vocabulary (entity_ref, term, df)
          SELECT n.entity_ref, n.term, count(*) FROM ask_docs_new_terms n WHERE n.kind = 'w'
           GROUP BY n.entity_ref, n.term ORDER BY n.entity_ref, n.term
        ON CONFLICT (entity_ref, term) DO UPDATE SET df = ask_docs_vocabulary.df + excluded.df;
      END IF;
      IF TG_OP IN ('DELETE', 'UPDATE') THEN
        INSERT INTO ask_docs_vocabulary (entity_ref, term, df)
          SELECT o.entity_ref, o.term, -count(*) FROM ask_docs_old_terms o WHERE o.kind = 'w'
           GROUP BY o.entity_ref, o.term ORDER BY o.entity_ref, o.term
        ON CONFLICT (entity_ref, term) DO UPDATE SET df = ask_docs_vocabulary.df + excluded.df;
        DELETE FROM ask_docs_vocabulary v
         USING (SELECT DISTINCT o.entity_ref, o.term FROM ask_docs_old_terms o WHERE o.kind = 'w') g
         WHERE v.entity_ref = g.entity_ref AND v.term = g.term AND v.df <= 0;
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER ask_docs_terms_vocabulary_insert AFTER INSERT ON ask_docs_terms
      REFERENCING NEW TABLE AS ask_docs_new_terms
      FOR EACH STATEMENT EXECUTE FUNCTION ask_docs_vocabulary_sync()`);
  await knex.raw(`
    CREATE TRIGGER ask_docs_terms_vocabulary_delete AFTER DELETE ON ask_docs_terms
      REFERENCING OLD TABLE AS ask_docs_old_terms
      FOR EACH STATEMENT EXECUTE FUNCTION ask_docs_vocabulary_sync()`);
  await knex.raw(`
    CREATE TRIGGER ask_docs_terms_vocabulary_update AFTER UPDATE ON ask_docs_terms
      REFERENCING OLD TABLE AS ask_docs_old_terms NEW TABLE AS ask_docs_new_terms
      FOR EACH STATEMENT EXECUTE FUNCTION ask_docs_vocabulary_sync()`);
  await knex.raw(`
    CREATE TRIGGER ask_docs_terms_vocabulary_truncate AFTER TRUNCATE ON ask_docs_terms
      FOR EACH STATEMENT EXECUTE FUNCTION ask_docs_vocabulary_sync()`);
}
exports.createVocabularySync = createVocabularySync;

/**
 * Drops the vocabulary with its triggers; migration 0005 replaces it by a view.
 * @param {import('knex').Knex} knex
 */
async function dropVocabulary(knex) {
  for (const op of ['insert', 'delete', 'update', 'truncate']) {
    await knex.raw(
      `DROP TRIGGER IF EXISTS ask_docs_terms_vocabulary_${op} ON ask_docs_terms`,
    );
  }
  await knex.raw('DROP FUNCTION IF EXISTS ask_docs_vocabulary_sync()');
  await knex.schema.dropTableIfExists('ask_docs_vocabulary');
}
exports.dropVocabulary = dropVocabulary;

/** A row's foreign key to its chunk: by id alone (as 0001 made them) or by id and entity. */
const CHUNK_FOREIGN_KEYS = {
  chunk_id:
    'FOREIGN KEY (chunk_id) REFERENCES ask_docs_chunks (chunk_id) ON DELETE CASCADE',
  chunk_entity:
    'FOREIGN KEY (chunk_id, entity_ref) REFERENCES ask_docs_chunks (chunk_id, entity_ref) ' +
    'ON DELETE CASCADE ON UPDATE CASCADE',
};

/**
 * Gives `table` the foreign key `${table}_${key}_foreign` to its chunk in place of the other one
 * (by chunk and entity, a row's entity_ref cannot differ from its chunk's); migration 0005 ties
 * the vectors with it too.
 * @param {import('knex').Knex} knex
 * @param {string} table
 * @param {'chunk_id' | 'chunk_entity'} key
 */
async function setChunkForeignKey(knex, table, key) {
  const other = key === 'chunk_id' ? 'chunk_entity' : 'chunk_id';
  await knex.raw(
    `ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_${other}_foreign`,
  );
  await knex.raw(
    `ALTER TABLE ${table} ADD CONSTRAINT ${table}_${key}_foreign ${CHUNK_FOREIGN_KEYS[key]}`,
  );
}
exports.setChunkForeignKey = setChunkForeignKey;

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  // Repair any drift first, so the constraint below cannot fail on an existing index.
  await knex.raw(`
    UPDATE ask_docs_terms t SET entity_ref = c.entity_ref
      FROM ask_docs_chunks c
     WHERE c.chunk_id = t.chunk_id AND t.entity_ref <> c.entity_ref`);
  await knex.raw(
    'ALTER TABLE ask_docs_chunks ADD CONSTRAINT ask_docs_chunks_chunk_entity' +
      ' UNIQUE (chunk_id, entity_ref)',
  );
  await setChunkForeignKey(knex, 'ask_docs_terms', 'chunk_entity');

  await knex.raw('DROP INDEX IF EXISTS ask_docs_terms_lookup');
  await knex.raw('DROP INDEX IF EXISTS ask_docs_terms_prefix');
  // text_pattern_ops answers both `term = ?` and `term LIKE 'abc%'`.
  await knex.raw(`
    CREATE INDEX ask_docs_terms_by_term ON ask_docs_terms (kind, term text_pattern_ops)
      INCLUDE (entity_ref, chunk_id, tf)`);

  await knex.schema.createTable('ask_docs_vocabulary', t => {
    t.text('entity_ref').notNullable();
    t.text('term').notNullable();
    t.integer('df').notNullable(); // chunks of the entity containing the word
    t.primary(['entity_ref', 'term']);
  });
  // Candidates share the first or the second letter with the misspelt word (typo.ts); both
  // alternatives are prefix lookups on one of these.
  await knex.raw(
    'CREATE INDEX ask_docs_vocabulary_term ON ask_docs_vocabulary (term text_pattern_ops)',
  );
  await knex.raw(
    'CREATE INDEX ask_docs_vocabulary_tail' +
      ' ON ask_docs_vocabulary ((substr(term, 2)) text_pattern_ops)',
  );

  await createVocabularySync(knex);

  await knex.raw(`
    INSERT INTO ask_docs_vocabulary (entity_ref, term, df)
      SELECT entity_ref, term, count(*) FROM ask_docs_terms
       WHERE kind = 'w' GROUP BY entity_ref, term`);
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await dropVocabulary(knex);
  await knex.raw('DROP INDEX IF EXISTS ask_docs_terms_by_term');
  await knex.raw(
    'CREATE INDEX ask_docs_terms_lookup ON ask_docs_terms (kind, term)',
  );
  await knex.raw(
    'CREATE INDEX ask_docs_terms_prefix ON ask_docs_terms (kind, term text_pattern_ops)',
  );
  await setChunkForeignKey(knex, 'ask_docs_terms', 'chunk_id');
  await knex.raw(
    'ALTER TABLE ask_docs_chunks DROP CONSTRAINT IF EXISTS ask_docs_chunks_chunk_entity',
  );
};
