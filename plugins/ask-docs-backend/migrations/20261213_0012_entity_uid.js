// @ts-check
/*
 * The catalog's uid of the entity a row was written for. An entity deleted and registered
 * again under the same ref is another entity (another owner, other docs): a listing that names
 * the ref with another uid deletes the stored one's documents, chunks and vectors instead of
 * showing them under the new entity's attributes. Null for rows written before, until the next
 * ingestion run (a null uid is compared with nothing).
 */

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE ask_docs_entities ADD COLUMN entity_uid text');
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE ask_docs_entities DROP COLUMN entity_uid');
};
