import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { Knex } from 'knex';

/**
 * The knex migrations ship inside this package (`migrations/`, listed in `files`), so an installed
 * tarball and the monorepo resolve them the same way.
 */
export function migrationsDirectory(): string {
  return resolvePackagePath('@askdocs/plugin-ask-docs-backend', 'migrations');
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
