import { COMMON_ERRORS, type ErrorExample, errorExample, refusal } from '../../openapi/error-responses.js';
import { PROTECTION_ERRORS } from '../../signature/protection-error-examples.js';
import { NOT_BEARER } from '../../users/authorize-api-key.js';
import { PLAYER_BLOCKED, signatureHint, USERNAME_EXISTS } from '../launch-error-examples.js';
import { CLIENT_REQUIRED } from './v3-access.js';
import { V3_PLAYER_FIELDS, V3_SESSION_FIELDS, v3PlayerPointer, v3SessionPointer } from './v3-fields.js';

const {
  notAcceptable,
  jsonApiMediaTypeParameters,
  payloadTooLarge,
  rateLimited,
  internalError,
  serviceUnavailable,
} = COMMON_ERRORS;

const V3_INVALID_SIGNATURE_SUMMARY =
  'sign missing or wrong, or an unknown or disabled client; staging adds the strings it hashed';
const UNAUTHORIZED = errorExample(
  'unauthorized',
  'Bad, revoked or malformed API key',
  'unauthorized',
  'The API key is not valid',
);
const NOT_BEARER_KEY = errorExample(
  'notBearer',
  'An Authorization header that is not Bearer <key> (Basic, an empty Bearer)',
  'unauthorized',
  NOT_BEARER,
);
const FORBIDDEN = errorExample(
  'forbidden',
  'The key user has neither ROLE_ADMIN nor CREATE:OpenGame',
  'forbidden',
  'This API key does not have the permission CREATE:OpenGame',
);
const NOT_BOUND = errorExample(
  'notBound',
  'The API key is not bound to the client named, whether that client exists or not',
  'forbidden',
  'This API key may not act for the client named',
);
const CLIENT_UNKNOWN = errorExample(
  'clientUnknown',
  'With an API key that may act for it: the client query parameter names no active client',
  'invalid_field',
  'The client query parameter names no active client',
);

/** The errors v3 open game answers, as examples in the API reference. */
export const V3_OPEN_GAME_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'invalidSignature',
    V3_INVALID_SIGNATURE_SUMMARY,
    'invalid_signature',
    'Not valid request signature',
    signatureHint('u-1ZoeOpenGame', 'demou-1ZoeOpenGame'),
  ),
  ...PROTECTION_ERRORS,
  errorExample(
    'notDocument',
    'Not a JSON:API document',
    'bad_request',
    'The request body must be a JSON:API document with a data object',
  ),
  UNAUTHORIZED,
  NOT_BEARER_KEY,
  FORBIDDEN,
  NOT_BOUND,
  errorExample(
    'playerNotFound',
    'internal player-id mode, unknown player.id',
    'player_not_found',
    'Player not found',
    {
      pointer: v3PlayerPointer('id'),
    },
  ),
  errorExample(
    'playerBlocked',
    'The player (player.id) is blocked (PUT /apiweb/v3/players/{playerId}/block)',
    'player_blocked',
    PLAYER_BLOCKED,
    { pointer: v3PlayerPointer('id') },
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
  jsonApiMediaTypeParameters,
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
    CLIENT_REQUIRED,
  ),
  CLIENT_UNKNOWN,
  rateLimited,
  internalError,
  serviceUnavailable,
];

/** The errors reading a GameSession answers. */
export const V3_GAME_SESSION_ERRORS: readonly ErrorExample[] = [
  errorExample(
    'invalidSignature',
    V3_INVALID_SIGNATURE_SUMMARY,
    'invalid_signature',
    'Not valid request signature',
    signatureHint('2e651c3ca08c49f32a87035539cbcc3d', 'demo2e651c3ca08c49f32a87035539cbcc3d'),
  ),
  ...PROTECTION_ERRORS,
  UNAUTHORIZED,
  NOT_BEARER_KEY,
  { ...FORBIDDEN, summary: 'With ?client=: the key user has neither ROLE_ADMIN nor CREATE:OpenGame' },
  {
    ...NOT_BOUND,
    summary: 'With ?client=: the API key is not bound to that client, whether it exists or not',
  },
  errorExample(
    'notFound',
    "An unknown id, a v2 session, another client's session; without ?client=, a session of a client the key is not bound to, or any to a key that may not read it",
    'not_found',
    'No GameSession /apiweb/v3/game-sessions/2e651c3ca08c49f32a87035539cbcc3d',
  ),
  notAcceptable,
  CLIENT_UNKNOWN,
  rateLimited,
  internalError,
  serviceUnavailable,
];
