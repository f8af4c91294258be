// @ts-check
/*
 * A chunk's current text is stored once (decision record 0011, issue 15). Until now every text a
 * chunk had was written to ask_docs_chunk_versions when it was written to ask_docs_chunks, so an
 * ingested index held each current text twice: about 1.4 KB a chunk of the 8 KB it may take all-in.
 * From here the current version lives only in ask_docs_chunks (with the time its text was first
 * seen), and a version is copied to ask_docs_chunk_versions when it is superseded or deleted.
 * An answer's retrieved (chunk id, content hash) is found in the one or the other.
 */

const VERSION_COLUMNS =
  'chunk_id, content_hash, revision, document_id, entity_ref, title, section_path, anchor, text';

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(
    'ALTER TABLE ask_docs_chunks ADD COLUMN first_seen timestamptz NOT NULL DEFAULT now()',
  );
  // The current versions' rows carry when their text was first seen; then they go.
  await knex.raw(
    `UPDATE ask_docs_chunks c SET first_seen = v.first_seen
       FROM ask_docs_chunk_versions v
      WHERE v.chunk_id = c.chunk_id AND v.content_hash = c.content_hash`,
  );
  await knex.raw(
    `DELETE FROM ask_docs_chunk_versions v USING ask_docs_chunks c
      WHERE v.chunk_id = c.chunk_id AND v.content_hash = c.content_hash`,
  );
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw(
    `INSERT INTO ask_docs_chunk_versions (${VERSION_COLUMNS}, first_seen, superseded_at)
     SELECT ${VERSION_COLUMNS}, first_seen, NULL FROM ask_docs_chunks
     ON CONFLICT (chunk_id, content_hash) DO UPDATE SET superseded_at = NULL`,
  );
  await knex.raw('ALTER TABLE ask_docs_chunks DROP COLUMN first_seen');
};
