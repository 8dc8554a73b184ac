import type { FastifySchema } from 'fastify';
import type { FieldRules } from '../validation/parse-fields.js';
import { V3_PLAYER_FIELDS, V3_SESSION_FIELDS } from './v3-fields.js';

/**
 * Request schemas of the v3 routes, for the API reference only (the app's validator compiler passes
 * everything through; the field rules answer with the spec's texts). Built from the same rules.
 */
function objectOf(rules: FieldRules, required: string[] = []) {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, rule.schema])),
    ...(required.length > 0 ? { required } : {}),
  };
}

const CLIENT_QUERY = {
  type: 'object',
  required: ['client'],
  properties: { client: { type: 'string', description: 'The client (integrator platform) id' } },
};

const ACCESS_HEADERS = {
  type: 'object',
  properties: {
    sign: { type: 'string', description: 'Request signature; required when the client has a secret key' },
    authorization: { type: 'string', description: 'Bearer <API key>, instead of sign' },
  },
};

export const V3_ACCESS_SCHEMA: FastifySchema = { querystring: CLIENT_QUERY, headers: ACCESS_HEADERS };

export function v3OpenGameSchema(): FastifySchema {
  return {
    ...V3_ACCESS_SCHEMA,
    body: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['type', 'attributes'],
          properties: {
            type: { const: 'OpenGame' },
            attributes: {
              type: 'object',
              required: ['player'],
              properties: {
                session: objectOf(V3_SESSION_FIELDS),
                player: objectOf(V3_PLAYER_FIELDS, ['id']),
              },
            },
          },
        },
      },
    },
  };
}
