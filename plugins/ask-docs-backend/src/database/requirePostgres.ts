import { Knex } from 'knex';

/** The knowledge index needs these; anything else fails at start with one clear sentence. */
export const MIN_POSTGRES_VERSION = 13;
/** Vectors are stored as halfvec (migration 0007), which pgvector has since 0.7. */
export const MIN_PGVECTOR_VERSION = [0, 7, 0];

/** Whether a pgvector `extversion` ("0.8.1") is at least MIN_PGVECTOR_VERSION. */
export function pgvectorSupported(version: string | undefined): boolean {
  const parts = (version ?? '').split('.').map(p => Number.parseInt(p, 10));
  if (parts.length < 2 || parts.some(p => !Number.isInteger(p))) return false;
  for (let i = 0; i < MIN_PGVECTOR_VERSION.length; i++) {
    const have = parts[i] ?? 0;
    if (have !== MIN_PGVECTOR_VERSION[i]) return have > MIN_PGVECTOR_VERSION[i];
  }
  return true;
}

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
  const installed = await installedPgvector(knex);
  if (installed) {
    await assertPgvectorVersion(knex, installed.extversion);
    await assertVectorOnSearchPath(knex);
    return;
  }
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
    await assertPgvectorVersion(
      knex,
      (
        await installedPgvector(knex)
      )?.extversion,
    );
    await assertVectorOnSearchPath(knex);
  } catch (error) {
    if (error instanceof DatabaseRequirementError) throw error;
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

/**
 * The plugin's tables and queries name pgvector's types and operators unqualified, so its schema
 * must be on the connection's search_path. It is not when an administrator created the extension
 * in "public" and Backstage gives each plugin a schema of its own
 * (backend.database.pluginDivisionMode: schema): then every migration would fail on a type
 * "vector" that does not exist.
 */
async function assertVectorOnSearchPath(knex: Knex) {
  const row = await firstRow<{
    found: boolean;
    schema: string | null;
    path: string;
    db: string;
  }>(
    knex,
    `SELECT to_regtype('vector') IS NOT NULL AS found,
            (SELECT n.nspname FROM pg_extension e
               JOIN pg_namespace n ON n.oid = e.extnamespace
              WHERE e.extname = 'vector') AS schema,
            array_to_string(current_schemas(false), ',') AS path,
            current_database() AS db`,
  );
  if (!row || row.found) return;
  const path = (row.path ?? '').split(',').filter(Boolean);
  const own = path[0];
  throw new DatabaseRequirementError(
    `ask-docs needs pgvector's types on its connection's search_path, but database ` +
      `"${row.db}" has the extension in schema "${row.schema}" and the path is ` +
      `${path.length ? path.map(s => `"${s}"`).join(', ') : 'empty'} ` +
      `(backend.database.pluginDivisionMode: schema gives each plugin its own schema); ` +
      (own
        ? `an administrator runs: ALTER EXTENSION vector SET SCHEMA "${own}"; in database ` +
          `"${row.db}" when nothing else there uses it, or `
        : '') +
      `the plugin keeps a database of its own (pluginDivisionMode: database, the default).`,
  );
}

function installedPgvector(knex: Knex) {
  return firstRow<{ extversion?: string }>(
    knex,
    `SELECT extversion FROM pg_extension WHERE extname = 'vector'`,
  );
}

async function assertPgvectorVersion(knex: Knex, version: string | undefined) {
  if (pgvectorSupported(version)) return;
  const where = await firstRow<{ db: string }>(
    knex,
    'SELECT current_database() AS db, current_user AS role',
  );
  const have = version ?? 'of an unknown version';
  throw new DatabaseRequirementError(
    `ask-docs needs pgvector ${MIN_PGVECTOR_VERSION.join(
      '.',
    )} or newer (it stores ` +
      `vectors as halfvec), but database "${where?.db}" has pgvector ${have}; install a ` +
      `newer pgvector on the server, then an administrator runs: ALTER EXTENSION vector ` +
      `UPDATE; in database "${where?.db}".`,
  );
}
