import { externalDatabaseId, startTestDatabase } from './testDatabase';

describe('externalDatabaseId', () => {
  it("reads Backstage's connection-string convention for Postgres", () => {
    expect(
      externalDatabaseId({
        BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING: 'postgres://x',
      }),
    ).toBe('POSTGRES_15');
  });

  it('ignores empty values, other engines and look-alike names', () => {
    expect(
      externalDatabaseId({
        BACKSTAGE_TEST_DATABASE_POSTGRES16_CONNECTION_STRING: '',
        BACKSTAGE_TEST_DATABASE_MYSQL8_CONNECTION_STRING: 'mysql://x',
        BACKSTAGE_TEST_DATABASE_POSTGRES16_CONNECTION_STRING_OLD:
          'postgres://x',
        ASK_DOCS_TEST_PG_URL: 'postgres://x',
      }),
    ).toBeUndefined();
  });
});

describe('startTestDatabase', () => {
  it('gives each call its own database', async () => {
    const [a, b] = [await startTestDatabase(), await startTestDatabase()];
    try {
      await a.knex.raw('CREATE TABLE only_in_a (x int)');
      const seen = async (knex: typeof a.knex) =>
        (
          await knex.raw(
            `SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_in_a'`,
          )
        ).rows[0].n;
      expect(await seen(a.knex)).toBe(1);
      expect(await seen(b.knex)).toBe(0);
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 120_000);
});
