import { resolvePackagePath } from '@backstage/backend-plugin-api';
import fs from 'fs';
import path from 'path';
import { Knex } from 'knex';

/**
 * The knex migrations live in the repository's top-level `migrations/` folder; a published
 * package carries a copy in its own `migrations/` (see `files` in package.json).
 */
export function migrationsDirectory(): string {
  const packaged = resolvePackagePath('@askdocs/plugin-ask-docs-backend', 'migrations');
  if (fs.existsSync(packaged)) {
    return packaged;
  }
  return path.resolve(__dirname, '../../../../migrations');
}

export async function applyDatabaseMigrations(knex: Knex): Promise<void> {
  await knex.migrate.latest({
    directory: migrationsDirectory(),
    tableName: 'ask_docs_knex_migrations',
    loadExtensions: ['.js'],
  });
}

export async function rollbackDatabaseMigrations(knex: Knex): Promise<void> {
  await knex.migrate.rollback(
    {
      directory: migrationsDirectory(),
      tableName: 'ask_docs_knex_migrations',
      loadExtensions: ['.js'],
    },
    true,
  );
}
