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
