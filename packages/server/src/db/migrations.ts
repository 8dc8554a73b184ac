import { type Kysely, type Migration, Migrator } from 'kysely';
import { initialSchema } from './migrations/001-initial-schema.js';

/** Migrations in order. Names sort as they apply; never rename or edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial_schema': initialSchema,
};

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
