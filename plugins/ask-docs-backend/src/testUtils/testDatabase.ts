import knexFactory, { Knex } from 'knex';
import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import { startEmbeddedPostgres } from '@askdocs/embedded-db';
import { applyDatabaseMigrations } from '../database/migrations';

/**
 * A real Postgres + pgvector for tests. With Backstage's own convention,
 * `BACKSTAGE_TEST_DATABASE_POSTGRES<N>_CONNECTION_STRING`, an external server (pgvector installed,
 * the role may CREATE DATABASE) gives every call a fresh database through `TestDatabases`, so
 * suites running side by side never share tables. Otherwise each call starts the embedded PGlite
 * server on a free loopback port (PGlite holds one database: a server per call instead).
 */
export interface TestDatabase {
  knex: Knex;
  /** Kind of server, for test names and reports. */
  engine: 'external' | 'pglite';
  stop(): Promise<void>;
}

const CONNECTION_VARIABLE =
  /^BACKSTAGE_TEST_DATABASE_(POSTGRES(\d+))_CONNECTION_STRING$/;

/** The Postgres id whose connection variable is set ('POSTGRES_16' for ..._POSTGRES16_...). */
export function externalDatabaseId(
  env: NodeJS.ProcessEnv = process.env,
): TestDatabaseId | undefined {
  for (const [name, value] of Object.entries(env)) {
    const match = value ? CONNECTION_VARIABLE.exec(name) : null;
    if (match) return `POSTGRES_${match[2]}` as TestDatabaseId;
  }
  return undefined;
}

const externalId = externalDatabaseId();
// Created while the test file is collected: TestDatabases registers the afterAll that drops the
// databases it made, which jest refuses from inside a hook. Scripts outside jest have no afterAll.
const externalDatabases =
  externalId && typeof afterAll === 'function'
    ? TestDatabases.create({ ids: [externalId], disableDocker: true })
    : undefined;

export async function startTestDatabase(
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  let knex: Knex;
  let stopServer = async () => {};
  if (externalId) {
    if (!externalDatabases) {
      throw new Error(
        `${externalId}: an external test database needs jest (afterAll)`,
      );
    }
    knex = await externalDatabases.init(externalId);
  } else {
    const embedded = await startEmbeddedPostgres();
    knex = knexFactory({
      client: 'pg',
      connection: embedded.connection,
      pool: { min: 0, max: 5 },
      acquireConnectionTimeout: 180_000,
    });
    stopServer = () => embedded.stop();
  }
  if (options.migrate !== false) {
    await applyDatabaseMigrations(knex);
  }
  return {
    knex,
    engine: externalId ? 'external' : 'pglite',
    async stop() {
      // TestDatabases destroys its own connections and drops the database after the file.
      if (!externalId) await knex.destroy();
      await stopServer();
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
