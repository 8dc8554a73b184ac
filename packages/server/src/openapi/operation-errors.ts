import { V2_FIELDS, v2Pointer } from '../launch/v2/v2-params.js';
import {
  V3_PLAYER_FIELDS,
  V3_SESSION_FIELDS,
  v3PlayerPointer,
  v3SessionPointer,
} from '../launch/v3/v3-fields.js';
import type { FieldRule } from '../validation/field-rule.js';
import { COMMON_ERRORS, type ErrorExample, errorExample } from './error-responses.js';

/**
 * The errors each operation answers, as examples in the API reference. Field errors are made by the
 * field rules themselves from a wrong value, so their texts are the ones the service sends.
 */
function refusal(
  name: string,
  summary: string,
  rule: FieldRule<unknown>,
  raw: unknown,
  field: string,
  pointer: string,
): ErrorExample {
  const result = rule.parse(raw, field);
  if (result.ok) throw new Error(`${field}: the example value is accepted`);
  const { code, detail, meta } = result.issue;
  return errorExample(name, summary, code, detail, { pointer, meta });
}

const { notAcceptable, payloadTooLarge, rateLimited, internalError, serviceUnavailable } = COMMON_ERRORS;

const signatureHint = (canonical: string, acceptedAlternative?: string) => ({
  documentMeta: {
    signature: {
      canonical,
      ...(acceptedAlternative ? { acceptedAlternative } : {}),
      hints: [
        {
          code: 'sign_header_missing',
          detail:
            'No sign header was sent, but a sign parameter came in the query string: send the signature in the sign HTTP header instead',
        },
      ],
      tester: 'https://poker.example.com/tools/signature',
    },
  },
});

const USERNAME_EXISTS = 'A Player with this username already exists in the system.';

export const V2_CREATE_SESSION_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'invalidSignature',
    'sign missing or wrong, or an unknown or disabled client; staging adds the canonical string',
    'invalid_signature',
    'Not valid request signature',
    signatureHint('externalenAce1234512345'),
  ),
  errorExample(
    'notFlat',
    'A JSON:API document: v2 takes flat parameters',
    'bad_request',
    'v2 create session takes flat parameters (userId, nick, lang, …) in a form or a flat JSON object, ' +
      'not a JSON:API document: send them at the top level of the body',
    { pointer: '/data' },
  ),
  errorExample(
    'playerNotFound',
    'internal player-id mode, unknown userId',
    'player_not_found',
    'Player not found',
    {
      pointer: v2Pointer('userId'),
    },
  ),
  notAcceptable,
  payloadTooLarge,
  errorExample(
    'unsupportedMediaType',
    'A body of another media type',
    'unsupported_media_type',
    'The request body must be one of: application/x-www-form-urlencoded, application/json, application/vnd.api+json',
  ),
  errorExample(
    'userIdMismatch',
    'The body userId differs from the path',
    'user_id_mismatch',
    'userId in the body does not match userId in the path',
    { pointer: v2Pointer('userId') },
  ),
  refusal(
    'authTypeNotValid',
    'authType not internal or external',
    V2_FIELDS.authType,
    'token',
    'authType',
    v2Pointer('authType'),
  ),
  refusal(
    'gameCodeNotValid',
    'An unknown gameCode',
    V2_FIELDS.gameCode,
    'bingo',
    'gameCode',
    v2Pointer('gameCode'),
  ),
  refusal('langNotValid', 'lang not an ISO 639-1 code', V2_FIELDS.lang, 'zz', 'lang', v2Pointer('lang')),
  errorExample(
    'currencyBlank',
    'Currency mandatory, not sent',
    'currency_blank',
    'Currency cannot be blank',
    {
      pointer: v2Pointer('currency'),
    },
  ),
  errorExample(
    'currencyNotFound',
    'Currency mandatory, not ISO 4217',
    'currency_not_found',
    'Currency not found',
    {
      pointer: v2Pointer('currency'),
    },
  ),
  errorExample(
    'currencyNotActive',
    'Currency mandatory, not activated',
    'currency_not_active',
    'This currency is not active',
    { pointer: v2Pointer('currency') },
  ),
  errorExample(
    'gameIdRequired',
    'casino without gameId',
    'field_required',
    'gameId cannot be blank for gameCode casino',
    {
      pointer: v2Pointer('gameId'),
    },
  ),
  errorExample(
    'tableIdConflict',
    'tableId and tableID differ',
    'field_conflict',
    'tableId and tableID have different values',
    {
      pointer: v2Pointer('tableID'),
    },
  ),
  rateLimited,
  errorExample(
    'usernameExists',
    'The nick belongs to another player (a business error: do not retry)',
    'username_exists',
    USERNAME_EXISTS,
    {
      pointer: v2Pointer('nick'),
      status: 500,
    },
  ),
  errorExample(
    'usernameTooLong',
    'The nick is longer than NickMaxLength (a business error: do not retry)',
    'username_too_long',
    'The maximum username length is 20',
    { pointer: v2Pointer('nick'), status: 500 },
  ),
  internalError,
  serviceUnavailable,
];

const V3_INVALID_SIGNATURE_SUMMARY =
  'sign missing or wrong, or an unknown or disabled client; staging adds the strings it hashed';
const UNAUTHORIZED = errorExample(
  'unauthorized',
  'Bad, revoked or malformed API key',
  'unauthorized',
  'The API key is not valid',
);
const FORBIDDEN = errorExample(
  'forbidden',
  'The key user has neither ROLE_ADMIN nor CREATE:OpenGame',
  'forbidden',
  'This API key does not have the permission CREATE:OpenGame',
);
const CLIENT_UNKNOWN = errorExample(
  'clientUnknown',
  'With an API key: the client query parameter names no active client',
  'invalid_field',
  'The client query parameter names no active client',
);

export const V3_OPEN_GAME_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'invalidSignature',
    V3_INVALID_SIGNATURE_SUMMARY,
    'invalid_signature',
    'Not valid request signature',
    signatureHint('u-1ZoeOpenGame', 'demou-1ZoeOpenGame'),
  ),
  errorExample(
    'notDocument',
    'Not a JSON:API document',
    'bad_request',
    'The request body must be a JSON:API document with a data object',
  ),
  UNAUTHORIZED,
  FORBIDDEN,
  errorExample(
    'playerNotFound',
    'internal player-id mode, unknown player.id',
    'player_not_found',
    'Player not found',
    {
      pointer: v3PlayerPointer('id'),
    },
  ),
  notAcceptable,
  errorExample(
    'typeConflict',
    'data.type is not OpenGame',
    'type_conflict',
    'data.type must be OpenGame, not Session',
    {
      pointer: '/data/type',
    },
  ),
  payloadTooLarge,
  errorExample(
    'unsupportedMediaType',
    'A form, or a body of another media type',
    'unsupported_media_type',
    'The request body must be one of: application/json, application/vnd.api+json',
  ),
  refusal(
    'authTypeNotValid',
    'session.authType not internal or external',
    V3_SESSION_FIELDS.authType,
    'token',
    'session.authType',
    v3SessionPointer('authType'),
  ),
  refusal(
    'emailNotValid',
    'A field of the wrong shape',
    V3_PLAYER_FIELDS.email,
    'zoe',
    'player.email',
    v3PlayerPointer('email'),
  ),
  errorExample('playerIdRequired', 'No player.id', 'field_required', 'player.id cannot be blank', {
    pointer: v3PlayerPointer('id'),
  }),
  errorExample(
    'currencyBlank',
    'Currency mandatory, not sent',
    'currency_blank',
    'Currency cannot be blank',
    {
      pointer: v3PlayerPointer('currency'),
    },
  ),
  errorExample(
    'usernameExists',
    'player.nick belongs to another player',
    'username_exists',
    USERNAME_EXISTS,
    {
      pointer: v3PlayerPointer('nick'),
    },
  ),
  errorExample(
    'usernameTooLong',
    'player.nick longer than NickMaxLength',
    'username_too_long',
    'The maximum username length is 20',
    {
      pointer: v3PlayerPointer('nick'),
    },
  ),
  errorExample(
    'clientRequired',
    'With an API key: no client query parameter',
    'field_required',
    'The client query parameter cannot be blank',
  ),
  CLIENT_UNKNOWN,
  rateLimited,
  internalError,
  serviceUnavailable,
];

export const V3_GAME_SESSION_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'invalidSignature',
    V3_INVALID_SIGNATURE_SUMMARY,
    'invalid_signature',
    'Not valid request signature',
    signatureHint('2e651c3ca08c49f32a87035539cbcc3d', 'demo2e651c3ca08c49f32a87035539cbcc3d'),
  ),
  UNAUTHORIZED,
  { ...FORBIDDEN, summary: 'With ?client=: the key user has neither ROLE_ADMIN nor CREATE:OpenGame' },
  errorExample(
    'notFound',
    "An unknown id, a v2 session, another client's session; without ?client=, any session to a key that may not read it",
    'not_found',
    'No GameSession /apiweb/v3/game-sessions/2e651c3ca08c49f32a87035539cbcc3d',
  ),
  notAcceptable,
  CLIENT_UNKNOWN,
  rateLimited,
  internalError,
  serviceUnavailable,
];

export const TOKEN_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'tokenTwice',
    'The auth token came twice: as a Bearer header and as access-token',
    'bad_request',
    'Send the auth token once: either Authorization: Bearer or access-token',
  ),
  errorExample(
    'noToken',
    'No auth token',
    'unauthorized',
    'An auth token is required: Authorization: Bearer <auth> or ?access-token=<auth>',
  ),
  errorExample('tokenInvalid', 'No session has this token', 'token_invalid', 'The auth token is not valid'),
  errorExample(
    'tokenExpired',
    'The session expired; restoreSessionUrl when the launch gave one',
    'token_expired',
    'The auth token has expired',
    {
      documentMeta: { restoreSessionUrl: 'https://casino.example/restore' },
    },
  ),
  errorExample(
    'tokenRevoked',
    'Ended (logout), or its client disabled',
    'token_revoked',
    'The session of this auth token has ended',
  ),
  notAcceptable,
  rateLimited,
  internalError,
  serviceUnavailable,
];
