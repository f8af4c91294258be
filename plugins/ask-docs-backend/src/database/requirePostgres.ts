import { Knex } from 'knex';

/** The knowledge index needs these; anything else fails at start with one clear sentence. */
export const MIN_POSTGRES_VERSION = 13;

const TRIAL_HINT =
  'To try the plugin without a server, run the embedded development database ' +
  '(npx @askdocs/embedded-db, see the backend README).';

/** Start-up refused because the database cannot hold the knowledge index. */
export class DatabaseRequirementError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'DatabaseRequirementError';
  }
}

function clientName(knex: Knex): string {
  const client = knex.client as {
    config?: { client?: unknown };
    dialect?: string;
  };
  const configured = client.config?.client;
  if (typeof configured === 'string') return configured;
  return client.dialect ?? 'unknown';
}

async function firstRow<T>(
  knex: Knex,
  sql: string,
  bindings: string[] = [],
): Promise<T | undefined> {
  const result = await knex.raw(sql, bindings);
  return (result?.rows ?? [])[0] as T | undefined;
}

/**
 * Checks the plugin's database before any migration runs: PostgreSQL 13+ with the `vector`
 * extension created (or creatable) in this database. Runs the one CREATE EXTENSION it needs.
 */
export async function requirePostgresWithVector(knex: Knex): Promise<void> {
  const client = clientName(knex);
  if (!['pg', 'postgres', 'postgresql'].includes(client)) {
    throw new DatabaseRequirementError(
      `ask-docs needs PostgreSQL ${MIN_POSTGRES_VERSION}+ with the pgvector ("vector") ` +
        `extension, but this backend's database client is "${client}"; set ` +
        `backend.database.client to pg and point backend.database.connection at such a server. ` +
        TRIAL_HINT,
    );
  }
  const version = await firstRow<{ server_version_num: string }>(
    knex,
    'SHOW server_version_num',
  );
  const major = Math.floor(Number(version?.server_version_num ?? 0) / 10000);
  if (major < MIN_POSTGRES_VERSION) {
    throw new DatabaseRequirementError(
      `ask-docs needs PostgreSQL ${MIN_POSTGRES_VERSION}+ with the pgvector extension, ` +
        `but the server is PostgreSQL ${major || 'of an unknown version'}.`,
    );
  }
  const installed = await firstRow(
    knex,
    `SELECT 1 FROM pg_extension WHERE extname = 'vector'`,
  );
  if (installed) return;
  const available = await firstRow(
    knex,
    `SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`,
  );
  const where = await firstRow<{ db: string; role: string }>(
    knex,
    'SELECT current_database() AS db, current_user AS role',
  );
  if (!available) {
    throw new DatabaseRequirementError(
      `ask-docs needs the pgvector extension, which is not installed on this PostgreSQL ` +
        `server; install pgvector on the server (for example the postgresql-<version>-pgvector ` +
        `package, or from source), then run CREATE EXTENSION vector; in database ` +
        `"${where?.db}". ${TRIAL_HINT}`,
    );
  }
  try {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (error) {
    throw new DatabaseRequirementError(
      `ask-docs needs the pgvector extension in database "${where?.db}", and user ` +
        `"${where?.role}" may not create it (${
          (error as Error).message
        }); an administrator ` +
        `runs: CREATE EXTENSION vector; in database "${where?.db}".`,
      error,
    );
  }
}
