import { JSON_API_MEDIA_TYPE } from '@poker-launch/sdk';
import type { AppContext } from '../app-context.js';
import { sendDocument } from '../http/json-api.js';
import type { RouteRequest } from '../http/route-request.js';
import { type RouteDefinition, route } from '../http/routes.js';
import { AUTH_TOKEN, ref, TOKEN_SESSION_DOCUMENT } from '../openapi/document-schemas.js';
import { errorResponses } from '../openapi/error-responses.js';
import { readBearerToken } from './bearer-token.js';
import { recordFirstUse } from './first-use.js';
import { toTokenSessionDocument } from './token.serializer.js';
import { LOGOUT_ERRORS, TOKEN_ERRORS } from './token-error-examples.js';
import { authenticateToken } from './token-session.js';

export const TOKEN_API_URL = '/api/web/v2/app/session';

const TOKEN_ERROR_DESCRIPTIONS = {
  400: 'The auth token came twice: as a Bearer header and as access-token',
  401: 'No auth token, or one that opens no active session; the code says which',
};

/** The token API: the game front end and game servers read the session (GET) or end it (DELETE, logout). */
export function tokenRoutes(context: AppContext): RouteDefinition[] {
  /** The session the token opens; its requests count against the session's own quota. */
  const authenticate = async (request: RouteRequest) => {
    const now = context.clock();
    const found = await authenticateToken(context, readBearerToken(request), now);
    return { quota: `session:${found.session.id}`, caller: { found, now } };
  };
  return [
    route({
      method: 'GET',
      url: TOKEN_API_URL,
      schema: {
        summary: 'Read the session of an auth token',
        description:
          'For the game front end and game servers: the session an auth token opens, while it is active.',
        tags: ['token'],
        operationId: 'getTokenSession',
        security: AUTH_TOKEN,
        produces: [JSON_API_MEDIA_TYPE],
        response: {
          200: { description: 'The active session', ...ref(TOKEN_SESSION_DOCUMENT) },
          ...errorResponses(TOKEN_ERRORS, TOKEN_ERROR_DESCRIPTIONS),
        },
      },
      authenticate,
      async handler(request, reply, { found, now }) {
        await recordFirstUse(context, found, now, (error) =>
          request.log.warn({ err: error }, 'could not record the first use of a session'),
        );
        return sendDocument(reply, 200, toTokenSessionDocument(found, now));
      },
    }),
    route({
      method: 'DELETE',
      url: TOKEN_API_URL,
      schema: {
        summary: 'End the session of an auth token (logout)',
        tags: ['token'],
        operationId: 'deleteTokenSession',
        security: AUTH_TOKEN,
        produces: [JSON_API_MEDIA_TYPE],
        response: {
          204: { description: 'Ended; the token opens nothing any more', type: 'null' },
          ...errorResponses(LOGOUT_ERRORS, TOKEN_ERROR_DESCRIPTIONS),
        },
      },
      authenticate,
      async handler(request, reply, { found, now }) {
        const { session } = found;
        await recordFirstUse(context, found, now, (error) =>
          request.log.warn({ err: error }, 'could not record the first use of a session'),
        );
        await context.sessions.revoke({ kind: 'revoke', id: session.id, at: now.toISOString() });
        return reply.code(204).header('cache-control', 'no-store').send();
      },
    }),
  ];
}
