import {
  type Database,
  type Db,
  loadConfig,
  openDatabase,
  schemaBehindMessage,
} from '@poker-launch/server/admin';
import { type CommandContext, CommandError } from './command.js';
import { databaseNotes } from './database-notice.js';

/**
 * Opens the database the server uses (DATABASE_URL), runs `work` and closes it, whatever happens. It
 * never migrates: a schema behind this version is refused with what to run (`poker-launch migrate`).
 * Says on stderr which database, unless it is the default here, and when it had to be created.
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
  const notes = databaseNotes(config.database, { serving: false });
  const database = await openDatabase(config.database).catch((error: unknown) => {
    throw new CommandError(`cannot open the database: ${messageOf(error)}`);
  });
  for (const note of notes) context.err(note);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
