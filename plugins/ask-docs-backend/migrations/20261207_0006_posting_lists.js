// @ts-check
/*
 * Keyword postings as one posting list per (key, entity) instead of one row per (chunk, key)
 * (decision record 0011, issue 15). At 100k chunks the rows took about 85 KB per chunk (31 M
 * rows, each with text ids and two btree entries); lists take a few bytes per posting.
 *
 * - ask_docs_keys: the dictionary of (kind, term) keys, numbered. Prefix lookups and the typo
 *   vocabulary read it; it says nothing about who may see a key: every read joins the visible
 *   posting lists.
 * - ask_docs_postings: per key and entity, the entity's chunks containing the key as a byte list
 *   (src/database/postingList.ts) and their count (df). The visibility predicate applies to the
 *   list's entity, by number.
 * - ask_docs_chunks.chunk_no, key_ids: the chunk's number in the lists, and its keys, so a
 *   rewrite takes a chunk out of exactly its lists.
 * - ask_docs_entities.entity_no: the entity's number (4 bytes in each list instead of its ref).
 *
 * The store writes the lists (one writer per entity at a time, by an advisory lock); they
 * replace ask_docs_terms, its key statistics and the vocabulary view. The entity totals of
 * 0005 stay as they are.
 */

const {
  createKeyStatistics,
  dropCountingSync,
  KEY_STATS,
} = require('./20261206_0005_index_statistics');

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(
    'ALTER TABLE ask_docs_entities ADD COLUMN entity_no integer GENERATED ALWAYS AS IDENTITY',
  );
  await knex.raw(
    'ALTER TABLE ask_docs_entities ADD CONSTRAINT ask_docs_entities_entity_no UNIQUE (entity_no)',
  );
  await knex.raw(
    'ALTER TABLE ask_docs_chunks ADD COLUMN chunk_no integer GENERATED ALWAYS AS IDENTITY',
  );
  await knex.raw(
    'ALTER TABLE ask_docs_chunks ADD CONSTRAINT ask_docs_chunks_chunk_no UNIQUE (chunk_no)',
  );
  await knex.raw('ALTER TABLE ask_docs_chunks ADD COLUMN key_ids bytea');

  await knex.raw(`CREATE TABLE ask_docs_keys (
    key_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('l', 's', 'w')),
    term text NOT NULL)`);
  // text_pattern_ops: equality and prefix (LIKE 'abc%') lookups from one index.
  await knex.raw(`CREATE UNIQUE INDEX ask_docs_keys_term
    ON ask_docs_keys (kind, term text_pattern_ops) INCLUDE (key_id)`);
  // Spelling candidates share the misspelt word's first or second letter as their first or
  // second letter and have a length within the edit distance (typo.ts).
  for (const [name, position] of [
    ['first', 1],
    ['second', 2],
  ]) {
    await knex.raw(`CREATE INDEX ask_docs_keys_word_${name}_letter
      ON ask_docs_keys ((substr(term, ${position}, 1)), (char_length(term)))
      INCLUDE (key_id, term) WHERE kind = 'w'`);
  }

  await knex.raw(`CREATE TABLE ask_docs_postings (
    key_id integer NOT NULL REFERENCES ask_docs_keys (key_id),
    entity_no integer NOT NULL
      REFERENCES ask_docs_entities (entity_no) ON DELETE CASCADE,
    df integer NOT NULL CHECK (df > 0),
    postings bytea NOT NULL,
    PRIMARY KEY (key_id, entity_no) INCLUDE (df))`);

  // Backfill in SQL, in the list format 0 (int4s as int4send writes them); the store rewrites a
  // list in the compact format 1 whenever it changes.
  await knex.raw(`INSERT INTO ask_docs_keys (kind, term)
    SELECT DISTINCT kind, term FROM ask_docs_terms ORDER BY kind, term`);
  await knex.raw(`INSERT INTO ask_docs_postings (key_id, entity_no, df, postings)
    SELECT k.key_id, e.entity_no, count(*),
           '\\x00'::bytea || string_agg(
             int4send(c.chunk_no) || int4send(t.tf) || int4send(c.term_count), ''::bytea
             ORDER BY c.chunk_no)
      FROM ask_docs_terms t
      JOIN ask_docs_keys k ON k.kind = t.kind AND k.term = t.term
      JOIN ask_docs_chunks c ON c.chunk_id = t.chunk_id
      JOIN ask_docs_entities e ON e.entity_ref = c.entity_ref
     GROUP BY k.key_id, e.entity_no`);
  await knex.raw(`UPDATE ask_docs_chunks c SET key_ids = x.ids
    FROM (SELECT t.chunk_id,
                 '\\x00'::bytea
                   || string_agg(int4send(k.key_id), ''::bytea ORDER BY k.key_id) AS ids
            FROM ask_docs_terms t JOIN ask_docs_keys k ON k.kind = t.kind AND k.term = t.term
           GROUP BY t.chunk_id) x
   WHERE x.chunk_id = c.chunk_id`);

  await knex.raw('DROP VIEW IF EXISTS ask_docs_vocabulary');
  await dropCountingSync(knex, KEY_STATS);
  await knex.schema.dropTableIfExists('ask_docs_key_stats');
  await knex.schema.dropTableIfExists('ask_docs_terms');
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  // The lists are not turned back into rows: every document is marked for re-analysis, so the
  // next ingestion run writes the 0005 postings again (documentStates compares signatures).
  await knex.raw(`CREATE TABLE ask_docs_terms (
    chunk_id text NOT NULL,
    entity_ref text NOT NULL,
    lang text NOT NULL,
    kind varchar(1) NOT NULL,
    term text NOT NULL,
    tf integer NOT NULL,
    PRIMARY KEY (chunk_id, kind, term),
    CONSTRAINT ask_docs_terms_chunk_entity_foreign FOREIGN KEY (chunk_id, entity_ref)
      REFERENCES ask_docs_chunks (chunk_id, entity_ref) ON DELETE CASCADE ON UPDATE CASCADE)`);
  await knex.raw(`CREATE INDEX ask_docs_terms_by_term
    ON ask_docs_terms (kind, term text_pattern_ops, entity_ref) INCLUDE (chunk_id, tf)`);
  await createKeyStatistics(knex);
  await knex.raw('UPDATE ask_docs_documents SET analysis_signature = NULL');
  await knex.schema.dropTableIfExists('ask_docs_postings');
  await knex.schema.dropTableIfExists('ask_docs_keys');
  await knex.raw('ALTER TABLE ask_docs_chunks DROP COLUMN key_ids');
  await knex.raw('ALTER TABLE ask_docs_chunks DROP COLUMN chunk_no');
  await knex.raw('ALTER TABLE ask_docs_entities DROP COLUMN entity_no');
};
