import type { Db } from '../db/schema.js';

/** The counter triggers bump on every change to clients, settings, active currencies and API users. */
export async function readConfigVersion(db: Db): Promise<string> {
  const row = await db.selectFrom('config_version').select('version').where('id', '=', 1).executeTakeFirst();
  return String(row?.version ?? 0);
}
