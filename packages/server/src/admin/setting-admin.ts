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
import { suggestion } from '../validation/closest-name.js';
import { type AdminResult, fail, type Refusal, succeed } from './admin-result.js';

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

/**
 * Changes several settings at once, all or none: every value is checked first with its own rule, and
 * one problem changes nothing. Refusals name each setting with what it accepts.
 */
export async function changeSettings(
  db: Db,
  input: { values: Readonly<Record<string, string>> },
): Promise<AdminResult<SettingListing[]>> {
  const problems: string[] = [];
  const parsed: [SettingName, string][] = [];
  for (const [name, text] of Object.entries(input.values)) {
    if (!isSettingName(name)) {
      problems.push(unknownSetting(name).reason);
      continue;
    }
    const result = parseSetting(name, text);
    if (result.ok) parsed.push([name, result.value]);
    else problems.push(`${name} ${result.reason}, got "${text}"`);
  }
  if (problems.length > 0) return fail(problems.join('; '));
  for (const [name, value] of parsed) await saveSetting(db, name, value);
  const settings = await loadSettings(db);
  return succeed(parsed.map(([name]) => toListing(name, settings)));
}

function unknownSetting(name: string): Refusal {
  return fail(
    `no setting "${name}"${suggestion(name, SETTING_NAMES)}; the settings are ${SETTING_NAMES.join(', ')}`,
  );
}

function toListing(name: SettingName, settings: Settings): SettingListing {
  const { defaultValue, description } = SETTING_DEFINITIONS[name];
  return { name, value: String(settings[name]), defaultValue: String(defaultValue), description };
}
