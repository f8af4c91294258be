import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { applyDatabaseMigrations, rollbackDatabaseMigrations } from './migrations';

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await startTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await db?.stop();
  });

  it('applies up, rolls back down and up again', async () => {
    await applyDatabaseMigrations(db.knex);
    expect(await db.knex.schema.hasTable('ask_docs_chunks')).toBe(true);
    expect(await db.knex.schema.hasTable('ask_docs_answers')).toBe(true);
    // pgvector is really there: a cosine distance can be computed.
    const { rows } = await db.knex.raw(`SELECT '[1,0]'::vector <=> '[0,1]'::vector AS d`);
    expect(Number(rows[0].d)).toBeCloseTo(1);

    await rollbackDatabaseMigrations(db.knex);
    for (const t of ['ask_docs_chunks', 'ask_docs_terms', 'ask_docs_embeddings', 'ask_docs_answers', 'ask_docs_entities']) {
      expect(await db.knex.schema.hasTable(t)).toBe(false);
    }

    await applyDatabaseMigrations(db.knex);
    expect(await db.knex.schema.hasTable('ask_docs_terms')).toBe(true);
  });
});
