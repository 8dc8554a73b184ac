import { type Db, loadConfig, openDatabase } from '@poker-launch/server/admin';
import { type CommandContext, CommandError } from './command.js';

/**
 * Opens the database the server uses (DATABASE_URL, migrated like at the server's start), runs `work`
 * and closes it, whatever happens.
 */
export async function withDatabase<T>(context: CommandContext, work: (db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig(context.env);
  const database = await openDatabase(config.database).catch((error: unknown) => {
    throw new CommandError(`cannot open the database: ${error instanceof Error ? error.message : error}`);
  });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}
