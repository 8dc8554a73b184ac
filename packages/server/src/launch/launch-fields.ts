import type { AuthType, LaunchOptions } from '@poker-launch/sdk';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/body/json-depth.js';
import { accept, type FieldRule, refuse } from '../validation/field-rule.js';
import {
  charactersNotInTextDetail,
  hasCharactersNotInText,
  hasControlCharacters,
  integer,
  oneOf,
  parseHttpUrl,
  text,
} from '../validation/field-rules.js';
import { isPlainObject } from '../validation/parse-fields.js';

/** Rules both operations share, so v2 and v3 cannot drift apart. */
/**
 * A player id travels in the session-control paths (`/players/{playerId}/…`), where every URL parser reads
 * "." and ".." as path steps and removes them: a player with such an id could be launched but never
 * blocked, so no player may have one (docs/design.md §4).
 */
const USER_ID_RULE = {
  max: 64,
  acceptIntegers: true,
  pattern: /^(?!\.\.?$)/,
  patternDetail: (name: string) => `${name} must not be "." or "..", which URLs read as path steps`,
};
export const USER_ID = text(USER_ID_RULE);
/** A player id that names a stored player (session control): one stored before a rule tightened still answers. */
export const USER_ID_LOOKUP = text({ ...USER_ID_RULE, lookupOnly: true });
export const SESSION_ID = text({ max: 128, acceptIntegers: true });
export const GAME_ID = text({ max: 64, acceptIntegers: true });
export const TABLE_ID = integer(1, 2_147_483_647);
/** The largest NickMaxLength an operator may set; the API reference documents it as the nick's ceiling. */
const NICK_CEILING = 255;

/**
 * A nick's length is the business rule NickMaxLength (docs/design.md §4: "The maximum username length is
 * N", v2 500, v3 422), checked with the settings; so here every length passes, however long (the 64 KiB
 * body limit bounds it), and an over-long nick always gets the spec's answer, never a generic one.
 */
export const NICK: FieldRule<string> = {
  schema: text({ max: NICK_CEILING }).schema,
  parse: text({ max: Number.POSITIVE_INFINITY }).parse,
};
export const AUTH_TYPE = oneOf<AuthType>(['internal', 'external'], {
  code: 'auth_type_not_valid',
  detail: 'Auth type not valid',
});

/** The language of a launch that names none (the spec's v2 default; v3 names none, so the same). */
export const DEFAULT_LANG = 'en';

export const LAUNCH_OPTIONS_MAX_BYTES = 4096;

/**
 * A JSON object, or a string holding one, nesting at most MAX_JSON_DEPTH levels (a string escapes the
 * body parser's depth check); `restoreSessionUrl`, when given, an absolute http(s) URL.
 */
export const LAUNCH_OPTIONS: FieldRule<LaunchOptions> = {
  schema: {
    description: `JSON object (or a string holding one), at most 4 KiB, nesting at most ${MAX_JSON_DEPTH} levels`,
    oneOf: [
      {
        type: 'object',
        properties: { restoreSessionUrl: { type: 'string', format: 'uri', maxLength: 2048 } },
        additionalProperties: true,
      },
      { type: 'string', maxLength: LAUNCH_OPTIONS_MAX_BYTES },
    ],
  },
  parse(raw, name) {
    let value = raw;
    if (typeof raw === 'string') {
      try {
        value = JSON.parse(raw);
      } catch {
        return refuse('invalid_field', `${name} must be a JSON object`);
      }
    }
    if (!isPlainObject(value)) return refuse('invalid_field', `${name} must be a JSON object`);
    // Before anything walks it recursively (JSON.stringify below, the launch URL).
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      return refuse('invalid_field', `${name} must not nest deeper than ${MAX_JSON_DEPTH} levels`);
    }
    // Like every text field: the options travel in the launch URL to the game page.
    if (anyText(value, hasCharactersNotInText)) {
      return refuse('invalid_field', charactersNotInTextDetail(name, anyText(value, hasControlCharacters)));
    }
    if (new TextEncoder().encode(JSON.stringify(value)).length > LAUNCH_OPTIONS_MAX_BYTES) {
      return refuse('invalid_field', `${name} must be at most ${LAUNCH_OPTIONS_MAX_BYTES} bytes of JSON`);
    }
    if (value.restoreSessionUrl !== undefined && !parseHttpUrl(value.restoreSessionUrl)) {
      return refuse('invalid_field', `${name}.restoreSessionUrl must be an absolute http or https URL`);
    }
    return accept(value as LaunchOptions);
  },
};

/** Whether any key or string value at any depth passes `test` (a loop: the depth is checked, still no recursion). */
function anyText(value: unknown, test: (text: string) => boolean): boolean {
  const pending = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === 'string' && test(next)) return true;
    if (next === null || typeof next !== 'object') continue;
    for (const [key, child] of Object.entries(next)) {
      if (test(key)) return true;
      pending.push(child);
    }
  }
  return false;
}
