import { V3_OPEN_GAME_ERRORS } from '../launch/v3/v3-error-examples.js';
import { COMMON_ERRORS, type ErrorExample, errorExample } from '../openapi/error-responses.js';
import { PROTECTION_ERRORS } from '../signature/protection-error-examples.js';
import { blockPointer, PLAYER_BLOCK_FIELDS } from './player-block-document.js';

const {
  notAcceptable,
  jsonApiMediaTypeParameters,
  noRequestBody,
  payloadTooLarge,
  rateLimited,
  internalError,
  serviceUnavailable,
} = COMMON_ERRORS;

/** The access errors of every v3 route, as open-game answers them, and those of the client's request protection. */
const ACCESS = [
  ...V3_OPEN_GAME_ERRORS.filter((example) =>
    ['unauthorized', 'notBearer', 'forbidden', 'notBound', 'clientRequired', 'clientUnknown'].includes(
      example.name,
    ),
  ),
  ...PROTECTION_ERRORS,
];

const invalidSignature = (canonical: string) =>
  errorExample(
    'invalidSignature',
    'sign missing or wrong, or an unknown or disabled client; staging adds the strings it hashed',
    'invalid_signature',
    'Not valid request signature',
    {
      documentMeta: {
        signature: { canonical, hints: [], tester: 'https://poker.example.com/tools/signature' },
      },
    },
  );

const AROUND = [notAcceptable, rateLimited, internalError, serviceUnavailable];

export const END_SESSION_ERRORS: readonly ErrorExample[] = [
  invalidSignature('2e651c3ca08c49f32a87035539cbcc3d'),
  ...ACCESS,
  errorExample(
    'notFound',
    "An unknown id, or another client's session",
    'not_found',
    'No GameSession /apiweb/v3/game-sessions/2e651c3ca08c49f32a87035539cbcc3d',
  ),
  // A DELETE with a body it cannot read (a GET's body is not read at all).
  noRequestBody,
  ...AROUND,
];

/** The 400 of a player route sent a parameter of its own choosing (session-control.routes.ts). */
export const OWN_PARAMETERS_ONLY =
  'A player route takes no parameters but client, ts and nonce in the query (ts and nonce also as ' +
  'body members; a block its document): the path names the player';

const PLAYER_ERRORS: readonly ErrorExample[] = [
  invalidSignature('u-42'),
  ...ACCESS,
  errorExample(
    'otherParameters',
    'A parameter other than client, ts and nonce (a v2 launch parameter, say)',
    'bad_request',
    OWN_PARAMETERS_ONLY,
  ),
  errorExample(
    'playerNotFound',
    'No player of this client has this id',
    'player_not_found',
    'Player not found',
  ),
  errorExample(
    'playerIdTooLong',
    'A playerId no player can have',
    'invalid_field',
    'playerId must be at most 64 characters long',
  ),
  ...AROUND,
];

/** A DELETE answers a body it cannot read with a 415 (a GET's body is not read at all). */
export const PLAYER_SESSIONS_ERRORS: readonly ErrorExample[] = [...PLAYER_ERRORS, noRequestBody];
export const PLAYER_BLOCK_READ_ERRORS = PLAYER_ERRORS;
export const UNBLOCK_ERRORS: readonly ErrorExample[] = [...PLAYER_ERRORS, noRequestBody];

function refusal(
  name: string,
  summary: string,
  field: keyof typeof PLAYER_BLOCK_FIELDS,
  raw: unknown,
): ErrorExample {
  const result = PLAYER_BLOCK_FIELDS[field].parse(raw, field);
  if (result.ok) throw new Error(`${field}: the example value is accepted`);
  return errorExample(name, summary, result.issue.code, result.issue.detail, {
    pointer: blockPointer(field),
  });
}

export const PLAYER_BLOCK_ERRORS: readonly ErrorExample[] = [
  ...PLAYER_ERRORS.filter((example) => example.name !== 'invalidSignature'),
  invalidSignature('u-42PlayerBlockself-exclusion2026-12-01T00:00:00Z'),
  errorExample(
    'notDocument',
    'Not a JSON:API document',
    'bad_request',
    'The request body must be a JSON:API document with a data object',
  ),
  errorExample(
    'typeConflict',
    'data.type is not PlayerBlock',
    'type_conflict',
    'data.type must be PlayerBlock, not Block',
    {
      pointer: '/data/type',
    },
  ),
  errorExample(
    'idConflict',
    "data.id is not the path's player",
    'type_conflict',
    "data.id must be the path's player id, or absent",
    { pointer: '/data/id' },
  ),
  payloadTooLarge,
  errorExample(
    'unsupportedMediaType',
    'A form, or a body of another media type',
    'unsupported_media_type',
    'The request body must be one of: application/json, application/vnd.api+json',
  ),
  jsonApiMediaTypeParameters,
  refusal('untilNotValid', 'until is not an ISO 8601 date and time with a time zone', 'until', 'tomorrow'),
  errorExample('untilPast', 'until is not in the future', 'invalid_field', 'until must be in the future', {
    pointer: blockPointer('until'),
  }),
  refusal('reasonTooLong', 'reason over 200 characters', 'reason', 'x'.repeat(201)),
];
