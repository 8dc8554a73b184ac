import type { AppContext } from '../app-context.js';
import { sendDocument } from '../http/json-api.js';
import type { RouteDefinition } from '../http/routes.js';
import { setTransportSecurity } from '../pages/security-headers.js';
import { revokeSession } from '../sessions/session.repository.js';
import { readBearerToken } from './bearer-token.js';
import { toTokenSessionDocument } from './token.serializer.js';
import { authenticateToken } from './token-session.js';

export const TOKEN_API_URL = '/api/web/v2/app/session';

/** The token API: the game front end and game servers read the session (GET) or end it (DELETE, logout). */
export function tokenRoutes(context: AppContext): RouteDefinition[] {
  return [
    {
      method: 'GET',
      url: TOKEN_API_URL,
      async handler(request, reply) {
        setTransportSecurity(reply, context.config);
        const now = context.clock();
        const found = await authenticateToken(context.db, readBearerToken(request), now);
        return sendDocument(reply, 200, toTokenSessionDocument(found, now));
      },
    },
    {
      method: 'DELETE',
      url: TOKEN_API_URL,
      async handler(request, reply) {
        setTransportSecurity(reply, context.config);
        const now = context.clock();
        const { session } = await authenticateToken(context.db, readBearerToken(request), now);
        await revokeSession(context.db, session.id, now);
        return reply.code(204).header('cache-control', 'no-store').send();
      },
    },
  ];
}
