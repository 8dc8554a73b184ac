import { type Kysely, type Migration, Migrator } from 'kysely';
import { initialSchema } from './migrations/001-initial-schema.js';
import { previousSecret } from './migrations/002-previous-secret.js';

/** Migrations in order. Names sort as they apply; never rename or edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial_schema': initialSchema,
  '002_previous_secret': previousSecret,
};

/**
 * @param schema PostgreSQL: the schema the tables live in. Named, because without it Kysely takes a
 * migration table in ANY schema of the database (another app's, a parallel test's) for ours.
 */
export async function migrateToLatest<T>(db: Kysely<T>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
