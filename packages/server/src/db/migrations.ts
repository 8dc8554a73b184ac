import { type Kysely, type Migration, Migrator } from 'kysely';
import { initialSchema } from './migrations/001-initial-schema.js';
import { sessionPurgeIndexes } from './migrations/002-session-purge-indexes.js';

/** Migrations in order. Names sort as they apply; never rename or edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial_schema': initialSchema,
  '002_session_purge_indexes': sessionPurgeIndexes,
};

/** One migration and whether this database has it. */
export interface MigrationState {
  readonly name: string;
  /** When it was applied; undefined: pending. */
  readonly appliedAt: Date | undefined;
}

/**
 * Applies the pending migrations and returns their names (empty when the schema was up to date). On
 * PostgreSQL, Kysely's migrator holds an advisory lock meanwhile, so instances starting together on an
 * empty database migrate it once: the others wait, then find nothing pending.
 *
 * @param schema PostgreSQL: the schema the tables live in. Named, because without it Kysely takes a
 * migration table in ANY schema of the database (another app's, a parallel test's) for ours.
 */
export async function migrateToLatest<T>(db: Kysely<T>, schema?: string): Promise<string[]> {
  const { error, results = [] } = await migrator(db, schema).migrateToLatest();
  if (error) throw error;
  return results.map((result) => result.migrationName);
}

/** Every migration this version knows, in order, applied or pending. */
export async function migrationStatus<T>(db: Kysely<T>, schema?: string): Promise<MigrationState[]> {
  const migrations = await migrator(db, schema).getMigrations();
  return migrations.map(({ name, executedAt }) => ({ name, appliedAt: executedAt }));
}

function migrator<T>(db: Kysely<T>, schema: string | undefined): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

/** What an operator reads when a command or `serve` finds migrations pending, with what to do. */
export function schemaBehindMessage(pending: readonly MigrationState[]): string {
  const names = pending.map((migration) => migration.name).join(', ');
  return `the database schema is behind this version (pending: ${names}); run "poker-launch migrate" first`;
}
