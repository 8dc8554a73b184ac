import { type Kysely, type Migration, Migrator } from 'kysely';
import type { Dialect } from './dialect.js';
import { initialSchema } from './migrations/001-initial-schema.js';
import { liveConfigAndSessionWriter } from './migrations/002-live-config-and-session-writer.js';
import { previousSecret } from './migrations/003-previous-secret.js';

/** Migrations in order. Names sort as they apply; never rename or edit one that has shipped. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '001_initial_schema': initialSchema,
    '002_live_config_and_session_writer': liveConfigAndSessionWriter(dialect),
    '003_previous_secret': previousSecret,
  };
}

/**
 * @param schema PostgreSQL: the schema the tables live in. Named, because without it Kysely takes a
 * migration table in ANY schema of the database (another app's, a parallel test's) for ours.
 */
export async function migrateToLatest<T>(db: Kysely<T>, dialect: Dialect, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
