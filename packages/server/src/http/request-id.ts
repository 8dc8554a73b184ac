/**
 * The service's own form of request id, a UUID (what it generates), in either case: a caller's
 * X-Request-Id of that form is kept, so a proxy or integrator can correlate; anything else is replaced
 * by a fresh one, because an id is logged and echoed and the caller chose its text (docs/design.md §11).
 * Not nginx's 32 hex digits: that is the form of an auth token, which no log line may carry.
 * A module of its own: the CLI and the console read request ids without the logger (Fastify, pino).
 */
const REQUEST_ID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/** Whether a text has the service's own form of request id (a UUID, either case). */
export const isRequestId = (text: string): boolean => REQUEST_ID.test(text);

/** The caller's X-Request-Id when it is of the service's own form (a UUID), else a fresh one. */
export function requestIdFrom(header: string | string[] | undefined, fallback: () => string): string {
  return typeof header === 'string' && isRequestId(header) ? header : fallback();
}
