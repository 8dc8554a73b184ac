/** The operator's settings, by the names the spec and docs/design.md use. */
interface SettingDefinition<T> {
  readonly description: string;
  readonly defaultValue: T;
  parse(text: string): { ok: true; value: T } | { ok: false; reason: string };
  format(value: T): string;
}

function integerSetting(
  description: string,
  defaultValue: number,
  min: number,
  max: number,
): SettingDefinition<number> {
  return {
    description,
    defaultValue,
    parse(text) {
      const value = Number(text);
      return /^\d+$/.test(text.trim()) && value >= min && value <= max
        ? { ok: true, value }
        : { ok: false, reason: `must be a whole number from ${min} to ${max}` };
    },
    format: String,
  };
}

function booleanSetting(description: string, defaultValue: boolean): SettingDefinition<boolean> {
  return {
    description,
    defaultValue,
    parse(text) {
      const value = { true: true, false: false }[text.trim().toLowerCase()];
      return value === undefined ? { ok: false, reason: 'must be true or false' } : { ok: true, value };
    },
    format: String,
  };
}

const DAY = 86_400;

export const SETTING_DEFINITIONS = {
  NickMaxLength: integerSetting('Longest nickname, in characters', 20, 1, 255),
  AuthorizationTicketLifetime: integerSetting('Lifetime of an auth token, in seconds', 600, 1, 30 * DAY),
  LongAuthorizationTicketLifetime: integerSetting(
    'Lifetime of a long-life auth token, in seconds',
    DAY,
    1,
    365 * DAY,
  ),
  ExpiredSessionRetention: integerSetting(
    'Seconds a session is kept after it expired or was revoked; then every instance deletes it',
    7 * DAY,
    0,
    3650 * DAY,
  ),
  PlayerDefaultActive: booleanSetting('Whether a new player is active when the request does not say', true),
  PlayerDefaultVerified: booleanSetting(
    'Whether a new player is verified when the request does not say',
    false,
  ),
  ActivityRetention: integerSetting(
    'Seconds a launch attempt is kept in the integration activity records (the console); at least a day',
    7 * DAY,
    DAY,
    3650 * DAY,
  ),
  AuditLogRetention: integerSetting(
    'Seconds an administrative change is kept in the audit log; at least 30 days',
    365 * DAY,
    30 * DAY,
    3650 * DAY,
  ),
  ConsoleIdleTimeout: integerSetting(
    'Seconds an operator console session lasts without a request; then the operator signs in again',
    1800,
    60,
    DAY,
  ),
} as const;

export type SettingName = keyof typeof SETTING_DEFINITIONS;
export type Settings = {
  readonly [K in SettingName]: (typeof SETTING_DEFINITIONS)[K]['defaultValue'] extends boolean
    ? boolean
    : number;
};

export const SETTING_NAMES = Object.keys(SETTING_DEFINITIONS) as SettingName[];

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTING_DEFINITIONS, name);
}

export function defaultSettings(): Settings {
  return Object.fromEntries(
    SETTING_NAMES.map((name) => [name, SETTING_DEFINITIONS[name].defaultValue]),
  ) as Settings;
}

/** Validates an operator's value: `{ ok: false, reason }` names what the setting accepts. */
export function parseSetting(
  name: SettingName,
  text: string,
): { ok: true; value: string } | { ok: false; reason: string } {
  const definition = SETTING_DEFINITIONS[name] as SettingDefinition<number | boolean>;
  const result = definition.parse(text);
  return result.ok ? { ok: true, value: definition.format(result.value) } : result;
}
