// @ts-check
/*
 * Visibility attributes kept fresh and compared without query-time case folding
 * (docs/architecture.md, "Visibility attributes"):
 *
 * - *_key columns: refs and attribute values case-folded once, in JavaScript, when the row is
 *   written. The visibility predicate compares them with folded parameters and never calls
 *   lower(), whose result depends on the database's collation and ctype.
 * - attributes_hash: what the entity-attribute sync compares to skip unchanged rows. NULL means
 *   "written before this migration": such a row is invisible until a sync or ingestion run
 *   rewrites it, because its keys are missing.
 * - attributes_at: start of the catalog listing the attributes came from; an older listing never
 *   overwrites a newer one. deleted_at: no longer in the catalog (hidden; ingestion deletes it).
 * - ask_docs_visibility_sync: one row, the start of the last complete successful listing and the
 *   staleness the plugin tolerates (NULL: the guard is off, as for fixtures without a plugin).
 */

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.schema.alterTable('ask_docs_entities', t => {
    t.text('ref_key');
    t.text('kind_key');
    t.text('namespace_key');
    t.text('name_key');
    t.specificType('owner_keys', 'text[]');
    t.specificType('tag_keys', 'text[]');
    t.jsonb('label_keys');
    t.jsonb('annotation_keys');
    t.jsonb('spec_keys');
    t.text('attributes_hash');
    t.timestamp('attributes_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
  });
  await knex.raw(
    'CREATE INDEX ask_docs_entities_ref_key ON ask_docs_entities (ref_key)',
  );

  await knex.schema.createTable('ask_docs_visibility_sync', t => {
    t.integer('id').primary();
    t.timestamp('last_success_at', { useTz: true });
    t.integer('max_staleness_seconds');
  });
  await knex.raw(
    `ALTER TABLE ask_docs_visibility_sync
       ADD CONSTRAINT ask_docs_visibility_sync_one_row CHECK (id = 1)`,
  );

  // Retention of superseded chunk versions scans by age.
  await knex.raw(
    `CREATE INDEX ask_docs_chunk_versions_superseded ON ask_docs_chunk_versions (superseded_at)
       WHERE superseded_at IS NOT NULL`,
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw('DROP INDEX IF EXISTS ask_docs_chunk_versions_superseded');
  await knex.schema.dropTableIfExists('ask_docs_visibility_sync');
  await knex.raw('DROP INDEX IF EXISTS ask_docs_entities_ref_key');
  await knex.schema.alterTable('ask_docs_entities', t => {
    for (const column of [
      'ref_key',
      'kind_key',
      'namespace_key',
      'name_key',
      'owner_keys',
      'tag_keys',
      'label_keys',
      'annotation_keys',
      'spec_keys',
      'attributes_hash',
      'attributes_at',
      'deleted_at',
    ]) {
      t.dropColumn(column);
    }
  });
};
