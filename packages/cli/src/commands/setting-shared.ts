import type { SettingListing } from '@poker-launch/server/admin';

/**
 * A setting as --json prints it, typed for scripts: every setting is a whole number or true/false, whose
 * text is its JSON.
 */
export function settingAsJson(setting: SettingListing) {
  return {
    ...setting,
    value: JSON.parse(setting.value) as number | boolean,
    defaultValue: JSON.parse(setting.defaultValue) as number | boolean,
  };
}
