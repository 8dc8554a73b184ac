import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { FastifySchema } from 'fastify';
import { CLIENT_ID_PATTERN } from '../../client-id.js';
import {
  fieldsSchema,
  GAME_SESSION_DOCUMENT,
  GAME_SESSION_STATE_DOCUMENT,
  ref,
  SIGNED_OR_API_KEY,
} from '../../openapi/document-schemas.js';
import { errorResponses } from '../../openapi/error-responses.js';
import { REPLAY_QUERY_PROPERTIES } from '../../signature/replay-fields-schema.js';
import { V3_GAME_SESSION_ERRORS, V3_OPEN_GAME_ERRORS } from './v3-error-examples.js';
import { V3_PLAYER_FIELDS, V3_SESSION_FIELDS } from './v3-fields.js';

/**
 * Schemas of the v3 routes, for the API reference only (the app's validator compiler passes everything
 * through; the field rules answer with the spec's texts). Built from the same rules.
 */
const CLIENT_QUERY = {
  type: 'object',
  required: ['client'],
  properties: {
    client: { type: 'string', pattern: CLIENT_ID_PATTERN.source, description: 'The client id' },
    ...REPLAY_QUERY_PROPERTIES,
  },
};

const OPEN_GAME_DOCUMENT = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['type', 'attributes'],
      properties: {
        type: { type: 'string', const: 'OpenGame' },
        attributes: {
          type: 'object',
          required: ['player'],
          properties: {
            session: fieldsSchema(V3_SESSION_FIELDS),
            player: fieldsSchema(V3_PLAYER_FIELDS, ['id']),
          },
        },
      },
    },
  },
};

export function v3OpenGameSchema() {
  return {
    summary: 'Open game (v3)',
    description:
      'Registers or updates the player with the profile sent and creates a session for the poker lobby, or a ' +
      'table with session.tableId. Signed over the JSON:API document (client is not signed), or authorized ' +
      'with the Bearer API key of a user with ROLE_ADMIN or CREATE:OpenGame. An attribute it does not know, at ' +
      'any level of data.attributes, session and player (a misspelled session.lnag, a v2 gameCode), is not ' +
      'applied and is named by its JSON pointer in the top-level meta.warnings of the 201; so is a query ' +
      'parameter other than client, ts and nonce (a lang=de meant for session.lang), by its name.',
    tags: ['v3'],
    operationId: 'openGame',
    security: SIGNED_OR_API_KEY,
    querystring: CLIENT_QUERY,
    body: OPEN_GAME_DOCUMENT,
    consumes: [JSON_API_MEDIA_TYPE, 'application/json'],
    produces: [JSON_API_MEDIA_TYPE],
    response: {
      201: {
        description: 'The GameSession; its IRI is also in the Location header',
        headers: {
          Location: {
            type: 'string',
            description: 'The IRI of the GameSession, its data.id: GET it to read its state',
          },
        },
        ...ref(GAME_SESSION_DOCUMENT),
      },
      ...errorResponses(V3_OPEN_GAME_ERRORS, {
        403:
          "The API key's user may not open games (forbidden), or the player is blocked (player_blocked) " +
          'until its block ends',
      }),
    },
  } as const satisfies FastifySchema;
}

export function v3GameSessionSchema() {
  return {
    summary: 'Read a GameSession (v3)',
    description:
      'The state and expiry of a GameSession this caller may create; never its token. The path id is signed.',
    tags: ['v3'],
    operationId: 'getGameSession',
    security: SIGNED_OR_API_KEY,
    params: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
    },
    querystring: {
      type: 'object',
      properties: {
        client: {
          ...CLIENT_QUERY.properties.client,
          description:
            'The client id: required for a signed read; optional with an API key (the session knows it)',
        },
        ...REPLAY_QUERY_PROPERTIES,
      },
    },
    produces: [JSON_API_MEDIA_TYPE],
    response: {
      200: { description: 'The GameSession state', ...ref(GAME_SESSION_STATE_DOCUMENT) },
      ...errorResponses(V3_GAME_SESSION_ERRORS, {
        404: 'No such GameSession for this caller (also: a key that may not read it, without ?client=)',
      }),
    },
  } as const satisfies FastifySchema;
}
