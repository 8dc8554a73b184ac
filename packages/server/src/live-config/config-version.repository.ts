import type { CompiledQuery } from '#kysely';
import type { Db } from '../db/schema.js';

/**
 * The query compiled once per database: polled four times a second, Kysely's building and compiling of
 * it had been 0.3–0.4 % of a v2 launch's event loop under load (CPU profile, docs/performance.md).
 */
const compiled = new WeakMap<Db, CompiledQuery<{ version: number | string }>>();

/** The counter triggers bump on every change to clients, settings, active currencies and API users. */
export async function readConfigVersion(db: Db): Promise<string> {
  let query = compiled.get(db);
  if (query === undefined) {
    query = db.selectFrom('config_version').select('version').where('id', '=', 1).compile();
    compiled.set(db, query);
  }
  const [row] = (await db.executeQuery(query)).rows;
  return String(row?.version ?? 0);
}
