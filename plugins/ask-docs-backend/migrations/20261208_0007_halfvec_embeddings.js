// @ts-check
/*
 * Vectors as halfvec (16-bit floats) in the table and in the HNSW graphs (decision record 0011,
 * issue 15): at 100k chunks of 384 dimensions the vectors and their graph took about 4 KB per
 * chunk, half of the 8 KB a chunk may take all-in. Cosine distances change in the fourth decimal.
 *
 * The per-model HNSW indexes were built over `embedding::vector(n)`; queries now order by
 * `embedding::halfvec(n)`, which those indexes cannot serve, so they are dropped here. The plugin
 * builds the new one at start (ensureVectorIndex); until then vector search is exact.
 */

/** @param {import('knex').Knex} knex @param {string} type */
async function retype(knex, type) {
  const { rows } = await knex.raw(
    `SELECT indexname FROM pg_indexes
      WHERE tablename = 'ask_docs_embeddings' AND indexname LIKE 'ask\\_docs\\_emb\\_hnsw\\_%'`,
  );
  for (const { indexname } of rows) {
    await knex.raw(`DROP INDEX IF EXISTS "${indexname.replace(/"/g, '""')}"`);
  }
  await knex.raw(
    `ALTER TABLE ask_docs_embeddings ALTER COLUMN embedding TYPE ${type} USING embedding::${type}`,
  );
}

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await retype(knex, 'halfvec');
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await retype(knex, 'vector');
};
