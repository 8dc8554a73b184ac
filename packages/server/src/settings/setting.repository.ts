import { sql } from '#kysely';
import { dialectOf } from '../db/dialect-of.js';
import type { Db } from '../db/schema.js';
import {
  defaultSettings,
  isSettingName,
  SETTING_DEFINITIONS,
  type SettingName,
  type Settings,
} from './settings.js';

/** Current settings: stored values over defaults. Read per request, so CLI changes apply at once. */
export async function loadSettings(db: Db): Promise<Settings> {
  const rows = await db.selectFrom('settings').select(['name', 'value']).execute();
  const settings: Record<string, number | boolean> = { ...defaultSettings() };
  for (const row of rows) {
    if (!isSettingName(row.name)) continue;
    const parsed = SETTING_DEFINITIONS[row.name].parse(row.value);
    if (parsed.ok) settings[row.name] = parsed.value;
  }
  return settings as Settings;
}

/** Stores a value that `parseSetting` accepted. */
export async function saveSetting(db: Db, name: SettingName, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name, value })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value }))
    .execute();
}

/**
 * Keeps every other change of the settings out until the transaction ends, reads going on: a setting
 * still at its default has no row to lock. PostgreSQL; SQLite has one writer at a time (takeWriteLock).
 */
export async function lockSettings(trx: Db): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`lock table settings in share row exclusive mode`.execute(trx);
}
