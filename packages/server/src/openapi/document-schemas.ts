import { ERROR_CODES } from '@poker-launch/sdk';
import type { FieldRules } from '../validation/parse-fields.js';

/**
 * JSON Schemas of the documents the API exchanges, for the API reference. They document; they do not
 * validate (field rules do) nor serialize (see register-openapi.ts).
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** An object whose properties are the fields' own schemas: one source for the rules and the reference. */
export function fieldsSchema(
  rules: FieldRules,
  required: readonly string[] = [],
  description?: string,
): JsonSchema {
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    required: [...required],
    properties: Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, rule.schema])),
  };
}

const expiryMeta = {
  type: 'object',
  required: ['expiresAt'],
  properties: {
    expiresAt: { type: 'string', format: 'date-time', description: 'When the auth token expires' },
  },
};

const warningsMeta = {
  type: 'object',
  description: 'Present when something sent was not applied',
  properties: {
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description:
        'What was not applied and why: an unusable optional currency ("Currency EUR is not active; it was ' +
        'not applied"), v2 body parameters it does not know ("Unknown parameters were ignored: "nickname""), v3 attributes it ' +
        'does not know at any level of data.attributes, session and player, named by JSON pointer ("Unknown ' +
        'attributes were ignored: /data/attributes/player/nickname"), and v3 query parameters it does not read ' +
        '("Unknown query parameters were ignored: "lang" (an attribute: send it in /data/attributes/session)")',
    },
  },
};

/** A JSON:API document holding one resource: the envelope every document here shares. */
function resourceDocument(shape: {
  $id: string;
  type: string;
  id: JsonSchema;
  attributes: Record<string, JsonSchema>;
  required: readonly string[];
  meta: JsonSchema;
  documentMeta?: JsonSchema;
}): JsonSchema {
  return {
    $id: shape.$id,
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: {
      data: {
        type: 'object',
        required: ['id', 'type', 'attributes', 'meta'],
        additionalProperties: false,
        properties: {
          id: shape.id,
          type: { type: 'string', const: shape.type },
          attributes: {
            type: 'object',
            required: [...shape.required],
            additionalProperties: false,
            properties: shape.attributes,
          },
          meta: shape.meta,
        },
      },
      ...(shape.documentMeta ? { meta: shape.documentMeta } : {}),
    },
  };
}

const TOKEN_PATTERN = { type: 'string', pattern: '^[0-9a-f]{32}$' };
const GAME_SESSION_IRI = {
  type: 'string',
  description: 'IRI path of the GameSession, /apiweb/v3/game-sessions/{id}',
};

/** v2 Session resource document. */
export const SESSION_DOCUMENT = resourceDocument({
  $id: 'SessionDocument',
  type: 'session',
  id: { ...TOKEN_PATTERN, description: 'Resource id (never the token)' },
  required: ['user-id', 'redirect-url', 'auth', 'session-id'],
  attributes: {
    'user-id': { type: 'string' },
    'redirect-url': {
      type: 'string',
      format: 'uri',
      description: 'Opens the target for the player; carries auth and lang',
    },
    auth: { ...TOKEN_PATTERN, description: 'Short-lived auth token' },
    'session-id': { type: 'string', description: 'The sessionId sent, or a generated UUID' },
  },
  meta: expiryMeta,
  documentMeta: warningsMeta,
});

/** v3 GameSession resource document. */
export const GAME_SESSION_DOCUMENT = resourceDocument({
  $id: 'GameSessionDocument',
  type: 'GameSession',
  id: GAME_SESSION_IRI,
  required: ['playerId', 'sessionId', 'auth', 'url'],
  attributes: {
    playerId: { type: 'string' },
    sessionId: { type: 'string' },
    auth: TOKEN_PATTERN,
    url: { type: 'string', format: 'uri' },
  },
  meta: expiryMeta,
  documentMeta: warningsMeta,
});

/** A v3 GameSession read back: its state instead of the token. */
export const GAME_SESSION_STATE_DOCUMENT = resourceDocument({
  $id: 'GameSessionStateDocument',
  type: 'GameSession',
  id: GAME_SESSION_IRI,
  required: ['playerId', 'sessionId', 'state', 'target'],
  attributes: {
    playerId: { type: 'string' },
    sessionId: { type: 'string' },
    state: { type: 'string', enum: ['active', 'expired', 'revoked'] },
    target: { type: 'string', enum: ['lobby', 'table'] },
    tableId: { type: 'integer' },
  },
  meta: {
    type: 'object',
    required: ['expiresAt', 'createdAt'],
    properties: {
      expiresAt: { type: 'string', format: 'date-time' },
      createdAt: { type: 'string', format: 'date-time' },
      revokedAt: { type: 'string', format: 'date-time' },
      apiUser: {
        type: ['string', 'null'],
        description:
          'Only to an API key with ROLE_ADMIN: the API user whose key opened the session, null when it was signed',
      },
    },
  },
});

/** The session as the token API shows it to the game front end and game servers (never the token). */
export const TOKEN_SESSION_DOCUMENT: JsonSchema = {
  $id: 'TokenSessionDocument',
  type: 'object',
  required: ['data', 'meta'],
  additionalProperties: false,
  properties: {
    data: {
      type: 'object',
      required: ['id', 'type', 'attributes'],
      additionalProperties: false,
      properties: {
        id: { type: 'string' },
        type: { type: 'string', const: 'session' },
        attributes: {
          type: 'object',
          required: [
            'session-id',
            'player',
            'target',
            'lang',
            'currency',
            'launchOptions',
            'state',
            'expiresAt',
          ],
          additionalProperties: false,
          properties: {
            'session-id': { type: 'string' },
            player: {
              type: 'object',
              required: ['user-id', 'nick'],
              additionalProperties: false,
              properties: {
                'user-id': {
                  type: 'string',
                  description: "The integrator's userId (ours in internal player-id mode)",
                },
                nick: { type: ['string', 'null'] },
              },
            },
            target: {
              type: 'object',
              required: ['gameCode'],
              additionalProperties: false,
              properties: {
                gameCode: { type: 'string', enum: ['poker', 'casinoLobby', 'casino', 'sport'] },
                tableId: { type: ['integer', 'null'] },
                gameId: { type: ['string', 'null'] },
              },
            },
            lang: { type: 'string' },
            currency: { type: ['string', 'null'] },
            launchOptions: { type: ['object', 'null'] },
            state: { type: 'string', const: 'active' },
            expiresAt: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
    meta: {
      type: 'object',
      required: ['serverTime', 'client'],
      properties: {
        serverTime: { type: 'string', format: 'date-time', description: "The server's clock" },
        client: { type: 'string', description: "The session's client: the game page keeps it in its URL" },
      },
    },
  },
};

/** Every error response (docs/design.md §9). */
export const ERROR_DOCUMENT: JsonSchema = {
  $id: 'ErrorDocument',
  type: 'object',
  required: ['errors', 'meta'],
  additionalProperties: false,
  properties: {
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['status', 'code', 'title', 'detail'],
        additionalProperties: false,
        properties: {
          status: { type: 'integer' },
          code: { type: 'string', enum: [...ERROR_CODES] },
          title: { type: 'string' },
          detail: { type: 'string', description: 'The spec\'s message, e.g. "Auth type not valid"' },
          source: {
            type: 'object',
            required: ['pointer'],
            additionalProperties: false,
            properties: { pointer: { type: 'string', description: 'e.g. /data/attributes/authType' } },
          },
          meta: {
            type: 'object',
            additionalProperties: false,
            properties: {
              allowedValues: {
                type: 'array',
                items: { type: 'string' },
                description: 'For a field that takes a closed list of values (gameCode, authType): the list',
              },
              serverTime: {
                type: 'integer',
                description: "timestamp_out_of_window: the service's clock when it checked, in Unix seconds",
              },
              windowSeconds: {
                type: 'integer',
                description:
                  'timestamp_out_of_window: how far a signed time may be from serverTime, either way',
              },
            },
          },
        },
      },
    },
    meta: {
      type: 'object',
      required: ['requestId'],
      properties: {
        requestId: { type: 'string', description: 'Also in the X-Request-Id header' },
        signature: {
          type: 'object',
          description:
            'Staging only, on a signature error: the strings the server hashed (without the secret), ' +
            'what the request carried that commonly explains the mistake, and the signature tester',
          required: ['canonical', 'hints', 'tester'],
          properties: {
            canonical: { type: 'string', description: 'The canonical string, the one the SDK signs' },
            acceptedAlternative: {
              type: 'string',
              description: 'v3: the string with the client parameter kept, which is accepted too',
            },
            hmacSigningText: {
              type: 'string',
              description:
                'An hmac sign header that could be read: the text the service keyed, its six lines joined ' +
                'by \\n (hmac-sha256, method, path and query, t, n, SHA-256 of the body), to compare with yours',
            },
            hints: {
              type: 'array',
              description:
                'Usual mistakes seen in this request; empty when none (a wrong secret, or a client that ' +
                'does not exist, which is never told apart)',
              items: {
                type: 'object',
                required: ['code', 'detail'],
                properties: {
                  code: {
                    type: 'string',
                    enum: [
                      'sign_header_missing',
                      'hmac_header_malformed',
                      'client_missing',
                      'body_misread',
                      'no_parameters',
                    ],
                    description:
                      'sign_header_missing: no sign header (the detail says where a sign came instead); ' +
                      'hmac_header_malformed: a sign that starts like an hmac header but is not one (the ' +
                      'detail gives its form); ' +
                      'client_missing: no clientId (v2) or client (v3) query parameter; body_misread: the ' +
                      'body is not of its Content-Type; no_parameters: nothing was signed',
                  },
                  detail: { type: 'string' },
                },
              },
            },
            tester: {
              type: 'string',
              format: 'uri',
              description: 'The signature tester page: paste the request to see each step',
            },
          },
        },
        restoreSessionUrl: {
          type: 'string',
          description: 'token_expired only: where the integrator asked to send the player back',
        },
      },
    },
  },
};

/** Documents registered once with the app (`addSchema`) and listed in the reference's components. */
export const SHARED_SCHEMAS: readonly JsonSchema[] = [
  SESSION_DOCUMENT,
  GAME_SESSION_DOCUMENT,
  GAME_SESSION_STATE_DOCUMENT,
  TOKEN_SESSION_DOCUMENT,
  ERROR_DOCUMENT,
];

/** A reference to a shared schema, e.g. `{ description: '…', ...ref(SESSION_DOCUMENT) }`. */
export function ref(schema: JsonSchema): { $ref: string } {
  // An unregistered $ref would leave a dangling reference in the document.
  if (!SHARED_SCHEMAS.includes(schema)) throw new Error(`${String(schema.$id)} is not in SHARED_SCHEMAS`);
  return { $ref: `${String(schema.$id)}#` };
}

/** Security requirement of the signed operations: the sign header, optional for clients without a secret. */
export const SIGNED = [{ signature: [] }, {}] as const;

/** Security requirement of v3: the sign header, or an operator-issued API key as a Bearer token. */
export const SIGNED_OR_API_KEY = [{ signature: [] }, { apiKey: [] }, {}] as const;

/** Security requirement of the token API: the auth token, as a Bearer header or the access-token query. */
export const AUTH_TOKEN = [{ authToken: [] }, { accessToken: [] }] as const;
