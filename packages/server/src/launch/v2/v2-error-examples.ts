import { COMMON_ERRORS, type ErrorExample, errorExample, refusal } from '../../openapi/error-responses.js';
import { PROTECTION_ERRORS } from '../../signature/protection-error-examples.js';
import { PLAYER_BLOCKED, signatureHint, USERNAME_EXISTS } from '../launch-error-examples.js';
import { V2_FIELDS, v2Pointer } from './v2-params.js';

const {
  notAcceptable,
  jsonApiMediaTypeParameters,
  payloadTooLarge,
  rateLimited,
  internalError,
  serviceUnavailable,
} = COMMON_ERRORS;

/** The errors v2 create session answers, as examples in the API reference. */
export const V2_CREATE_SESSION_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'invalidSignature',
    'sign missing or wrong, or an unknown or disabled client; staging adds the canonical string',
    'invalid_signature',
    'Not valid request signature',
    signatureHint('externalenAce1234512345'),
  ),
  ...PROTECTION_ERRORS,
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
  errorExample(
    'playerBlocked',
    'The player (userId) is blocked (PUT /apiweb/v3/players/{playerId}/block)',
    'player_blocked',
    PLAYER_BLOCKED,
    { pointer: v2Pointer('userId') },
  ),
  notAcceptable,
  payloadTooLarge,
  errorExample(
    'unsupportedMediaType',
    'A body of another media type',
    'unsupported_media_type',
    'The request body must be one of: application/x-www-form-urlencoded, application/json, application/vnd.api+json',
  ),
  jsonApiMediaTypeParameters,
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
