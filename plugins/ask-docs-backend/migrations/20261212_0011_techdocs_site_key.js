// @ts-check
/*
 * What an entity's TechDocs site was last ingested from in full (its build, and what its pages
 * were parsed, chunked, analysed and embedded with): a run finding the same key reads none of
 * the site's pages again. Null until a run ingests the whole site without an error.
 */

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw('ALTER TABLE ask_docs_entities ADD COLUMN techdocs_site_key text');
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw('ALTER TABLE ask_docs_entities DROP COLUMN techdocs_site_key');
};
