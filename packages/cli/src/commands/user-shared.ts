import { type ApiUser, type Db, loadConfig, openDatabase } from '@poker-launch/server';
import { type CommandContext, CommandError } from '../command.js';

/**
 * Opens the database the server uses (DATABASE_URL, migrated as at the server's start), runs `work`
 * and closes it, whatever happens. Same shape as the CLI-wide helper being written on branch `cli`;
 * once that is merged, the user commands import it instead.
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

/** What a user may do, in one word list: `ROLE_ADMIN`, `CREATE:OpenGame`. */
export function describeAccess(user: ApiUser): string {
  return [...(user.role === null ? [] : [user.role]), ...user.permissions].join(', ') || '(none)';
}
