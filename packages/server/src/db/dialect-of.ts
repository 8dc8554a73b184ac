import { PostgresAdapter } from '#kysely';
import type { Dialect } from './dialect.js';
import type { Db } from './schema.js';

/** Which database a Kysely instance talks to, for the few statements that differ. */
export function dialectOf(db: Db): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
