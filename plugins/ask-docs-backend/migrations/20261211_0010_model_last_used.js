// @ts-check
/*
 * When an embedding model was last in use, so the vectors of a model no backend instance runs
 * any more can be deleted (askDocs.retention.unusedModelDays). Every instance registers its
 * model at start, at each ingestion run and hourly; models registered before this migration
 * count from it.
 */

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(
    'ALTER TABLE ask_docs_models ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now()',
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE ask_docs_models DROP COLUMN last_used_at');
};
