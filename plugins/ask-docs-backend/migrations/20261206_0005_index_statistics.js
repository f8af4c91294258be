// @ts-check
/*
 * Corpus statistics kept per entity, so a query reads a few rows per visible entity instead of
 * counting postings or chunks (decision record 0010, issue 15):
 *
 * - ask_docs_key_stats: chunks of each entity containing each key (all kinds). Keyword df is a
 *   sum over the visible entities' rows; the typo vocabulary is its 'w' part, so the former
 *   ask_docs_vocabulary table becomes a view of it.
 * - ask_docs_entity_totals: chunks and summed chunk lengths per entity, for N and the average
 *   length of BM25 over the asker's visible corpus.
 * - ask_docs_embeddings.entity_ref: tied to the chunk's by a foreign key (as the postings' is),
 *   so the visibility predicate applies to the vectors' own column and a filtered vector search
 *   needs no per-row lookup of the chunk.
 *
 * Both statistics tables are maintained by statement triggers (same transaction, whatever the
 * code path, cascades included). Rows are upserted in key order so concurrent writers of one
 * entity take their row locks in the same order and cannot deadlock each other.
 */

const {
  createVocabularySync,
  dropVocabulary,
  setChunkForeignKey,
} = require('./20261203_0002_postings_by_entity');

/**
 * A table kept in step with another by statement triggers: `fn` keeps `target` (per `keys`, the
 * `sums`: [column, aggregate of alias x]) in step with `table` through its transition tables
 * `newRows` and `oldRows`.
 * @typedef {{ table: string, fn: string, target: string, keys: string[],
 *   sums: Array<[string, string]>, newRows: string, oldRows: string }} CountingSync
 */

/**
 * The plpgsql trigger function of a counting sync: new rows add, old rows subtract, and a row
 * whose first aggregate reaches zero is deleted.
 * @param {CountingSync} o
 */
function countingSync(o) {
  const keys = o.keys.join(', ');
  const cols = [...o.keys, ...o.sums.map(([c]) => c)].join(', ');
  const upsert = (rows, sign) => `
    INSERT INTO ${o.target} (${cols})
      SELECT ${o.keys.map(k => `x.${k}`).join(', ')}, ${o.sums
    .map(([, agg]) => `${sign}${agg}`)
    .join(', ')} FROM ${rows} x
       GROUP BY ${keys} ORDER BY ${keys}
    ON CONFLICT (${keys}) DO UPDATE SET ${o.sums
    .map(([c]) => `${c} = ${o.target}.${c} + excluded.${c}`)
    .join(', ')};`;
  return `
CREATE FUNCTION ${o.fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM ${o.target};
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN${upsert(o.newRows, '')}
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN${upsert(o.oldRows, '-')}
    DELETE FROM ${o.target} t
     USING (SELECT DISTINCT ${keys} FROM ${o.oldRows}) g
     WHERE ${o.keys.map(k => `t.${k} = g.${k}`).join(' AND ')} AND t.${
    o.sums[0][0]
  } <= 0;
  END IF;
  RETURN NULL;
END $$`;
}

/** @type {CountingSync} chunks of each entity containing each key */
const KEY_STATS = {
  table: 'ask_docs_terms',
  fn: 'ask_docs_key_stats_sync',
  target: 'ask_docs_key_stats',
  keys: ['kind', 'term', 'entity_ref'],
  sums: [['df', 'count(*)']],
  newRows: 'ask_docs_new_terms',
  oldRows: 'ask_docs_old_terms',
};

/** @type {CountingSync} chunks and their summed lengths per entity */
const TOTALS = {
  table: 'ask_docs_chunks',
  fn: 'ask_docs_entity_totals_sync',
  target: 'ask_docs_entity_totals',
  keys: ['entity_ref'],
  sums: [
    ['chunks', 'count(*)'],
    ['terms', 'sum(x.term_count)'],
  ],
  newRows: 'ask_docs_new_chunks',
  oldRows: 'ask_docs_old_chunks',
};

/**
 * The sync's trigger function and its statement triggers (with transition tables) on its table.
 * @param {import('knex').Knex} knex
 * @param {CountingSync} o
 */
async function createCountingSync(knex, o) {
  await knex.raw(countingSync(o));
  const { fn, newRows, oldRows } = o;
  const on = `ON ${o.table}`;
  const run = `FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`;
  await knex.raw(`CREATE TRIGGER ${fn}_insert AFTER INSERT ${on}
    REFERENCING NEW TABLE AS ${newRows} ${run}`);
  await knex.raw(`CREATE TRIGGER ${fn}_delete AFTER DELETE ${on}
    REFERENCING OLD TABLE AS ${oldRows} ${run}`);
  await knex.raw(`CREATE TRIGGER ${fn}_update AFTER UPDATE ${on}
    REFERENCING OLD TABLE AS ${oldRows} NEW TABLE AS ${newRows} ${run}`);
  await knex.raw(`CREATE TRIGGER ${fn}_truncate AFTER TRUNCATE ${on} ${run}`);
}

/**
 * Drops the sync's triggers and function (not its target table).
 * @param {import('knex').Knex} knex
 * @param {CountingSync} o
 */
async function dropCountingSync(knex, o) {
  for (const op of ['insert', 'delete', 'update', 'truncate']) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${o.fn}_${op} ON ${o.table}`);
  }
  await knex.raw(`DROP FUNCTION IF EXISTS ${o.fn}()`);
}

/**
 * The key statistics table, its triggers on ask_docs_terms and the vocabulary view; migration
 * 0006 calls it again when migrating down.
 * @param {import('knex').Knex} knex
 */
async function createKeyStatistics(knex) {
  // Keys of every kind, per entity; the vocabulary table's role is taken over below.
  await knex.schema.createTable('ask_docs_key_stats', t => {
    t.string('kind', 1).notNullable();
    t.text('term').notNullable();
    t.text('entity_ref').notNullable();
    t.integer('df').notNullable();
  });
  // text_pattern_ops: one index answers `term = ?` and prefix lookups; also the upsert target.
  await knex.raw(`CREATE UNIQUE INDEX ask_docs_key_stats_key
    ON ask_docs_key_stats (kind, term text_pattern_ops, entity_ref) INCLUDE (df)`);
  // Spelling candidates have the misspelt word's first or second letter as their first or
  // second letter, and a length within the edit distance (typo.ts): equality on the letter and
  // a range on the length, answered from the index alone.
  for (const [name, position] of [
    ['first', 1],
    ['second', 2],
  ]) {
    await knex.raw(`CREATE INDEX ask_docs_key_stats_word_${name}_letter
      ON ask_docs_key_stats ((substr(term, ${position}, 1)), (char_length(term)))
      INCLUDE (term, entity_ref, df) WHERE kind = 'w'`);
  }
  await createCountingSync(knex, KEY_STATS);
  // The surface words of each entity (typo vocabulary), as before.
  await knex.raw(`CREATE VIEW ask_docs_vocabulary AS
    SELECT entity_ref, term, df FROM ask_docs_key_stats WHERE kind = 'w'`);
}
exports.createKeyStatistics = createKeyStatistics;
exports.KEY_STATS = KEY_STATS;
exports.dropCountingSync = dropCountingSync;

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await dropVocabulary(knex);
  await createKeyStatistics(knex);
  await knex.raw(`INSERT INTO ask_docs_key_stats (kind, term, entity_ref, df)
    SELECT kind, term, entity_ref, count(*) FROM ask_docs_terms GROUP BY kind, term, entity_ref`);

  await knex.schema.createTable('ask_docs_entity_totals', t => {
    t.text('entity_ref').primary();
    t.integer('chunks').notNullable();
    t.bigInteger('terms').notNullable();
  });
  await knex.raw(`INSERT INTO ask_docs_entity_totals (entity_ref, chunks, terms)
    SELECT entity_ref, count(*), sum(term_count) FROM ask_docs_chunks GROUP BY entity_ref`);
  await createCountingSync(knex, TOTALS);

  // Postings by key, then entity: a user who sees few entities seeks to their postings instead
  // of reading every entity's and filtering (the visibility predicate lists the entities).
  await knex.raw('DROP INDEX IF EXISTS ask_docs_terms_by_term');
  await knex.raw(`CREATE INDEX ask_docs_terms_by_term
    ON ask_docs_terms (kind, term text_pattern_ops, entity_ref) INCLUDE (chunk_id, tf)`);

  await knex.raw('ALTER TABLE ask_docs_embeddings ADD COLUMN entity_ref text');
  await knex.raw(`UPDATE ask_docs_embeddings e SET entity_ref = c.entity_ref
    FROM ask_docs_chunks c WHERE c.chunk_id = e.chunk_id`);
  await knex.raw(
    'ALTER TABLE ask_docs_embeddings ALTER COLUMN entity_ref SET NOT NULL',
  );
  await setChunkForeignKey(knex, 'ask_docs_embeddings', 'chunk_entity');
  // Exact search over the vectors of the few visible entities reads just theirs.
  await knex.raw(
    'CREATE INDEX ask_docs_embeddings_entity ON ask_docs_embeddings (entity_ref, model_id)',
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw('DROP INDEX IF EXISTS ask_docs_embeddings_entity');
  await knex.raw('DROP INDEX IF EXISTS ask_docs_terms_by_term');
  await knex.raw(`CREATE INDEX ask_docs_terms_by_term
    ON ask_docs_terms (kind, term text_pattern_ops) INCLUDE (entity_ref, chunk_id, tf)`);
  await setChunkForeignKey(knex, 'ask_docs_embeddings', 'chunk_id');
  await knex.raw('ALTER TABLE ask_docs_embeddings DROP COLUMN entity_ref');
  await dropCountingSync(knex, TOTALS);
  await knex.schema.dropTableIfExists('ask_docs_entity_totals');
  await dropCountingSync(knex, KEY_STATS);
  await knex.raw('DROP VIEW IF EXISTS ask_docs_vocabulary');
  await knex.schema.createTable('ask_docs_vocabulary', t => {
    t.text('entity_ref').notNullable();
    t.text('term').notNullable();
    t.integer('df').notNullable();
    t.primary(['entity_ref', 'term']);
  });
  await knex.raw(`INSERT INTO ask_docs_vocabulary (entity_ref, term, df)
    SELECT entity_ref, term, df FROM ask_docs_key_stats WHERE kind = 'w'`);
  await knex.schema.dropTableIfExists('ask_docs_key_stats');
  await createVocabularySync(knex);
};
