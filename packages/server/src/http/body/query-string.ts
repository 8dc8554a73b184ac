import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api-error.js';
import type { SchemaFields } from '../route-request.js';
import { parsePhpForm } from './php-form.js';

/** Marks the query of a request whose query string could not be read; invisible to any route reading it. */
const MALFORMED = Symbol('malformed query string');

/**
 * What the router's query-string parser answers for a query string it cannot read: an empty object,
 * marked. The router cannot fail a request itself; the hook below answers it.
 */
function malformedQuery(): Record<string, unknown> {
  return Object.defineProperty({}, MALFORMED, { value: true, enumerable: false });
}

/**
 * Answers 400 to a request whose query string is malformed (a bad percent-escape, too many parameters).
 * Read as empty it would mislead: v2 would answer "Not valid request signature", the token API 401,
 * and a game page would lose its client's frame origins. A preParsing hook runs after every onRequest
 * hook, so the 400 carries X-Request-Id and the other headers every response has.
 */
export function registerQueryStringCheck(app: FastifyInstance): void {
  app.withTypeProvider<SchemaFields>().addHook('preParsing', (request, _reply, payload, done) => {
    if (Object.hasOwn(request.query, MALFORMED)) {
      done(ApiError.of('bad_request', 'The query string is malformed'));
    } else {
      done(null, payload);
    }
  });
}

/** The query string as PHP reads it; a malformed one is marked, and answered 400 (registerQueryStringCheck). */
export function parseQueryString(text: string): Record<string, unknown> {
  try {
    return parsePhpForm(text);
  } catch {
    return malformedQuery();
  }
}
