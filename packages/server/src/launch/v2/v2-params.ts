import type { ErrorObject } from '@poker-launch/sdk';
import { ApiError, errorObject } from '../../http/api-error.js';
import type { GameCode, Target } from '../../sessions/target.js';
import { suggestion } from '../../validation/closest-name.js';
import { boolean, currencyCandidate, ipAddress, languageCode, oneOf } from '../../validation/field-rules.js';
import { isNotSent, isPlainObject, type ParsedFields, parseFields } from '../../validation/parse-fields.js';
import type { ParsedLaunch } from '../check-and-launch.js';
import {
  AUTH_TYPE,
  DEFAULT_LANG,
  GAME_ID,
  LAUNCH_OPTIONS,
  NICK,
  SESSION_ID,
  TABLE_ID,
  USER_ID,
} from '../launch-fields.js';
import type { LaunchPointers } from '../launch-request.js';

/** Where v2's field errors point: its flat parameters named as JSON:API attributes. */
export const V2_POINTER_BASE = '/data/attributes';
export const v2Pointer = (parameter: string): string => `${V2_POINTER_BASE}/${parameter}`;

export const V2_POINTERS: LaunchPointers = {
  userId: v2Pointer('userId'),
  nick: v2Pointer('nick'),
  currency: v2Pointer('currency'),
  launchOptions: v2Pointer('launchOptions'),
  usernameErrorStatus: 500,
};

/** Every body parameter of v2 create session, with its rule. */
export const V2_FIELDS = {
  userId: USER_ID,
  userIp: ipAddress(),
  sessionId: SESSION_ID,
  nick: NICK,
  authType: AUTH_TYPE,
  lang: languageCode(),
  launchOptions: LAUNCH_OPTIONS,
  currency: currencyCandidate(),
  gameCode: oneOf(['poker', 'casinoLobby', 'casinolobby', 'casino', 'sport'], {
    code: 'game_code_not_valid',
    detail: 'Game code not valid',
  }),
  tableId: TABLE_ID,
  tableID: TABLE_ID,
  gameId: GAME_ID,
  gameID: GAME_ID,
  longLifeLoginToken: boolean(),
};

export type V2Fields = ParsedFields<typeof V2_FIELDS>;

/**
 * v2 takes flat parameters. A JSON:API document (`{"data": {…}}`, as v3 takes) would otherwise be read
 * as one unknown parameter, and its nick and lang silently dropped.
 */
export function assertFlatParameters(body: Readonly<Record<string, unknown>>): void {
  if (!isPlainObject(body.data)) return;
  throw ApiError.of(
    'bad_request',
    'v2 create session takes flat parameters (userId, nick, lang, …) in a form or a flat JSON object, ' +
      'not a JSON:API document: send them at the top level of the body',
    { pointer: '/data' },
  );
}

const MAX_NAMED = 10;

/**
 * The replay fields, which the signature reads from the query or the body (docs/integration.md, "Replay
 * fields"): not launch parameters, but not unknown either, wherever they are sent.
 */
const REPLAY_FIELDS: ReadonlySet<string> = new Set(['ts', 'nonce']);

/** What a misspelled parameter may be offered as: v2's own names and the replay fields. */
const V2_PARAMETER_NAMES: readonly string[] = [...Object.keys(V2_FIELDS), ...REPLAY_FIELDS];

/**
 * Body parameters v2 does not know: not applied, but not dropped in silence either (`meta.warnings`),
 * each with the parameter it most likely stands for, when one is close (`gamecode`: `gameCode`).
 */
export function unknownParameterWarnings(body: Readonly<Record<string, unknown>>): string[] {
  const unknown = Object.keys(body).filter(
    (name) => !Object.hasOwn(V2_FIELDS, name) && !REPLAY_FIELDS.has(name),
  );
  if (unknown.length === 0) return [];
  const named = unknown
    .slice(0, MAX_NAMED)
    .map(
      (name) => `${JSON.stringify(name.slice(0, 64))}${suggestion(name, V2_PARAMETER_NAMES, JSON.stringify)}`,
    );
  const more = unknown.length > MAX_NAMED ? ` and ${unknown.length - MAX_NAMED} more` : '';
  return [`Unknown parameters were ignored: ${named.join(', ')}${more}`];
}

/**
 * Reads the v2 parameters (path userId already merged in) into a launch request, or every problem found.
 * `ruleInput` holds whatever could be read, for the business rules that run next.
 */
export function parseV2Params(params: Readonly<Record<string, unknown>>): ParsedLaunch {
  const { values: fields, errors } = parseFields(params, V2_FIELDS, v2Pointer);
  // The path always carries one, but it may be empty (`/users//session`).
  if (isNotSent(params.userId)) {
    errors.unshift(errorObject('field_required', 'userId cannot be blank', { pointer: v2Pointer('userId') }));
  }
  const tableId = synonym(fields, 'tableId', 'tableID', errors);
  const gameId = synonym(fields, 'gameId', 'gameID', errors);
  const gameCode: GameCode = fields.gameCode === 'casinolobby' ? 'casinoLobby' : (fields.gameCode ?? 'poker');
  const ruleInput = {
    nick: fields.nick,
    currency: fields.currency,
    currencySent: !isNotSent(params.currency),
    gameCode,
    launchOptions: fields.launchOptions,
  };
  const target = errors.some((error) => error.source?.pointer === v2Pointer('gameCode'))
    ? undefined
    : resolveTarget(gameCode, tableId, gameId, errors);
  if (errors.length > 0 || target === undefined || fields.userId === undefined) return { ruleInput, errors };
  return {
    ruleInput,
    errors,
    request: {
      apiVersion: 'v2',
      userId: fields.userId,
      profile: fields.nick === undefined ? {} : { nick: fields.nick },
      externalSessionId: fields.sessionId,
      authType: fields.authType ?? 'external',
      lang: fields.lang ?? DEFAULT_LANG,
      launchOptions: fields.launchOptions,
      target,
      longLife: fields.longLifeLoginToken ?? false,
      userIp: fields.userIp,
    },
  };
}

/** `tableId` and `tableID` (likewise gameId/gameID) name one parameter; two different values are an error. */
function synonym<K extends 'tableId' | 'gameId'>(
  fields: V2Fields,
  name: K,
  alias: 'tableID' | 'gameID',
  errors: ErrorObject[],
): V2Fields[K] {
  const value = fields[name];
  const aliased = fields[alias] as V2Fields[K];
  if (value !== undefined && aliased !== undefined && value !== aliased) {
    errors.push(
      errorObject('field_conflict', `${name} and ${alias} have different values`, {
        pointer: v2Pointer(alias),
      }),
    );
  }
  return value ?? aliased;
}

/** Which parameters each target takes (the spec's "Parameters per target" table). */
function resolveTarget(
  gameCode: GameCode,
  tableId: number | undefined,
  gameId: string | undefined,
  errors: ErrorObject[],
): Target | undefined {
  const refuse = (
    field: string,
    detail: string,
    code: 'invalid_field' | 'field_required' = 'invalid_field',
  ) => {
    errors.push(errorObject(code, detail, { pointer: v2Pointer(field) }));
    return undefined;
  };
  if (tableId !== undefined && gameCode !== 'poker')
    return refuse('tableId', 'tableId applies only to gameCode poker');
  if (gameId !== undefined && gameCode !== 'casino' && gameCode !== 'sport') {
    return refuse('gameId', 'gameId applies only to gameCode casino or sport');
  }
  switch (gameCode) {
    case 'poker':
      return tableId === undefined ? { gameCode } : { gameCode, tableId };
    case 'casinoLobby':
      return { gameCode };
    case 'casino':
      return gameId === undefined
        ? refuse('gameId', 'gameId cannot be blank for gameCode casino', 'field_required')
        : { gameCode, gameId };
    case 'sport':
      return gameId === undefined ? { gameCode } : { gameCode, gameId };
  }
}
