import type { Db } from '../db/schema.js';
import { loadSettings, saveSetting } from '../settings/setting.repository.js';
import {
  isSettingName,
  parseSetting,
  SETTING_DEFINITIONS,
  SETTING_NAMES,
  type SettingName,
  type Settings,
} from '../settings/settings.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

export interface SettingListing {
  name: SettingName;
  value: string;
  defaultValue: string;
  description: string;
}

export async function listSettings(db: Db): Promise<SettingListing[]> {
  const settings = await loadSettings(db);
  return SETTING_NAMES.map((name) => toListing(name, settings));
}

export async function getSetting(db: Db, name: string): Promise<AdminResult<SettingListing>> {
  if (!isSettingName(name)) return unknownSetting(name);
  return succeed(toListing(name, await loadSettings(db)));
}

/** Validates with the setting's own rule and stores it; running servers read it on their next request. */
export async function changeSetting(
  db: Db,
  name: string,
  text: string,
): Promise<AdminResult<SettingListing>> {
  if (!isSettingName(name)) return unknownSetting(name);
  const parsed = parseSetting(name, text);
  if (!parsed.ok) return fail(`${name} ${parsed.reason}, got "${text}"`);
  await saveSetting(db, name, parsed.value);
  return getSetting(db, name);
}

function unknownSetting(name: string): AdminResult<never> {
  return fail(`no setting "${name}"; the settings are ${SETTING_NAMES.join(', ')}`);
}

function toListing(name: SettingName, settings: Settings): SettingListing {
  const { defaultValue, description } = SETTING_DEFINITIONS[name];
  return { name, value: String(settings[name]), defaultValue: String(defaultValue), description };
}
