import {
  type Database,
  type Db,
  loadConfig,
  openDatabase,
  schemaBehindMessage,
} from '@poker-launch/server/admin';
import { type CommandContext, CommandError } from './command.js';

/**
 * Opens the database the server uses (DATABASE_URL), runs `work` and closes it, whatever happens. It
 * never migrates: a schema behind this version is refused with what to run (`poker-launch migrate`).
 */
export async function withDatabase<T>(context: CommandContext, work: (db: Db) => Promise<T>): Promise<T> {
  return withOpenDatabase(context, async (database) => {
    const pending = (await database.migrationStatus()).filter((migration) => !migration.appliedAt);
    if (pending.length > 0) throw new CommandError(schemaBehindMessage(pending));
    return work(database.db);
  });
}

/** The database as it is, whatever its schema (for `migrate` and `backup`). */
export async function withOpenDatabase<T>(
  context: CommandContext,
  work: (database: Database) => Promise<T>,
): Promise<T> {
  const config = loadConfig(context.env);
  const database = await openDatabase(config.database).catch((error: unknown) => {
    throw new CommandError(`cannot open the database: ${messageOf(error)}`);
  });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
