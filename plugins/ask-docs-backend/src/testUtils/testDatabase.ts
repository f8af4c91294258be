import knexFactory, { Knex } from 'knex';
import { startEmbeddedPostgres, EmbeddedPostgres } from '@askdocs/embedded-db';
import { applyDatabaseMigrations } from '../database/migrations';

/**
 * A real Postgres + pgvector for tests. Uses ASK_DOCS_TEST_PG_URL when set (an external server
 * with pgvector), otherwise starts the embedded PGlite server on a free loopback port.
 */
export interface TestDatabase {
  knex: Knex;
  /** Kind of server, for test names and reports. */
  engine: 'external' | 'pglite';
  stop(): Promise<void>;
}

export async function startTestDatabase(
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const external = process.env.ASK_DOCS_TEST_PG_URL;
  let embedded: EmbeddedPostgres | undefined;
  let connection: Knex.StaticConnectionConfig | string;
  if (external) {
    connection = external;
  } else {
    embedded = await startEmbeddedPostgres();
    connection = embedded.connection;
  }
  const knex = knexFactory({
    client: 'pg',
    connection,
    pool: { min: 0, max: 5 },
    acquireConnectionTimeout: 180_000,
  });
  if (options.migrate !== false) {
    await applyDatabaseMigrations(knex);
  }
  return {
    knex,
    engine: external ? 'external' : 'pglite',
    async stop() {
      await knex.destroy();
      await embedded?.stop();
    },
  };
}

/**
 * For one describe block (or file): a test database started before its tests and stopped after
 * them. Read `knex` inside hooks and tests only, once the database has started.
 */
export function useTestDatabase(
  options: { migrate?: boolean; timeoutMs?: number } = {},
): TestDatabase {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await startTestDatabase({ migrate: options.migrate });
  }, options.timeoutMs);
  afterAll(async () => {
    await db?.stop();
  });
  const started = () => {
    if (!db) throw new Error('the test database is not started yet');
    return db;
  };
  return {
    get knex() {
      return started().knex;
    },
    get engine() {
      return started().engine;
    },
    stop: () => started().stop(),
  };
}
