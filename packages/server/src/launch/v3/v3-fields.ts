import { isKnownCurrency } from '../../currencies/iso-currencies.js';
import { type FieldRule, refuse } from '../../validation/field-rule.js';
import {
  boolean,
  countryCode,
  currencyCandidate,
  currencyCode,
  email,
  integer,
  ipAddress,
  languageCode,
  text,
} from '../../validation/field-rules.js';
import { AUTH_TYPE, LAUNCH_OPTIONS, NICK, SESSION_ID, TABLE_ID, USER_ID } from '../launch-fields.js';
import type { LaunchPointers } from '../launch-request.js';

export const v3SessionPointer = (field: string): string => `/data/attributes/session/${field}`;
export const v3PlayerPointer = (field: string): string => `/data/attributes/player/${field}`;

export const V3_POINTERS: LaunchPointers = {
  userId: v3PlayerPointer('id'),
  nick: v3PlayerPointer('nick'),
  currency: v3PlayerPointer('currency'),
  launchOptions: v3SessionPointer('launchOptions'),
  usernameErrorStatus: 422,
};

const MAX_INT32 = 2_147_483_647;

/** At least three digits with the usual separators, and an optional leading +: `+44 (0)20 7946-0000`. */
const PHONE_NUMBER = /^\+?(?=(?:[^0-9]*[0-9]){3})[0-9 ().-]+$/;

/** A preferred currency is only remembered, never charged in, so it must exist but need not be active. */
function knownCurrencyCode(): FieldRule<string> {
  const shape = currencyCode();
  return {
    schema: shape.schema,
    parse(raw, name) {
      const result = shape.parse(raw, name);
      if (!result.ok || isKnownCurrency(result.value)) return result;
      return refuse('invalid_field', `${name} must be an ISO 4217 currency code`);
    },
  };
}

/** `data.attributes.session` of an OpenGame document. */
export const V3_SESSION_FIELDS = {
  id: SESSION_ID,
  authType: AUTH_TYPE,
  tableId: TABLE_ID,
  lang: languageCode(),
  launchOptions: LAUNCH_OPTIONS,
  longLifeLoginToken: boolean(),
  userIp: ipAddress(),
};

/** `data.attributes.player`: the profile; the limits are documented in docs/integration.md's v3 field table. */
export const V3_PLAYER_FIELDS = {
  id: USER_ID,
  nick: NICK,
  name: text({ max: 100 }),
  email: email(),
  // A username: the same ceiling as a nick.
  referredBy: text({ max: 255 }),
  referralCode: text({ max: 64 }),
  bonusCode: text({ max: 64 }),
  avatar: integer(0, MAX_INT32),
  phoneNumber: text({
    max: 32,
    pattern: PHONE_NUMBER,
    patternDetail:
      'player.phoneNumber must be at least 3 digits with spaces, ( ) . - and an optional leading +',
  }),
  tag: text({ max: 64 }),
  active: boolean(),
  verified: boolean(),
  trustedLevel: integer(0, MAX_INT32),
  // A candidate here; whether it may be used (known, active, mandatory) is checkLaunchRules' business rule.
  currency: currencyCandidate(),
  preferredCurrency: knownCurrencyCode(),
  country: countryCode(),
};
