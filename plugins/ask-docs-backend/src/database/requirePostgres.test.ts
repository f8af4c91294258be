import knexFactory, { Knex } from 'knex';
import { useTestDatabase } from '../testUtils/testDatabase';
import {
  DatabaseRequirementError,
  requirePostgresWithVector,
} from './requirePostgres';

/** A pg-dialect knex whose catalogue answers are scripted (for servers we cannot start here). */
function scriptedPostgres(answers: {
  version: string;
  installed: boolean;
  available: boolean;
  /** pgvector's extversion once installed (default 0.8.1). */
  vectorVersion?: string;
}) {
  const executed: string[] = [];
  const raw = async (sql: string) => {
    executed.push(sql);
    if (sql.startsWith('SHOW server_version_num'))
      return { rows: [{ server_version_num: answers.version }] };
    if (sql.includes('to_regtype'))
      return { rows: [{ found: true, schema: 'public', path: 'public' }] };
    if (sql.includes('FROM pg_extension'))
      return {
        rows: answers.installed
          ? [{ extversion: answers.vectorVersion ?? '0.8.1' }]
          : [],
      };
    if (sql.includes('pg_available_extensions'))
      return { rows: answers.available ? [{}] : [] };
    if (sql.includes('current_database'))
      return { rows: [{ db: 'backstage_plugin_ask-docs', role: 'app' }] };
    throw new Error(`unexpected SQL ${sql}`);
  };
  return {
    knex: { client: { config: { client: 'pg' } }, raw } as unknown as Knex,
    executed,
  };
}

describe('requirePostgresWithVector', () => {
  it('refuses SQLite at once with one sentence naming the client and what is needed', async () => {
    const sqlite = knexFactory({
      client: 'better-sqlite3',
      connection: ':memory:',
      useNullAsDefault: true,
    });
    try {
      const error = await requirePostgresWithVector(sqlite).catch(e => e);
      expect(error).toBeInstanceOf(DatabaseRequirementError);
      expect(error.message).toMatch(
        /needs PostgreSQL 13\+ with the pgvector \("vector"\) extension/,
      );
      expect(error.message).toMatch(/database client is "better-sqlite3"/);
      expect(error.message).toMatch(/npx @askdocs\/embedded-db/);
      expect(error.message).not.toMatch(/EXTENSION"?: syntax error/);
    } finally {
      await sqlite.destroy();
    }
  });

  it('refuses a server older than PostgreSQL 13', async () => {
    const { knex } = scriptedPostgres({
      version: '120011',
      installed: true,
      available: true,
    });
    await expect(requirePostgresWithVector(knex)).rejects.toThrow(
      /server is PostgreSQL 12/,
    );
  });

  it('refuses pgvector older than 0.7 (no halfvec), naming the SQL that updates it', async () => {
    // PostgreSQL 15 with this pgvector installed.
    const check = (vectorVersion: string) =>
      requirePostgresWithVector(
        scriptedPostgres({
          version: '150004',
          installed: true,
          available: true,
          vectorVersion,
        }).knex,
      );
    for (const vectorVersion of ['0.6.2', '0.5.1', 'weird']) {
      await expect(check(vectorVersion)).rejects.toThrow(
        new RegExp(
          /needs pgvector 0\.7\.0 or newer.*ALTER EXTENSION vector UPDATE; /
            .source + /in database "backstage_plugin_ask-docs"/.source,
        ),
      );
    }
    for (const vectorVersion of ['0.7.0', '0.8.1', '1.0']) {
      await expect(check(vectorVersion)).resolves.toBeUndefined();
    }
  });

  it('names the install step and the SQL when pgvector is not on the server', async () => {
    const { knex, executed } = scriptedPostgres({
      version: '150004',
      installed: false,
      available: false,
    });
    await expect(requirePostgresWithVector(knex)).rejects.toThrow(
      new RegExp(
        /not installed on this PostgreSQL server.*CREATE EXTENSION vector; /
          .source + /in database "backstage_plugin_ask-docs"/.source,
      ),
    );
    expect(executed.some(sql => sql.startsWith('CREATE EXTENSION'))).toBe(
      false,
    );
  });

  describe('on a real server', () => {
    const db = useTestDatabase({ migrate: false });

    it('creates the extension when it may and then passes', async () => {
      await requirePostgresWithVector(db.knex);
      const { rows } = await db.knex.raw(
        `SELECT 1 FROM pg_extension WHERE extname = 'vector'`,
      );
      expect(rows).toHaveLength(1);
      await expect(requirePostgresWithVector(db.knex)).resolves.toBeUndefined();
    });

    it('names the schema to move pgvector to when it is not on the search_path', async () => {
      await requirePostgresWithVector(db.knex);
      const { rows } = await db.knex.raw(
        `SELECT n.nspname AS schema, current_database() AS db FROM pg_extension e
           JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
      );
      // As Backstage connects a plugin in pluginDivisionMode: schema.
      await db.knex.raw('CREATE SCHEMA IF NOT EXISTS ask_docs_own');
      const own = knexFactory({
        ...db.knex.client.config,
        searchPath: ['ask_docs_own'],
        pool: { min: 1, max: 1 },
      });
      try {
        const error = await requirePostgresWithVector(own).catch(e => e);
        expect(error).toBeInstanceOf(DatabaseRequirementError);
        expect(error.message).toContain(
          `database "${rows[0].db}" has the extension in schema "${rows[0].schema}" and ` +
            `the path is "ask_docs_own"`,
        );
        expect(error.message).toContain(
          'an administrator runs: ALTER EXTENSION vector SET SCHEMA "ask_docs_own";',
        );
      } finally {
        await own.destroy();
        await db.knex.raw('DROP SCHEMA IF EXISTS ask_docs_own');
      }
    });

    it('tells the administrator which SQL to run when the user may not create it', async () => {
      // One connection, so SET ROLE holds for every statement the check sends.
      const other = knexFactory({
        ...db.knex.client.config,
        pool: { min: 1, max: 1 },
      });
      try {
        await other.raw('DROP EXTENSION IF EXISTS vector');
        // Roles belong to the whole server: an external one may still have it from a run that
        // stopped before its clean-up.
        await other.raw('DROP ROLE IF EXISTS ask_docs_unprivileged');
        await other.raw('CREATE ROLE ask_docs_unprivileged NOSUPERUSER');
        await other.raw('SET ROLE ask_docs_unprivileged');
        const { rows } = await other.raw('SELECT current_database() AS db');
        const error = await requirePostgresWithVector(other).catch(e => e);
        expect(error).toBeInstanceOf(DatabaseRequirementError);
        expect(error.message).toContain(
          `user "ask_docs_unprivileged" may not create it (`,
        );
        expect(error.message).toContain(
          `an administrator runs: CREATE EXTENSION vector; in database "${rows[0].db}"`,
        );
      } finally {
        await other.raw('RESET ROLE').catch(() => {});
        await other
          .raw('DROP ROLE IF EXISTS ask_docs_unprivileged')
          .catch(() => {});
        await other.destroy();
      }
    });
  });
});
