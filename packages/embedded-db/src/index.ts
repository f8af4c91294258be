/**
 * Postgres with pgvector for development and tests, without an external server:
 * PGlite (Postgres compiled to WASM) with its vector extension, served over the Postgres
 * wire protocol so the backend and knex connect exactly as they would to a real server.
 */
export {
  startEmbeddedPostgres,
  embeddedServerScript,
} from './startEmbeddedPostgres';
export type {
  EmbeddedPostgres,
  EmbeddedPostgresOptions,
} from './startEmbeddedPostgres';
