import { type Db, loadConfig, openDatabase } from '@poker-launch/server/admin';
import { type CommandContext, CommandError } from './command.js';
import { databaseNotes } from './database-notice.js';

/**
 * Opens the database the server uses (DATABASE_URL, migrated like at the server's start), runs `work`
 * and closes it, whatever happens. Says on stderr which database, unless it is the default here, and
 * when it had to be created.
 */
export async function withDatabase<T>(context: CommandContext, work: (db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig(context.env);
  const notes = databaseNotes(config.database, { serving: false });
  const database = await openDatabase(config.database).catch((error: unknown) => {
    throw new CommandError(`cannot open the database: ${error instanceof Error ? error.message : error}`);
  });
  for (const note of notes) context.err(note);
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}
