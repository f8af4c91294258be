// @ts-check
/*
 * Each document records the signature of the language analysis its keyword postings were made
 * with (analyzer code versions, the hunspell dictionary's hash, degraded mode, languages). When
 * the running analyzers' signature differs (a Debian update of hunspell-cs, a new language, a
 * key-format change), ingestion re-analyses the document's chunks even though their text did
 * not change, so queries and postings never disagree on keys. NULL: analysed before this
 * migration, with an unknown signature, so re-analysed once.
 */

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('ask_docs_documents', t => {
    t.text('analysis_signature');
  });
  await knex.schema.alterTable('ask_docs_ingestion_runs', t => {
    t.integer('chunks_reanalysed').notNullable().defaultTo(0);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('ask_docs_ingestion_runs', t => {
    t.dropColumn('chunks_reanalysed');
  });
  await knex.schema.alterTable('ask_docs_documents', t => {
    t.dropColumn('analysis_signature');
  });
};
