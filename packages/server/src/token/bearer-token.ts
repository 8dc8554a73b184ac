import { ApiError } from '../http/api-error.js';
import { parseBearer } from '../http/bearer.js';
import type { RouteRequest } from '../http/route-request.js';

/**
 * The auth token of a token API request: `Authorization: Bearer <auth>` or `?access-token=<auth>`
 * (RFC 6750 §2.1 and §2.3). `undefined` when the request carries none.
 */
export function readBearerToken(request: RouteRequest): string | undefined {
  const fromHeader = parseBearer(request.headers.authorization);
  const inQuery = request.query['access-token'];
  const fromQuery = typeof inQuery === 'string' ? inQuery : undefined;
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
