import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { FastifySchema } from 'fastify';
import { CLIENT_ID_PATTERN } from '../client-id.js';
import { USER_ID } from '../launch/launch-fields.js';
import { fieldsSchema, SIGNED_OR_API_KEY } from '../openapi/document-schemas.js';
import { errorResponses } from '../openapi/error-responses.js';
import { REPLAY_QUERY_PROPERTIES } from '../signature/replay-fields-schema.js';
import { PLAYER_BLOCK_FIELDS, PLAYER_BLOCK_TYPE } from './player-block-document.js';
import {
  END_SESSION_ERRORS,
  PLAYER_BLOCK_ERRORS,
  PLAYER_BLOCK_READ_ERRORS,
  PLAYER_SESSIONS_ERRORS,
  UNBLOCK_ERRORS,
} from './session-control.errors.js';

/** Schemas of the session-control routes, for the API reference only (the field rules validate). */
const CLIENT_QUERY = {
  type: 'object',
  required: ['client'],
  properties: {
    client: { type: 'string', pattern: CLIENT_ID_PATTERN.source, description: 'The client id' },
    ...REPLAY_QUERY_PROPERTIES,
  },
};
/** A player route's query: client and the replay fields, nothing else (session-control.routes.ts). */
const PLAYER_QUERY = {
  ...CLIENT_QUERY,
  properties: CLIENT_QUERY.properties,
  additionalProperties: false,
};
const PLAYER_PARAMS = {
  type: 'object',
  required: ['playerId'],
  properties: { playerId: { ...USER_ID.schema, description: 'The player id you launch it with (userId)' } },
};
const ACCESS = 'Signed over the path parameters (and the body), client not signed; or a Bearer API key.';

const ENDED = { description: 'Ended (or it had ended already)', type: 'null' };

const PLAYER_BLOCK_DOCUMENT = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['type', 'id', 'attributes'],
      properties: {
        type: { type: 'string', const: PLAYER_BLOCK_TYPE },
        id: { type: 'string', description: 'The player id' },
        attributes: {
          type: 'object',
          required: ['blocked', 'since', 'until', 'reason'],
          properties: {
            blocked: {
              type: 'boolean',
              description: 'Whether v2 and v3 launches for the player are refused now',
            },
            since: { type: ['string', 'null'], format: 'date-time' },
            until: { type: ['string', 'null'], format: 'date-time', description: 'null: until it is lifted' },
            reason: { type: ['string', 'null'] },
          },
        },
      },
    },
    meta: {
      type: 'object',
      properties: {
        revokedSessions: { type: 'integer', minimum: 0, description: 'Live sessions the block ended' },
        warnings: {
          type: 'array',
          items: { type: 'string' },
          description:
            'PUT: attributes of the document a block does not know, and members of data a resource does ' +
            'not have, not applied ("Unknown attributes were ignored: /data/attributes/untill")',
        },
      },
    },
  },
};

export function endSessionSchema(): FastifySchema {
  return {
    summary: 'End a session (v3)',
    description: `Ends one session of the client, v3 or v2 (the v2 data.id); its token stops working at once. ${ACCESS}`,
    tags: ['session control'],
    operationId: 'revokeSession',
    security: SIGNED_OR_API_KEY,
    params: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
    },
    querystring: CLIENT_QUERY,
    produces: [JSON_API_MEDIA_TYPE],
    response: { 204: ENDED, ...errorResponses(END_SESSION_ERRORS) },
  };
}

export function endPlayerSessionsSchema(): FastifySchema {
  return {
    summary: "End a player's sessions",
    description: `Ends every live session of the player. ${ACCESS}`,
    tags: ['session control'],
    operationId: 'revokePlayerSessions',
    security: SIGNED_OR_API_KEY,
    params: PLAYER_PARAMS,
    querystring: PLAYER_QUERY,
    produces: [JSON_API_MEDIA_TYPE],
    response: {
      200: {
        description: 'How many live sessions ended',
        type: 'object',
        required: ['meta'],
        properties: {
          meta: {
            type: 'object',
            required: ['revokedSessions'],
            properties: { revokedSessions: { type: 'integer', minimum: 0 } },
          },
        },
      },
      ...errorResponses(PLAYER_SESSIONS_ERRORS),
    },
  };
}

export function blockSchema(): FastifySchema {
  return {
    summary: 'Block a player',
    description:
      'Ends its live sessions and refuses v2 and v3 launches for it until the block ends (until) or is ' +
      `lifted (DELETE). A block set before is replaced. ${ACCESS}`,
    tags: ['session control'],
    operationId: 'blockPlayer',
    security: SIGNED_OR_API_KEY,
    params: PLAYER_PARAMS,
    querystring: PLAYER_QUERY,
    body: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['type'],
          properties: {
            type: { type: 'string', const: PLAYER_BLOCK_TYPE },
            id: { type: 'string', description: "Optional; when sent, the path's player id (else 409)" },
            attributes: fieldsSchema(PLAYER_BLOCK_FIELDS),
          },
        },
      },
    },
    consumes: [JSON_API_MEDIA_TYPE, 'application/json'],
    produces: [JSON_API_MEDIA_TYPE],
    response: {
      200: { description: 'The block', ...PLAYER_BLOCK_DOCUMENT },
      ...errorResponses(PLAYER_BLOCK_ERRORS),
    },
  };
}

export function playerBlockSchema(): FastifySchema {
  return {
    summary: "Read a player's block",
    description: `Whether the player is blocked now, since and until when. ${ACCESS}`,
    tags: ['session control'],
    operationId: 'getPlayerBlock',
    security: SIGNED_OR_API_KEY,
    params: PLAYER_PARAMS,
    querystring: PLAYER_QUERY,
    produces: [JSON_API_MEDIA_TYPE],
    response: {
      200: { description: 'The block (blocked false when there is none)', ...PLAYER_BLOCK_DOCUMENT },
      ...errorResponses(PLAYER_BLOCK_READ_ERRORS),
    },
  };
}

export function unblockSchema(): FastifySchema {
  return {
    summary: 'Lift a player block',
    description: `Launches for the player are accepted again. Sessions the block ended stay ended. ${ACCESS}`,
    tags: ['session control'],
    operationId: 'unblockPlayer',
    security: SIGNED_OR_API_KEY,
    params: PLAYER_PARAMS,
    querystring: PLAYER_QUERY,
    produces: [JSON_API_MEDIA_TYPE],
    response: {
      204: { description: 'Lifted (or there was none)', type: 'null' },
      ...errorResponses(UNBLOCK_ERRORS),
    },
  };
}
