import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error.js';
import { parseBearer } from '../http/bearer.js';

/**
 * The auth token of a token API request: `Authorization: Bearer <auth>` or `?access-token=<auth>`
 * (RFC 6750 §2.1 and §2.3). `undefined` when the request carries none.
 */
export function readBearerToken(request: FastifyRequest): string | undefined {
  const fromHeader = parseBearer(request.headers.authorization);
  const query = (request.query ?? {}) as Record<string, unknown>;
  const fromQuery = typeof query['access-token'] === 'string' ? query['access-token'] : undefined;
  // RFC 6750 §2: one method per request; two could disagree about who is asking.
  if (fromHeader !== undefined && fromQuery !== undefined) {
    throw ApiError.of(
      'bad_request',
      'Send the auth token once: either Authorization: Bearer or access-token',
    );
  }
  const token = fromHeader ?? fromQuery;
  return token === '' ? undefined : token;
}
